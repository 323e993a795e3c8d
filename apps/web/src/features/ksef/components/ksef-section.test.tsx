import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeaturePermission, FeatureToggle, KsefConnectionTest, KsefConnectionView } from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const ADMIN: FeaturePermission[] = ['COMPANY_PROFILE_READ', 'COMPANY_PROFILE_MODIFY'];

const saved: KsefConnectionView = {
  configured: true,
  nip: '5250001003',
  environment: 'test',
  baseUrl: 'https://api-test.ksef.mf.gov.pl/v2',
  authMethod: 'token',
  hasToken: true,
  certificate: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
  receivedAt: null,
};

const notSet: KsefConnectionView = {
  configured: false,
  nip: null,
  environment: null,
  baseUrl: null,
  authMethod: null,
  hasToken: false,
  certificate: null,
  updatedAt: null,
  receivedAt: null,
};

function session(): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ roles: [], exp }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

/** The profile page's answers for a company administrator, with the company's toggles and its KSeF settings. */
function routes(
  options: { permissions?: FeaturePermission[]; toggles?: FeatureToggle[]; settings?: KsefConnectionView } = {},
): Record<string, MockHandler | MockReply> {
  return {
    'GET /api/users/permissions': {
      body: { permissions: options.permissions ?? ADMIN, toggles: options.toggles ?? ['KSEF'] },
    },
    'GET /api/users/getUserData': {
      body: {
        id: 'user-1',
        email: 'user@demo.example.com',
        firstName: 'Uma',
        lastName: 'User',
        language: 'en',
        telephone: null,
        companyId: 'company-1',
        companyName: 'Demo Supplier',
        roles: [],
      },
    },
    'GET /api/company/profile': {
      body: {
        id: 'company-1',
        name: 'Demo Supplier',
        vatId: 'PL5250001003',
        taxId: null,
        street: null,
        postalCode: null,
        city: 'Warsaw',
        country: 'PL',
        bankAccount: null,
        electronicAddress: null,
        electronicAddressScheme: null,
        signerPost: null,
        signerName: null,
        signerCode: null,
        companyPrefix: null,
        legalForm: null,
        taxSystem: null,
        taxpayerKind: null,
        taxpayerType: null,
      },
    },
    'GET /api/company/locations': { body: { items: [], nextCursor: null, total: 0 } },
    'GET /api/company/api-keys': { body: { items: [], nextCursor: null } },
    'GET /api/company/ksef': { body: options.settings ?? saved },
  };
}

async function openSection(app: Awaited<ReturnType<typeof renderApp>>) {
  const section = await app.screen.findByTestId('ksef', {}, { timeout: 10_000 });
  // The form appears once the settings have loaded.
  await within(section).findByRole('form', { name: 'KSeF settings' });
  return section;
}

const puts = (app: Awaited<ReturnType<typeof renderApp>>) =>
  app.api.calls.filter((c) => c.method === 'PUT' && c.path === '/api/company/ksef').map((c) => c.body);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('KsefSection on the company-settings panel', () => {
  it('loads the settings and saves them, sending the token only when one was typed', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: {
        ...routes(),
        'PUT /api/company/ksef': ({ body }) => ({
          body: { ...saved, ...(body as object), hasToken: true, updatedAt: '2026-11-27T10:00:00.000Z' },
        }),
      },
    });
    const section = await openSection(app);
    expect(within(section).getByRole('heading', { name: 'KSeF (National e-Invoice System)' })).toBeTruthy();
    const nip = within(section).getByRole('textbox', { name: /^NIP/ }) as HTMLInputElement;
    expect(nip.value).toBe('5250001003');
    expect((within(section).getByRole('combobox', { name: /KSeF environment/ }) as HTMLInputElement).value).toBe(
      'KSeF TEST',
    );
    expect((within(section).getByRole('radio', { name: /KSeF token/ }) as HTMLInputElement).checked).toBe(true);
    expect(within(section).getByText('A token is saved; type a new one to replace it')).toBeTruthy();
    const save = within(section).getByRole('button', { name: 'Save' });
    expect((save as HTMLButtonElement).disabled).toBe(true);

    // Another environment, the token left empty: the saved token is kept (none is sent).
    await app.user.click(within(section).getByRole('combobox', { name: /KSeF environment/ }));
    await app.user.click(await app.screen.findByRole('option', { name: 'KSeF DEMO (pre-production)' }));
    await app.user.click(save);
    expect(await app.screen.findByText('KSeF settings saved')).toBeTruthy();
    expect(puts(app)).toEqual([{ nip: '5250001003', environment: 'demo', authMethod: 'token' }]);

    // A typed token is sent, and the field is empty again after saving.
    const token = within(section).getByLabelText(/^KSeF token/, { selector: 'input:not([type="radio"])' });
    await app.user.type(token, 'new-ksef-token');
    await app.user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(app)).toHaveLength(2));
    expect(puts(app)[1]).toEqual({
      nip: '5250001003',
      environment: 'demo',
      authMethod: 'token',
      token: 'new-ksef-token',
    });
    await waitFor(() => expect((token as HTMLInputElement).value).toBe(''));
  });

  it('checks the form before sending, and puts the field errors of a 400 on their fields', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: {
        ...routes({ settings: notSet }),
        'PUT /api/company/ksef': {
          status: 400,
          body: {
            error: {
              code: 'validation.failed',
              message: 'x',
              details: [{ field: 'baseUrl', code: 'invalidUrl' }],
            },
            requestId: 'r',
          },
        },
      },
    });
    const section = await openSection(app);
    expect(within(section).getByText(/KSeF is not set up yet/)).toBeTruthy();

    const nip = within(section).getByRole('textbox', { name: /^NIP/ });
    await app.user.type(nip, '1234567890');
    await app.user.click(within(section).getByRole('combobox', { name: /KSeF environment/ }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Other address…' }));
    await app.user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('This NIP is incorrect (10 digits with a valid check digit)')).toBeTruthy();
    expect(within(section).getByText('This field is required')).toBeTruthy();
    expect(puts(app)).toEqual([]);

    await app.user.clear(nip);
    await app.user.type(nip, '525-000-10-03');
    await app.user.type(within(section).getByRole('textbox', { name: /Base URL/ }), 'https://ksef.example.com/v2');
    await app.user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Enter an address starting with https:// or http://')).toBeTruthy();
    expect(puts(app)).toEqual([
      { nip: '5250001003', environment: 'custom', baseUrl: 'https://ksef.example.com/v2', authMethod: 'token' },
    ]);
  });

  it('uploads a certificate as multipart with its password, and shows a refused file on its field', async () => {
    const validTo = new Date(Date.now() + 10 * DAY_MS).toISOString();
    const withCertificate: KsefConnectionView = {
      ...saved,
      authMethod: 'certificate',
      hasToken: false,
      certificate: {
        subject: 'CN=Demo Supplier, 2.5.4.97=VATPL-5250001003',
        validFrom: '2026-01-01T00:00:00.000Z',
        validTo,
        fingerprint: 'AB:CD',
      },
    };
    let uploads = 0;
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: {
        ...routes({ settings: { ...saved, authMethod: 'certificate', hasToken: false } }),
        'POST /api/company/ksef/certificate': () => {
          uploads += 1;
          return uploads === 1
            ? { body: withCertificate }
            : {
                status: 400,
                body: {
                  error: {
                    code: 'validation.failed',
                    message: 'x',
                    details: [{ field: 'password', code: 'wrongPassword' }],
                  },
                  requestId: 'r',
                },
              };
        },
      },
    });
    // Multipart bodies go through the global fetch, not the JSON client.
    const forms: FormData[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.body instanceof FormData) forms.push(init.body);
      return app.api.fetch(input, init);
    });
    const section = await openSection(app);
    const block = within(section).getByTestId('ksef-certificate');
    expect(within(block).getByText('No certificate uploaded yet.')).toBeTruthy();
    expect(within(section).queryByText('A token is saved; type a new one to replace it')).toBeNull();

    await app.user.click(within(block).getByRole('button', { name: 'Upload certificate' }));
    expect(await within(block).findByText('Choose a certificate file')).toBeTruthy();
    expect(forms).toEqual([]);

    const input = block.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(['-----BEGIN CERTIFICATE-----'], 'seal.p12', { type: 'application/x-pkcs12' });
    await app.user.upload(input, file);
    await app.user.type(within(block).getByLabelText(/File password/), 'secret');
    await app.user.click(within(block).getByRole('button', { name: 'Upload certificate' }));
    expect(await app.screen.findByText('The certificate was uploaded')).toBeTruthy();
    expect(forms).toHaveLength(1);
    expect(forms[0]?.get('password')).toBe('secret');
    expect((forms[0]?.get('file') as File).name).toBe('seal.p12');
    // No settings were saved by the upload.
    expect(puts(app)).toEqual([]);

    // The new certificate is shown, with a warning: it ends within 30 days.
    expect(await within(block).findByText('CN=Demo Supplier, 2.5.4.97=VATPL-5250001003')).toBeTruthy();
    expect(within(block).getByText(/The certificate expires on .+\. Upload a new one before then\./)).toBeTruthy();

    await app.user.upload(input, file);
    await app.user.type(within(block).getByLabelText(/File password/), 'wrong{Enter}');
    expect(await within(block).findByText('The password is wrong for this file')).toBeTruthy();
    expect(forms).toHaveLength(2);
    expect(puts(app)).toEqual([]);
  });

  it('says the certificate needs saved settings first', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: routes({ settings: notSet }),
    });
    const section = await openSection(app);
    await app.user.click(within(section).getByRole('radio', { name: /Certificate \(XAdES\)/ }));
    const block = await within(section).findByTestId('ksef-certificate');
    expect(within(block).getByText('Save the settings first; then you can upload the certificate.')).toBeTruthy();
    expect((within(block).getByRole('button', { name: 'Upload certificate' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows the connection test’s result both ways, with KSeF’s code and message when it refused', async () => {
    const answers: KsefConnectionTest[] = [
      { ok: true, code: null, message: null },
      { ok: false, code: 21115, message: 'Nieprawidłowy token' },
      { ok: false, code: null, message: 'not_configured' },
    ];
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: { ...routes(), 'POST /api/company/ksef/test': () => ({ body: answers.shift() }) },
    });
    const section = await openSection(app);
    const test = within(section).getByRole('button', { name: 'Test connection' });

    await app.user.click(test);
    expect((await within(section).findByTestId('ksef-test-result')).textContent).toBe(
      'Connected: KSeF accepted the login.',
    );
    await app.user.click(test);
    await waitFor(() =>
      expect(within(section).getByTestId('ksef-test-result').textContent).toBe(
        'KSeF refused: 21115 Nieprawidłowy token',
      ),
    );
    await app.user.click(test);
    await waitFor(() =>
      expect(within(section).getByTestId('ksef-test-result').textContent).toMatch(/^KSeF cannot log in yet/),
    );

    // Unsaved changes: the test would use the old settings, so it waits for a save.
    await app.user.type(within(section).getByRole('textbox', { name: /^NIP/ }), '1');
    expect((test as HTMLButtonElement).disabled).toBe(true);
    expect(within(section).getByText('Save your changes first: the test uses the saved settings.')).toBeTruthy();
    expect(within(section).queryByTestId('ksef-test-result')).toBeNull();
  });

  it('receives invoices now on request, and says when they were last received', async () => {
    let settingsReads = 0;
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: {
        ...routes(),
        // The first read: never received; after "Receive now" the settings are read again, with the new time.
        'GET /api/company/ksef': () => {
          settingsReads += 1;
          return { body: settingsReads === 1 ? saved : { ...saved, receivedAt: '2026-11-27T09:30:00.000Z' } };
        },
        'POST /api/company/ksef/receive': { status: 202, body: { queued: true } },
      },
    });
    const section = await openSection(app);
    const block = within(section).getByTestId('ksef-receive');
    expect(within(block).getByTestId('ksef-received-at').textContent).toBe('No invoices received from KSeF yet.');
    await app.user.click(within(block).getByRole('button', { name: 'Receive invoices now' }));
    expect(
      await app.screen.findByText('Receiving has started: new invoices will appear in the inbox in a moment.'),
    ).toBeTruthy();
    expect(app.api.calls.filter((c) => c.method === 'POST' && c.path === '/api/company/ksef/receive')).toHaveLength(1);
    await waitFor(() =>
      expect(within(block).getByTestId('ksef-received-at').textContent).toMatch(/^Invoices last received: .*2026/),
    );
  });

  it('offers no receiving before the settings are saved', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: routes({ settings: notSet }),
    });
    const section = await openSection(app);
    expect(within(section).queryByTestId('ksef-receive')).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Receive invoices now' })).toBeNull();
  });

  it('asks Stay or Leave before leaving with a KSeF change unsaved', async () => {
    const app = await renderApp({ path: '/profile?panel=company-settings', session: session(), routes: routes() });
    const section = await openSection(app);
    await app.user.type(
      within(section).getByLabelText(/^KSeF token/, { selector: 'input:not([type="radio"])' }),
      'typed-token',
    );
    void app.router.navigate({ to: '/documents/in' });
    const dialog = await app.screen.findByRole('dialog', { name: 'Unsaved changes' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(app.screen.queryByRole('dialog')).toBeNull());
    expect(currentHref(app.router)).toBe('/profile?panel=company-settings');
  });

  it('hides itself without the KSEF or DEMO_KSEF toggle, and asks nothing of the API', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: routes({ toggles: ['CHAT_AI'] }),
    });
    await app.screen.findByTestId('api-keys', {}, { timeout: 10_000 });
    expect(app.screen.queryByTestId('ksef')).toBeNull();
    expect(app.api.calls.some((c) => c.path.startsWith('/api/company/ksef'))).toBe(false);
  });

  it('is shown with DEMO_KSEF, and not to a user who cannot edit the company', async () => {
    const demo = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: routes({ toggles: ['DEMO_KSEF'] }),
    });
    await openSection(demo);
    demo.unmount();

    const reader = await renderApp({
      path: '/profile?panel=company-settings',
      session: session(),
      routes: routes({ permissions: ['COMPANY_PROFILE_READ'] }),
    });
    await reader.screen.findByTestId('company-locations', {}, { timeout: 10_000 });
    expect(reader.screen.queryByTestId('ksef')).toBeNull();
    expect(reader.api.calls.some((c) => c.path.startsWith('/api/company/ksef'))).toBe(false);
  });
});
