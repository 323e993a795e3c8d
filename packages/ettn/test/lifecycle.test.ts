/**
 * The state machine, table-driven: every note status against every move (the note's actions and the nine acts'
 * completions): a move the table holds succeeds for a holder of its role and gives 20/21 to anyone else; every other
 * move gives 7. Then the acts' stages and signing routes, supporting documents, signature counts and the chain.
 */
import { describe, expect, it } from 'vitest';
import {
  ACT_ROUTES,
  ACT_STAGES,
  actTransition,
  allowedMoves,
  attachSupportingDocument,
  checkChain,
  checkSignatureCount,
  ETTN_STATUSES,
  NOTE_ACTIONS,
  NOTE_STATUSES,
  NOTE_TRANSITIONS,
  nextActSigner,
  startAct,
  STATUS_PROGRESSION,
  SUPPORTING_DOCUMENT_STATUSES,
  SUPPORTING_DOCUMENT_TRANSITIONS,
  SUPPORTING_DOCUMENT_TYPES,
  supportingDocumentId,
  supportingDocumentTransition,
  transition,
  type ActState,
  type NoteMove,
  type NoteStatus,
} from '../src/lifecycle.ts';
import { ACT_TYPES, type ActType } from '../src/model.ts';
import { partyRolesOf, PARTY_ROLES, portalRoleOf, REGISTRY_ACTOR } from '../src/roles.ts';

const MOVES: NoteMove[] = [...NOTE_ACTIONS, ...ACT_TYPES.map((t) => `act:${t}` as const)];
const actorFor = (role: string): string[] => (role === REGISTRY_ACTOR ? [REGISTRY_ACTOR] : [`ETTN_${role}`]);
/** Every portal role and the registry, to find someone who may not make a move. */
const EVERYONE = [...PARTY_ROLES, REGISTRY_ACTOR];

describe('statuses', () => {
  it('are the eleven of the description, with its ordered progression', () => {
    expect(ETTN_STATUSES).toEqual([
      'NULL',
      'PENDING',
      'SIGNATURE_PENDING',
      'REGISTRATION_PENDING',
      'PLANNED',
      'PICKUP',
      'ONSTORAGE',
      'ARRIVED',
      'CANCELED',
      'ERROR',
      'SIGNED',
    ]);
    expect(STATUS_PROGRESSION).toEqual([
      'PLANNED',
      'PICKUP',
      'ONSTORAGE',
      'ARRIVED',
      'SIGNATURE_PENDING',
      'SIGNED',
      'CANCELED',
    ]);
  });
});

describe('the note transition table', () => {
  for (const status of NOTE_STATUSES) {
    for (const move of MOVES) {
      const row = NOTE_TRANSITIONS[status][move];
      if (row === undefined) {
        it(`${status} × ${move} is refused with 7, whoever asks`, () => {
          for (const role of EVERYONE)
            expect(transition(status, move, actorFor(role))).toMatchObject({ ok: false, code: 7 });
        });
        continue;
      }
      it(`${status} × ${move} → ${row.to} for ${row.roles.join('/')}, ${move.startsWith('act:') ? 21 : 20} for others`, () => {
        for (const role of row.roles)
          expect(transition(status, move, actorFor(role))).toEqual({ ok: true, state: row.to });
        // DR and CH act as CA, so they are no outsiders of a carrier's move.
        const others = EVERYONE.filter(
          (r) => !row.roles.includes(r) && !(row.roles.includes('CA') && (r === 'DR' || r === 'CH')),
        );
        expect(others.length).toBeGreaterThan(0);
        for (const role of others) {
          expect(transition(status, move, actorFor(role))).toMatchObject({
            ok: false,
            code: move.startsWith('act:') ? 21 : 20,
          });
        }
      });
    }
  }

  it('CANCELED is terminal; every status but CANCELED has a way on', () => {
    expect(allowedMoves('CANCELED')).toEqual([]);
    for (const s of NOTE_STATUSES.filter((s) => s !== 'CANCELED')) expect(allowedMoves(s).length, s).toBeGreaterThan(0);
  });

  it('sub-roles fold into their parent: the driver and the next carrier sign the carrier’s pick-up', () => {
    expect(transition('PLANNED', 'pickup_sign', ['ETTN_DR'])).toEqual({ ok: true, state: 'PICKUP' });
    expect(transition('PLANNED', 'pickup_sign', ['ETTN_CH'])).toEqual({ ok: true, state: 'PICKUP' });
    expect(transition('PLANNED', 'pickup_sign', ['ettn', 'ETTN_CZ'])).toMatchObject({ ok: false, code: 20 });
    expect([...partyRolesOf(['ettn', 'ETTN_DR', 'ETTN_CN', 'ETTN_XX', 'CA'])].sort()).toEqual(['CA', 'CN']);
    expect(PARTY_ROLES.map(portalRoleOf)).toContain('ETTN_COP');
  });

  it('a whole journey: draft, registration, pick-up, storage and back, arrival', () => {
    const steps: [NoteMove, string[], NoteStatus][] = [
      ['consignor_send', ['ETTN_CZ'], 'REGISTRATION_PENDING'],
      ['registry_reject', [REGISTRY_ACTOR], 'ERROR'],
      ['consignor_send', ['ETTN_CZ'], 'REGISTRATION_PENDING'],
      ['registry_accept', [REGISTRY_ACTOR], 'PLANNED'],
      ['pickup_sign', ['ETTN_DR'], 'PICKUP'],
      ['act:StorageDeliveryAct', ['ETTN_CA'], 'ONSTORAGE'],
      ['act:StoragePickUpAct', ['ETTN_WH'], 'PICKUP'],
      ['act:DisagreementAct', ['ETTN_CN'], 'PICKUP'],
      ['arrival_sign', ['ETTN_CN'], 'ARRIVED'],
      ['act:AdjustmentAct', ['ETTN_OB'], 'ARRIVED'],
    ];
    let state: NoteStatus = 'NULL';
    for (const [move, roles, to] of steps) {
      const outcome = transition(state, move, roles);
      expect(outcome, `${state} × ${move}`).toEqual({ ok: true, state: to });
      state = to;
    }
    expect(transition(state, 'pickup_sign', ['ETTN_CA'])).toMatchObject({ ok: false, code: 7 });
  });
});

describe('acts', () => {
  // PICKUP allows all but RejectAct; the storage pick-up starts from ONSTORAGE (EDIN's PICKUP with its storage flag).
  it('stages: PLANNED allows RejectAct and StopAct, PICKUP all but RejectAct, ARRIVED only AdjustmentAct', () => {
    const allowedIn = (s: NoteStatus) => ACT_TYPES.filter((t) => ACT_STAGES[t].includes(s)).sort();
    expect(allowedIn('PLANNED')).toEqual(['RejectAct', 'StopAct']);
    expect(allowedIn('PICKUP')).toEqual(ACT_TYPES.filter((t) => t !== 'RejectAct' && t !== 'StoragePickUpAct').sort());
    expect(allowedIn('ONSTORAGE')).toContain('StoragePickUpAct');
    expect(allowedIn('ARRIVED')).toEqual(['AdjustmentAct']);
    for (const s of ['NULL', 'PENDING', 'REGISTRATION_PENDING', 'ERROR', 'CANCELED'] as const)
      expect(allowedIn(s)).toEqual([]);
  });

  for (const type of ACT_TYPES) {
    describe(type, () => {
      for (const status of NOTE_STATUSES) {
        const allowed = ACT_STAGES[type].includes(status);
        it(`${allowed ? 'starts' : 'is refused with 7'} in ${status}`, () => {
          const initiator = ACT_ROUTES[type][0]![0]!;
          const outcome = startAct(status, type, actorFor(initiator));
          if (allowed) expect(outcome).toMatchObject({ ok: true, state: { status: 'SIGNATURE_PENDING' } });
          else expect(outcome).toMatchObject({ ok: false, code: 7 });
        });
      }

      it('every route signs through to SIGNED in order; a wrong signer gets 21; a signed act takes no more (12)', () => {
        const stage = ACT_STAGES[type][0]!;
        for (const route of ACT_ROUTES[type]) {
          const started = startAct(stage, type, actorFor(route[0]!));
          expect(started.ok).toBe(true);
          if (!started.ok) return;
          let act: ActState = { ...started.state, route, signedBy: [route[0]!] };
          for (const role of route.slice(1)) {
            const wrong = PARTY_ROLES.find((r) => r !== role && !(role === 'CA' && ['CH', 'DR'].includes(r)))!;
            expect(actTransition(act, 'countersign', actorFor(wrong))).toMatchObject({ ok: false, code: 21 });
            const next = actTransition(act, 'countersign', actorFor(role));
            expect(next.ok).toBe(true);
            if (next.ok) act = next.state;
          }
          expect(act.status).toBe('SIGNED');
          expect(nextActSigner(act)).toBeUndefined();
          expect(actTransition(act, 'countersign', actorFor(route.at(-1)!))).toMatchObject({ ok: false, code: 12 });
        }
      });

      it('is refused with 21 to a party that starts none of its routes', () => {
        const starters = new Set(ACT_ROUTES[type].map((r) => r[0]));
        const outsider = ['IO', 'OV'].find((r) => !starters.has(r))!;
        expect(startAct(ACT_STAGES[type][0]!, type, actorFor(outsider))).toMatchObject({ ok: false, code: 21 });
      });
    });
  }

  it('a countersigner may reject: the act is CANCELED and the note stays where it was', () => {
    const started = startAct('PICKUP', 'ResealingAct', ['ETTN_OB']);
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    expect(actTransition(started.state, 'reject', ['ETTN_DR'])).toMatchObject({
      ok: true,
      state: { status: 'CANCELED' },
    });
  });

  it('the consignee-change route follows its initiator', () => {
    const byConsignor = startAct('PICKUP', 'ConsigneeChangeAct', ['ETTN_CZ']);
    expect(byConsignor.ok && byConsignor.state.route).toEqual(['CZ', 'CA', 'OB']);
  });

  it.each(ACT_TYPES)(
    '%s completes on the note only from its stages (the table and the stages agree)',
    (type: ActType) => {
      for (const s of NOTE_STATUSES)
        expect(NOTE_TRANSITIONS[s][`act:${type}`] !== undefined).toBe(ACT_STAGES[type].includes(s));
    },
  );
});

describe('supporting documents', () => {
  it('are 25 types with dictionary ids 1–25', () => {
    expect(SUPPORTING_DOCUMENT_TYPES).toHaveLength(25);
    expect(new Set(SUPPORTING_DOCUMENT_TYPES).size).toBe(25);
    expect(supportingDocumentId('Order')).toBe(1);
    expect(supportingDocumentId('Certificate_of_quality')).toBe(14);
  });

  it('attach: 27 unknown type, 24 in a note state without documents, 21 not a party', () => {
    expect(attachSupportingDocument('PICKUP', 'Invoice', ['ETTN_CA'])).toMatchObject({ ok: false, code: 27 });
    expect(attachSupportingDocument('CANCELED', 'Order', ['ETTN_CA'])).toMatchObject({ ok: false, code: 24 });
    expect(attachSupportingDocument('PICKUP', 'Order', ['ETTN_IO'])).toMatchObject({ ok: false, code: 21 });
    expect(attachSupportingDocument('PICKUP', 'Order', ['ETTN_DR'])).toEqual({
      ok: true,
      state: { type: 'Order', status: 'DRAFT' },
    });
  });

  for (const status of SUPPORTING_DOCUMENT_STATUSES) {
    for (const action of ['submit', 'sign', 'cancel'] as const) {
      const to = SUPPORTING_DOCUMENT_TRANSITIONS[status][action];
      it(`${status} × ${action} → ${to ?? 'refused with 12'}`, () => {
        const outcome = supportingDocumentTransition({ type: 'Contract', status }, action, {
          noteStatus: 'PICKUP',
          actorRoles: ['ETTN_CZ'],
        });
        expect(outcome).toEqual(
          to === undefined
            ? expect.objectContaining({ ok: false, code: 12 })
            : { ok: true, state: { type: 'Contract', status: to } },
        );
      });
    }
  }

  it('a changed type is 11, a note state without documents 24, a non-party 21', () => {
    const doc = { type: 'Contract', status: 'DRAFT' } as const;
    expect(
      supportingDocumentTransition(doc, 'submit', {
        noteStatus: 'PICKUP',
        actorRoles: ['ETTN_CZ'],
        proposedType: 'Order',
      }),
    ).toMatchObject({ code: 11 });
    expect(supportingDocumentTransition(doc, 'submit', { noteStatus: 'NULL', actorRoles: ['ETTN_CZ'] })).toMatchObject({
      code: 24,
    });
    expect(
      supportingDocumentTransition(doc, 'submit', { noteStatus: 'PICKUP', actorRoles: ['ETTN_OV'] }),
    ).toMatchObject({ code: 21 });
  });
});

describe('signatures per step and the chain', () => {
  it('26 when a step has not exactly its signers', () => {
    expect(checkSignatureCount('consignor_send', ['CZ'])).toEqual({ ok: true });
    expect(checkSignatureCount('pickup_sign', ['CA', 'DR'])).toEqual({ ok: true });
    expect(checkSignatureCount('pickup_sign', ['DR'])).toEqual({ ok: true });
    expect(checkSignatureCount('consignor_send', [])).toMatchObject({ ok: false, code: 26 });
    expect(checkSignatureCount('consignor_send', ['CZ', 'CZ'])).toMatchObject({ ok: false, code: 26 });
    expect(checkSignatureCount('arrival_sign', ['CA'])).toMatchObject({ ok: false, code: 26 });
  });

  it('transactions 0, 1, 2 refer back to the one before; anything else is 31', () => {
    const chain = [
      { transactionId: '0', documentId: 'd0' },
      { transactionId: '1', previousId: '0', previousDocumentId: 'd0', documentId: 'd1' },
      { transactionId: '2', previousId: '1', previousDocumentId: 'd1' },
    ];
    expect(checkChain(chain)).toEqual({ ok: true });
    expect(checkChain([{ transactionId: '0', previousId: '0' }])).toMatchObject({ code: 31 });
    expect(checkChain([chain[0]!, { ...chain[1]!, previousId: '5' }])).toMatchObject({ code: 31 });
    expect(checkChain([chain[0]!, { ...chain[1]!, previousDocumentId: 'd9' }])).toMatchObject({ code: 31 });
    expect(checkChain([chain[0]!, chain[2]!])).toMatchObject({ code: 31 });
  });
});
