import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockReply } from '../../../test/fetch-mock.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { NOTE_ID, NOTE_ID_2, ettnRoutes, ettnSession, ettnView, refusal } from '../ettn-test-data.ts';

const ACT_ID = '99999999-9999-4999-8999-999999999999';

afterEach(() => {
  vi.restoreAllMocks();
});

const sent: MockReply = {
  body: {
    processId: NOTE_ID,
    documentId: '88888888-8888-4888-8888-888888888888',
    documentDetId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
    status: 'PICKUP',
    documentStatus: null,
    processDocumentStatus: 'OK',
  },
};

type App = Awaited<ReturnType<typeof renderApp>>;
const signCalls = (app: App) => app.api.calls.filter((c) => c.path === '/api/ettns/signAndSend');
const viewCalls = (app: App) => app.api.calls.filter((c) => c.path === '/api/ettns/documentView').length;

async function openNote(app: App) {
  const dialog = await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' });
  return within(dialog).findByTestId('ettn-actions');
}

describe('the e-TTN actions panel', () => {
  it("offers the carrier's driver the pick-up signature and sends it as the driver's role, with the view's status", async () => {
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(['ettn', 'ETTN_DR']),
      routes: ettnRoutes({
        'POST /api/ettns/documentView': {
          body: ettnView({
            status: 'PLANNED',
            version: 1,
            currentStep: 'pickup_sign',
            mustAct: ['CA'],
            myRoles: ['DR'],
          }),
        },
        'POST /api/ettns/signAndSend': sent,
      }),
    });
    const panel = await openNote(app);
    const sign = within(panel).getByTestId('ettn-action-sign');
    expect(sign.textContent).toBe('Sign the pick-up');
    expect(within(panel).getByTestId('ettn-action-refuse')).toBeTruthy();
    // The act awaits the carrier (CA): the driver counts as the carrier.
    expect(within(panel).getByTestId('ettn-act-countersign')).toBeTruthy();
    const before = viewCalls(app);
    await app.user.click(sign);
    await waitFor(() => expect(signCalls(app)).toHaveLength(1));
    expect(signCalls(app)[0]?.body).toEqual({
      processId: NOTE_ID,
      signingPartyRoleCode: 'DR',
      decision: 'sign',
      actualStatus: 'PLANNED',
      actualVersion: 1,
    });
    // The view is asked again (the note moved on), and the list under it.
    await waitFor(() => expect(viewCalls(app)).toBeGreaterThan(before));
    expect(await app.screen.findByText('Signed and sent to the registry.')).toBeTruthy();
  });

  it('offers the consignee the arrival and refuses it with a reason', async () => {
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(['ettn', 'ETTN_CN']),
      routes: ettnRoutes({
        'POST /api/ettns/documentView': { body: ettnView({ myRoles: ['CN'] }) },
        'POST /api/ettns/signAndSend': sent,
      }),
    });
    const panel = await openNote(app);
    expect(within(panel).getByTestId('ettn-action-sign').textContent).toBe('Sign the arrival');
    // The act waits for the carrier, not for the consignee.
    expect(within(panel).queryByTestId('ettn-act-countersign')).toBeNull();
    await app.user.click(within(panel).getByTestId('ettn-action-refuse'));
    await app.user.type(within(panel).getByLabelText('Reason for refusing'), 'Goods damaged');
    await app.user.click(within(panel).getByTestId('ettn-action-refuse-confirm'));
    await waitFor(() =>
      expect(signCalls(app)[0]?.body).toEqual({
        processId: NOTE_ID,
        signingPartyRoleCode: 'CN',
        decision: 'reject',
        reason: 'Goods damaged',
        actualStatus: 'PICKUP',
        actualVersion: 2,
      }),
    );
  });

  it('shows no step to a party that need not act, but countersigns and rejects the act awaiting it', async () => {
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({ 'POST /api/ettns/signAndSend': sent }),
    });
    const panel = await openNote(app);
    expect(within(panel).queryByTestId('ettn-action-sign')).toBeNull();
    expect(within(panel).queryByTestId('ettn-action-refuse')).toBeNull();
    await app.user.click(within(panel).getByRole('button', { name: 'Countersign the Disagreement act' }));
    await waitFor(() =>
      expect(signCalls(app)[0]?.body).toEqual({
        processId: NOTE_ID,
        documentId: ACT_ID,
        signingPartyRoleCode: 'CA',
        decision: 'sign',
        actualStatus: 'PICKUP',
        actualVersion: 2,
      }),
    );
    await app.user.click(within(panel).getByTestId('ettn-act-reject'));
    await app.user.click(within(panel).getByTestId('ettn-act-reject-confirm'));
    await waitFor(() =>
      expect(signCalls(app)[1]?.body).toEqual({
        processId: NOTE_ID,
        documentId: ACT_ID,
        signingPartyRoleCode: 'CA',
        decision: 'reject',
        actualStatus: 'PICKUP',
        actualVersion: 2,
      }),
    );
  });

  it('starts an act of the chosen type with its reason', async () => {
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(),
      routes: ettnRoutes({ 'POST /api/ettns/signAndSend': sent }),
    });
    const panel = await openNote(app);
    const start = within(panel).getByTestId('ettn-act-start');
    expect((start as HTMLButtonElement).disabled).toBe(true);
    await app.user.click(within(panel).getByRole('combobox', { name: 'Act type' }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Stop act' }));
    await app.user.type(within(panel).getByLabelText('Reason'), 'Road closed');
    await app.user.click(start);
    await waitFor(() =>
      expect(signCalls(app)[0]?.body).toEqual({
        processId: NOTE_ID,
        signingPartyRoleCode: 'CA',
        actType: 'StopAct',
        reason: 'Road closed',
        actualStatus: 'PICKUP',
        actualVersion: 2,
      }),
    );
  });

  it("says a refusal in its e-TTN code's words and stays open", async () => {
    const app = await renderApp({
      path: `/ettn/${NOTE_ID}`,
      session: ettnSession(['ettn', 'ETTN_CN']),
      routes: ettnRoutes({
        'POST /api/ettns/documentView': { body: ettnView({ myRoles: ['CN'] }) },
        'POST /api/ettns/signAndSend': refusal('ettn.7'),
      }),
    });
    const panel = await openNote(app);
    await app.user.click(within(panel).getByTestId('ettn-action-sign'));
    const alert = await within(panel).findByTestId('ettn-action-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toBe('Incorrect transition between TTN states');
    expect(app.screen.getByRole('dialog', { name: 'e-TTN TTN-0001' })).toBeTruthy();
  });

  it('signs and sends a pending upload as the consignor, then opens the registered note', async () => {
    const app = await renderApp({
      path: `/ettn/pending/${NOTE_ID_2}`,
      session: ettnSession(['ettn', 'ETTN_CZ']),
      routes: ettnRoutes({
        'POST /api/ettns/documentView': ({ body }) => ({
          body: (body as { isPending: boolean }).isPending
            ? ettnView({
                processId: NOTE_ID_2,
                isPending: true,
                status: 'PENDING',
                version: 0,
                currentStep: 'consignor_send',
                mustAct: ['CZ'],
                myRoles: ['CZ'],
                acts: [],
              })
            : ettnView(),
        }),
        'POST /api/ettns/signAndSend': sent,
      }),
    });
    const panel = await openNote(app);
    expect(within(panel).queryByTestId('ettn-act-start')).toBeNull();
    const sign = within(panel).getByTestId('ettn-action-sign');
    expect(sign.textContent).toBe('Sign and send');
    await app.user.click(sign);
    await waitFor(() =>
      expect(signCalls(app)[0]?.body).toEqual({
        registeredFileId: NOTE_ID_2,
        signingPartyRoleCode: 'CZ',
        actualStatus: 'PENDING',
        actualVersion: 0,
      }),
    );
    await waitFor(() => expect(currentHref(app.router)).toBe(`/ettn/${NOTE_ID}`));
  });
});
