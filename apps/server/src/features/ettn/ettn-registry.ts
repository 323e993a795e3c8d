/**
 * The e-TTN central registry (ЦБД) as the portal sees it. Its API is not public, so the portal talks to this
 * interface, and the one implementation today is the embedded simulator (`ettn-registry.simulator.ts`). A connector
 * to the real registry (or to a provider relaying it) implements the same calls.
 *
 * The registry holds the notes: it registers transactions of notes and acts, gives process, document and
 * document-detail ids, enforces the state machine (answering with the description's codes: 7, 20, 21, 26, 31, …),
 * keeps the companies' aliases and subscriptions, and sends events to the subscribed companies.
 */
import type { ActType, NoteAction } from '@portal/ettn';
import type { DocumentSummary } from './ettn-documents.ts';
import type {
  AliasRow,
  DocumentRow,
  EventRow,
  ProcessFilter,
  ProcessRow,
  SignatureRow,
  SubscriptionRow,
  TransactionHead,
  TransactionRow,
} from './ettn.repository.ts';
import type { SignatureFact } from './ettn.tasks.ts';

/** Who registers a step: the EDRPOU they act under and the party role they sign as. */
export type RegistryActor = { identifier: string; role: string };

/** A signed transaction as the portal sends it: the XML (part BODY), what it says, its checked signatures. */
export type RegistryTransaction = { xml: string; summary: DocumentSummary; signatures: SignatureFact[] };

export type RegistryStep =
  /** A note's transaction: the first (no processId) or the next one. */
  | { kind: 'note'; processId?: string; move: NoteAction; expected?: { status?: string; version?: number } }
  /** A new act of the note. */
  | { kind: 'act'; processId: string; actType: ActType }
  /** A countersignature or rejection of an act. */
  | { kind: 'actSign'; processId: string; documentId: string; decision: 'countersign' | 'reject' };

export type RegistryOutcome =
  | {
      ok: true;
      processId: string;
      documentId: string;
      documentDetId: string;
      /** The note's status after the step. */
      status: string;
      /** The act's status, when the step was an act's. */
      documentStatus: string | null;
      processDocumentStatus: 'OK' | 'PENDING';
    }
  | { ok: false; code: number; reason: string };

export type RegistryProcess = {
  process: ProcessRow;
  documents: DocumentRow[];
  transactions: TransactionHead[];
  signatures: SignatureRow[];
};

export type EttnRegistry = {
  /** `simulator` for the embedded one. */
  readonly kind: string;
  submit(actor: RegistryActor, step: RegistryStep, transaction: RegistryTransaction): Promise<RegistryOutcome>;
  findProcess(processId: string): Promise<RegistryProcess | undefined>;
  /** A document's transactions with their XML, oldest first. */
  chain(documentId: string): Promise<TransactionRow[]>;
  findTransaction(documentDetId: string): Promise<TransactionRow | undefined>;
  listProcesses(filter: ProcessFilter): Promise<(ProcessRow & { cursorAt: string })[]>;
  pendingActs(processIds: string[]): Promise<DocumentRow[]>;
  aliases(companyId: string): Promise<AliasRow[]>;
  findAlias(qualifier: string, value: string): Promise<AliasRow | undefined>;
  /** Registers (or renews) an alias of a company and subscribes the company to its events, until `expiresAt`. */
  registerAlias(input: { companyId: string; qualifier: string; value: string; expiresAt: Date }): Promise<AliasRow>;
  subscriptions(companyId: string): Promise<SubscriptionRow[]>;
  events(filter: { companyId: string; processId?: string; after?: number; limit: number }): Promise<EventRow[]>;
};
