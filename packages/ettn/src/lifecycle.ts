/**
 * The e-TTN lifecycle as explicit tables: the note's statuses and the moves between them, who signs each step, the
 * nine acts (the stages that allow each, who starts and who countersigns), the supporting documents and their own
 * states, and the transaction chain with its back references.
 *
 * Sources: the description (statuses, section 4; roles, section 6; codes, section 8) and
 * ../shared/specs/ettn/LIFECYCLE.md (signing order and act stages from EDIN's public documentation; rows that are
 * proposals there are marked P here too). A refused move returns the description's code, never throws:
 * 7 a transition the table does not hold, 20 a note signer without the step's role, 21 an act or supporting-document
 * signer without the role, 12 a supporting document's forbidden transition, 11 a changed supporting-document type,
 * 24 a supporting document in a note state that does not take one, 27 an unknown supporting-document type, 26 a
 * wrong number of signatures, 31 a broken back reference.
 */
import { ETTN_SUPPORTING_DOCUMENT_TYPES } from '@portal/contracts';
import { ACT_TYPES, type ActType } from './model.ts';
import { canActAs, REGISTRY_ACTOR } from './roles.ts';

/** The statuses of the description, section 4. */
export const ETTN_STATUSES = [
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
] as const;
export type EttnStatus = (typeof ETTN_STATUSES)[number];

/** The ordered progression of the description (list order, progress bars). */
export const STATUS_PROGRESSION: readonly EttnStatus[] = [
  'PLANNED',
  'PICKUP',
  'ONSTORAGE',
  'ARRIVED',
  'SIGNATURE_PENDING',
  'SIGNED',
  'CANCELED',
];

/**
 * Two axes share the eleven statuses (LIFECYCLE.md §4): a note moves NULL → (PENDING) → REGISTRATION_PENDING →
 * PLANNED → PICKUP ⇄ ONSTORAGE → ARRIVED, or to CANCELED, with ERROR when the registry refuses its first
 * transaction; an act moves NULL → SIGNATURE_PENDING → SIGNED or CANCELED.
 */
export const NOTE_STATUSES = [
  'NULL',
  'PENDING',
  'REGISTRATION_PENDING',
  'ERROR',
  'PLANNED',
  'PICKUP',
  'ONSTORAGE',
  'ARRIVED',
  'CANCELED',
] as const satisfies readonly EttnStatus[];
export type NoteStatus = (typeof NOTE_STATUSES)[number];

export const ACT_STATUSES = [
  'NULL',
  'SIGNATURE_PENDING',
  'SIGNED',
  'CANCELED',
] as const satisfies readonly EttnStatus[];
export type ActStatus = (typeof ACT_STATUSES)[number];

/** Process document status of the description: a step the registry has not yet taken is PENDING. */
export type ProcessDocumentStatus = 'OK' | 'PENDING';

export type Refusal = { ok: false; code: number; reason: string };
export type Moved<S> = { ok: true; state: S };
export type Outcome<S> = Moved<S> | Refusal;

const refuse = (code: number, reason: string): Refusal => ({ ok: false, code, reason });

// --- the note -----------------------------------------------------------------------------------------------------

export const NOTE_ACTIONS = [
  /** An unsigned preliminary note sent to the consignor by another party (step 0′). */
  'send_preliminary',
  /** The consignor signs transaction 0 and sends it to the registry. */
  'consignor_send',
  /** The consignor declines a preliminary note (P). */
  'consignor_decline',
  'registry_accept',
  'registry_reject',
  /** Loading: the driver or carrier signs the pick-up transaction. */
  'pickup_sign',
  /** Unloading: the consignee signs the arrival transaction. */
  'arrival_sign',
  /** A party rejects its step (consignor or carrier at PLANNED, consignee at PICKUP). */
  'reject',
  /** The registry's cancellation event. */
  'registry_cancel',
] as const;
export type NoteAction = (typeof NOTE_ACTIONS)[number];

/** A completed act, as a move of the note. */
export type ActCompletion = `act:${ActType}`;
export type NoteMove = NoteAction | ActCompletion;

type Row = { to: NoteStatus; roles: readonly string[]; proposal?: true };
const R = REGISTRY_ACTOR;

/**
 * The note's transition table: `from → move → { to, roles }`. `roles` are party roles (sub-roles fold into their
 * parent: DR signs as CA) or the registry. Anything not listed is refused with 7.
 */
export const NOTE_TRANSITIONS: Readonly<Record<NoteStatus, Partial<Record<NoteMove, Row>>>> = {
  NULL: {
    send_preliminary: { to: 'PENDING', roles: ['CA', 'CN', 'OB', 'FW'] },
    consignor_send: { to: 'REGISTRATION_PENDING', roles: ['CZ'] },
  },
  PENDING: {
    consignor_send: { to: 'REGISTRATION_PENDING', roles: ['CZ'] },
    consignor_decline: { to: 'CANCELED', roles: ['CZ'], proposal: true },
    registry_cancel: { to: 'CANCELED', roles: [R] },
  },
  REGISTRATION_PENDING: {
    registry_accept: { to: 'PLANNED', roles: [R] },
    registry_reject: { to: 'ERROR', roles: [R] },
  },
  ERROR: {
    consignor_send: { to: 'REGISTRATION_PENDING', roles: ['CZ'] },
  },
  PLANNED: {
    pickup_sign: { to: 'PICKUP', roles: ['CA'] },
    reject: { to: 'CANCELED', roles: ['CZ', 'CA'] },
    'act:RejectAct': { to: 'CANCELED', roles: ['CZ'] },
    'act:StopAct': { to: 'CANCELED', roles: ['OB', 'CA'] },
    registry_cancel: { to: 'CANCELED', roles: [R] },
  },
  PICKUP: {
    arrival_sign: { to: 'ARRIVED', roles: ['CN'] },
    reject: { to: 'CANCELED', roles: ['CN'] },
    'act:StopAct': { to: 'CANCELED', roles: ['OB', 'CA'] },
    'act:DisagreementAct': { to: 'PICKUP', roles: ['CN'], proposal: true },
    'act:ReloadAct': { to: 'PICKUP', roles: ['CA'], proposal: true },
    'act:ResealingAct': { to: 'PICKUP', roles: ['OB'], proposal: true },
    'act:ConsigneeChangeAct': { to: 'PICKUP', roles: ['CN', 'CZ', 'CA', 'OB'], proposal: true },
    'act:StorageDeliveryAct': { to: 'ONSTORAGE', roles: ['CA'] },
    'act:AdjustmentAct': { to: 'PICKUP', roles: ['CZ', 'OB'] },
    registry_cancel: { to: 'CANCELED', roles: [R] },
  },
  ONSTORAGE: {
    'act:StoragePickUpAct': { to: 'PICKUP', roles: ['WD', 'WH'], proposal: true },
    'act:StopAct': { to: 'CANCELED', roles: ['OB', 'CA'], proposal: true },
    'act:DisagreementAct': { to: 'ONSTORAGE', roles: ['CN'], proposal: true },
    'act:ReloadAct': { to: 'ONSTORAGE', roles: ['CA'], proposal: true },
    'act:ResealingAct': { to: 'ONSTORAGE', roles: ['OB'], proposal: true },
    'act:ConsigneeChangeAct': { to: 'ONSTORAGE', roles: ['CN', 'CZ', 'CA', 'OB'], proposal: true },
    'act:AdjustmentAct': { to: 'ONSTORAGE', roles: ['CZ', 'OB'], proposal: true },
    registry_cancel: { to: 'CANCELED', roles: [R] },
  },
  ARRIVED: {
    'act:AdjustmentAct': { to: 'ARRIVED', roles: ['CZ', 'OB'] },
    registry_cancel: { to: 'CANCELED', roles: [R], proposal: true },
  },
  CANCELED: {},
};

/**
 * The note's next status after a move by an actor holding `actorRoles` (portal roles such as `ETTN_DR`, or
 * `REGISTRY`): 7 when the table has no such move from this status, 20 when the actor holds none of its roles.
 */
export const transition = (state: NoteStatus, move: NoteMove, actorRoles: readonly string[]): Outcome<NoteStatus> => {
  const row = NOTE_TRANSITIONS[state][move];
  if (row === undefined) return refuse(7, `${move} is not allowed in ${state}`);
  if (!row.roles.some((role) => canActAs(actorRoles, role))) {
    return refuse(move.startsWith('act:') ? 21 : 20, `${move} in ${state} is signed by ${row.roles.join(' or ')}`);
  }
  return { ok: true, state: row.to };
};

/** The moves a status allows, for screens that offer only what may be done. */
export const allowedMoves = (state: NoteStatus): NoteMove[] => Object.keys(NOTE_TRANSITIONS[state]) as NoteMove[];

/** Who signs each transaction of the note (step 0 CZ, 1 DR and/or CA, 2 CN). */
export const STEP_SIGNERS = {
  consignor_send: ['CZ'],
  pickup_sign: ['CA', 'DR'],
  arrival_sign: ['CN'],
} as const satisfies Partial<Record<NoteAction, readonly string[]>>;

/** The signatures a complete note carries. */
export const COMPLETE_NOTE_SIGNERS = ['CZ', 'DR', 'CA', 'CN'] as const;

/**
 * 26 when a transaction carries not exactly one signature of each role its step needs (sub-roles count as their
 * parent, so DR counts for the loading step's CA).
 */
export const checkSignatureCount = (
  step: keyof typeof STEP_SIGNERS,
  signingRoles: readonly string[],
): { ok: true } | Refusal => {
  const required = STEP_SIGNERS[step];
  const present = signingRoles.filter((r) => (required as readonly string[]).includes(r));
  if (present.length === 0 || present.length > required.length || new Set(present).size !== present.length) {
    return refuse(26, `${step} needs ${required.join(' and/or ')}, has ${signingRoles.join(', ') || 'none'}`);
  }
  return { ok: true };
};

// --- acts ---------------------------------------------------------------------------------------------------------

/**
 * The note statuses in which each act may be started (LIFECYCLE.md §2: PLANNED RejectAct and StopAct, PICKUP all
 * but RejectAct, ARRIVED AdjustmentAct). EDIN's "on storage" is PICKUP with a flag; here it is the ONSTORAGE status,
 * so the storage pick-up act starts from ONSTORAGE rather than PICKUP, and the other PICKUP acts are allowed there
 * too (P). Derived from the transition table, so the two cannot disagree.
 */
export const ACT_STAGES: Readonly<Record<ActType, readonly NoteStatus[]>> = Object.fromEntries(
  ACT_TYPES.map((type) => [
    type,
    NOTE_STATUSES.filter((status) => NOTE_TRANSITIONS[status][`act:${type}`] !== undefined),
  ]),
) as unknown as Record<ActType, readonly NoteStatus[]>;

/**
 * Signing routes of each act: the first role starts it, the others countersign in order. Several routes where the
 * sources give several (a consignee change may start with CN, CZ, CA or OB). The new carrier of a reload (CH) folds
 * into CA, so the reload's route is CA then CA.
 */
export const ACT_ROUTES: Readonly<Record<ActType, readonly (readonly string[])[]>> = {
  RejectAct: [['CZ', 'CA']],
  StopAct: [
    ['OB', 'CA'],
    ['CA', 'OB'],
  ],
  DisagreementAct: [['CN', 'CA', 'CZ']],
  ReloadAct: [['CA', 'CA']],
  ConsigneeChangeAct: [
    ['CN', 'CA', 'OB'],
    ['CZ', 'CA', 'OB'],
    ['CA', 'OB'],
    ['OB', 'CA'],
  ],
  ResealingAct: [['OB', 'CA']],
  StorageDeliveryAct: [['CA', 'WD']],
  StoragePickUpAct: [
    ['WD', 'CA'],
    ['WH', 'CA'],
  ],
  AdjustmentAct: [
    ['CZ', 'CA', 'CN'],
    ['OB', 'CA', 'CN'],
  ],
};

export type ActState = {
  type: ActType;
  status: ActStatus;
  /** The route chosen by the initiator. */
  route: readonly string[];
  /** Roles that have signed, in order. */
  signedBy: string[];
};

/** Starts an act: 7 when the note's status does not allow it, 21 when the actor can start none of its routes. */
export const startAct = (noteStatus: NoteStatus, type: ActType, actorRoles: readonly string[]): Outcome<ActState> => {
  if (!ACT_STAGES[type].includes(noteStatus)) return refuse(7, `${type} is not allowed in ${noteStatus}`);
  const route = ACT_ROUTES[type].find((r) => r[0] !== undefined && canActAs(actorRoles, r[0]));
  if (route === undefined) {
    return refuse(21, `${type} is started by ${ACT_ROUTES[type].map((r) => r[0]).join(' or ')}`);
  }
  return { ok: true, state: { type, status: 'SIGNATURE_PENDING', route, signedBy: [route[0] as string] } };
};

/** The role that must sign an act next, or undefined when it is finished. */
export const nextActSigner = (act: ActState): string | undefined =>
  act.status === 'SIGNATURE_PENDING' ? act.route[act.signedBy.length] : undefined;

/**
 * A countersignature or a rejection of an act: 12 when the act is not waiting for a signature, 21 when the actor
 * is not the next signer. The last countersignature makes it SIGNED (then the note takes `act:<type>`); a rejection
 * CANCELED (the note is unchanged).
 */
export const actTransition = (
  act: ActState,
  action: 'countersign' | 'reject',
  actorRoles: readonly string[],
): Outcome<ActState> => {
  const next = nextActSigner(act);
  if (next === undefined) return refuse(12, `${act.type} is ${act.status}`);
  if (!canActAs(actorRoles, next)) return refuse(21, `${act.type} waits for ${next}`);
  if (action === 'reject') return { ok: true, state: { ...act, status: 'CANCELED' } };
  const signedBy = [...act.signedBy, next];
  return {
    ok: true,
    state: { ...act, signedBy, status: signedBy.length === act.route.length ? 'SIGNED' : 'SIGNATURE_PENDING' },
  };
};

// --- supporting documents -----------------------------------------------------------------------------------------

/**
 * The 25 supporting-document types (EDIN dictionary DICT.01.10, ids 1–25, PDF files). The description names the
 * first fourteen; the names of 15–25 are not in any source found (P: plausible names, to be replaced when the
 * dictionary is obtained; the ids are what the registry receives).
 */
// The list lives in contracts (the API's schema names them too): one copy.
export const SUPPORTING_DOCUMENT_TYPES = ETTN_SUPPORTING_DOCUMENT_TYPES;
export type SupportingDocumentType = (typeof SUPPORTING_DOCUMENT_TYPES)[number];

/** The dictionary id (1–25) of a type. */
export const supportingDocumentId = (type: SupportingDocumentType): number =>
  SUPPORTING_DOCUMENT_TYPES.indexOf(type) + 1;

/** A supporting document's own states (P): attached and awaiting signature, signed and registered, withdrawn. */
export const SUPPORTING_DOCUMENT_STATUSES = ['DRAFT', 'SIGNATURE_PENDING', 'SIGNED', 'CANCELED'] as const;
export type SupportingDocumentStatus = (typeof SUPPORTING_DOCUMENT_STATUSES)[number];
export type SupportingDocumentAction = 'submit' | 'sign' | 'cancel';

export const SUPPORTING_DOCUMENT_TRANSITIONS: Readonly<
  Record<SupportingDocumentStatus, Partial<Record<SupportingDocumentAction, SupportingDocumentStatus>>>
> = {
  DRAFT: { submit: 'SIGNATURE_PENDING', cancel: 'CANCELED' },
  SIGNATURE_PENDING: { sign: 'SIGNED', cancel: 'CANCELED' },
  SIGNED: { cancel: 'CANCELED' },
  CANCELED: {},
};

/** Note statuses in which supporting documents may be attached or changed (a running note, P). */
export const SUPPORTING_DOCUMENT_NOTE_STATUSES: readonly NoteStatus[] = [
  'PENDING',
  'PLANNED',
  'PICKUP',
  'ONSTORAGE',
  'ARRIVED',
];

/** Party roles that may sign supporting documents: the note's main parties (P). */
export const SUPPORTING_DOCUMENT_SIGNERS = ['CZ', 'CA', 'CN', 'OB', 'FW'] as const;

export type SupportingDocument = { type: SupportingDocumentType; status: SupportingDocumentStatus };

/** Attaches a supporting document: 27 for an unknown type, 24 when the note's status takes none, 21 wrong role. */
export const attachSupportingDocument = (
  noteStatus: NoteStatus,
  type: string,
  actorRoles: readonly string[],
): Outcome<SupportingDocument> => {
  if (!(SUPPORTING_DOCUMENT_TYPES as readonly string[]).includes(type)) return refuse(27, `unknown type ${type}`);
  if (!SUPPORTING_DOCUMENT_NOTE_STATUSES.includes(noteStatus)) {
    return refuse(24, `no supporting document in a note ${noteStatus}`);
  }
  if (!SUPPORTING_DOCUMENT_SIGNERS.some((r) => canActAs(actorRoles, r))) return refuse(21, 'not a party of the note');
  return { ok: true, state: { type: type as SupportingDocumentType, status: 'DRAFT' } };
};

/**
 * A supporting document's move: 24 when the note's status takes none, 11 when a proposed type differs from the
 * document's, 12 when its table has no such move, 21 when the actor is none of the signers.
 */
export const supportingDocumentTransition = (
  doc: SupportingDocument,
  action: SupportingDocumentAction,
  context: { noteStatus: NoteStatus; actorRoles: readonly string[]; proposedType?: string },
): Outcome<SupportingDocument> => {
  if (!SUPPORTING_DOCUMENT_NOTE_STATUSES.includes(context.noteStatus)) {
    return refuse(24, `no supporting document in a note ${context.noteStatus}`);
  }
  if (context.proposedType !== undefined && context.proposedType !== doc.type) {
    return refuse(11, `${context.proposedType} differs from ${doc.type}`);
  }
  const to = SUPPORTING_DOCUMENT_TRANSITIONS[doc.status][action];
  if (to === undefined) return refuse(12, `${action} is not allowed in ${doc.status}`);
  if (!SUPPORTING_DOCUMENT_SIGNERS.some((r) => canActAs(context.actorRoles, r))) {
    return refuse(21, 'not a party of the note');
  }
  return { ok: true, state: { ...doc, status: to } };
};

// --- the transaction chain ----------------------------------------------------------------------------------------

/** One registered transaction of a note or act, as the next one refers back to it. */
export type ChainLink = {
  transactionId: string;
  /** The previous transaction's id as written in this one (`PreviousAdministrativeReferencedDocument/ram:ID`). */
  previousId?: string;
  /** The registry's document id of the previous transaction (`AttachedSpecifiedBinaryFile/ram:ID`). */
  previousDocumentId?: string;
  /** This transaction's document id in the registry. */
  documentId?: string;
};

/**
 * Checks a chain of transactions oldest first: ids 0, 1, 2 …; the first without a back reference, every later one
 * naming the previous transaction's id and, when both are known, its registry document id. 31 otherwise.
 */
export const checkChain = (links: readonly ChainLink[]): { ok: true } | Refusal => {
  for (const [i, link] of links.entries()) {
    if (link.transactionId !== String(i)) return refuse(31, `transaction ${i} has id ${link.transactionId}`);
    const previous = links[i - 1];
    if (previous === undefined) {
      if (link.previousId !== undefined) return refuse(31, 'transaction 0 refers back');
      continue;
    }
    if (link.previousId !== previous.transactionId) {
      return refuse(31, `transaction ${i} refers to ${link.previousId ?? 'nothing'}, not ${previous.transactionId}`);
    }
    if (previous.documentId !== undefined && link.previousDocumentId !== previous.documentId) {
      return refuse(31, `transaction ${i} refers to document ${link.previousDocumentId ?? 'none'}`);
    }
  }
  return { ok: true };
};
