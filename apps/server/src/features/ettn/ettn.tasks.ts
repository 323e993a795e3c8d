/**
 * The e-TTN work that costs CPU in proportion to the input (CPU pool, decision 0030): read the XML, hold it to the
 * v3 table (29), verify every signature of its storage (30) and the back reference (31), write the portal's next
 * transaction or act, sign it with the user's demo credential. Plain data in and out; a refusal is a value.
 */
import {
  DemoSigner,
  importDemoCredential,
  readEttn,
  signDocument,
  signedContent,
  validateEttn,
  verifySignatureStorage,
  withSignatures,
  writeEttn,
  type ActType,
  noteDocument,
  type EttnDocument,
  type EttnNote,
  type StoredDemoCredential,
  type TradeParty,
} from '@portal/ettn';
import { newAct, nextNoteTransaction, summarize, type DocumentSummary } from './ettn-documents.ts';
import type { EttnPdfModel } from './ettn-pdf.ts';

export type SignatureFact = {
  roleCode: string;
  signerName: string | null;
  signerSerial: string | null;
  signedAt: string | null;
  verified: boolean;
};

export type PrepareTask = {
  /** An uploaded document; absent when the portal writes it (`build`). */
  xml?: string;
  build?:
    | {
        kind: 'next';
        /** The note's newest transaction. */
        base: string;
        move: string;
        transactionNo: number;
        previousDetId: string;
        certifying?: TradeParty;
      }
    | {
        kind: 'act';
        actType: ActType;
        number: string;
        issueDateTime: string;
        reason?: string;
        noteTransactionId: string;
        noteDetId: string;
      }
    /** The same document signed once more (a pending note sent by its consignor, an act's countersignature). */
    | { kind: 'same'; base: string }
    /** A new note the portal writes from the create form (`ettn-compose.ts`). */
    | { kind: 'compose'; note: EttnNote };
  /** Earlier transactions of the same chain, oldest first: the bytes earlier signatures were made on. */
  previous: string[];
  /** Check the signatures of the storage (30 when one fails). */
  verify: boolean;
  /** The moment the certificates must be valid at (ISO): the portal's clock. */
  at: string;
  sign?: { credential: StoredDemoCredential; role: string; name: string; at: string };
  maxBytes: number;
};

export type PrepareFinding = { path: string; field: string; code: string; params: Record<string, string | number> };
export type PrepareResult =
  | { ok: true; xml: string; summary: DocumentSummary; signatures: SignatureFact[] }
  | { ok: false; code: 29 | 30 | 31; reason: string; findings: PrepareFinding[] };

const refuse = (code: 29 | 30 | 31, reason: string, findings: PrepareFinding[] = []): PrepareResult => ({
  ok: false,
  code,
  reason,
  findings,
});

const read = (xml: string, maxBytes: number): EttnDocument | string => {
  const result = readEttn(xml, maxBytes);
  return result.ok ? result.document : `${result.error.code}: ${result.error.message}`;
};

export async function prepareTask(input: PrepareTask): Promise<PrepareResult> {
  let document: EttnDocument;
  if (input.xml !== undefined) {
    const parsed = read(input.xml, input.maxBytes);
    if (typeof parsed === 'string') return refuse(29, parsed);
    document = parsed;
  } else if (input.build?.kind === 'act') {
    document = newAct(input.build);
  } else if (input.build?.kind === 'compose') {
    document = noteDocument(input.build.note);
  } else if (input.build !== undefined) {
    const base = read(input.build.base, input.maxBytes);
    if (typeof base === 'string') return refuse(29, `stored transaction: ${base}`);
    document =
      input.build.kind === 'same'
        ? base
        : nextNoteTransaction(base, {
            move: input.build.move,
            transactionNo: input.build.transactionNo,
            previousDetId: input.build.previousDetId,
            previousSize: new TextEncoder().encode(input.build.base).byteLength,
            ...(input.build.certifying ? { certifying: input.build.certifying } : {}),
          });
  } else {
    return refuse(29, 'nothing to prepare');
  }

  const findings = validateEttn(document.model);
  if (findings.length > 0) {
    return refuse(
      29,
      `${findings.length} finding(s): ${findings[0]?.message ?? ''}`,
      findings.map((f) => ({ path: f.path, field: f.field, code: f.code, params: f.params })),
    );
  }

  const previous: Uint8Array[] = [];
  for (const xml of input.previous) {
    const earlier = read(xml, input.maxBytes);
    if (typeof earlier !== 'string') previous.push(signedContent(earlier));
  }
  const verifier = new DemoSigner();
  let facts: SignatureFact[];
  if (input.verify && document.model.signatures.length > 0) {
    const checked = await verifySignatureStorage(document, verifier, {
      previousContents: previous.reverse(),
      at: new Date(input.at),
    });
    if (!checked.ok) {
      const failed = checked.checks.find((c) => !c.ok);
      return refuse(30, `signature of ${failed?.roleCode ?? '?'} not verified: ${failed?.reason ?? ''}`);
    }
    facts = checked.checks.map((c) => ({
      roleCode: c.roleCode,
      signerName: c.signerName ?? document.model.signatures[c.index]?.name ?? null,
      signerSerial: c.signerSerialNumber ?? null,
      signedAt: c.signingTime?.toISOString() ?? null,
      verified: true,
    }));
  } else {
    facts = document.model.signatures.map((s) => ({
      roleCode: s.roleCode,
      signerName: s.name ?? null,
      signerSerial: null,
      signedAt: null,
      verified: false,
    }));
  }

  if (input.sign) {
    const credential = await importDemoCredential(input.sign.credential);
    const signer = new DemoSigner(credential);
    const at = new Date(input.sign.at);
    const entry = await signDocument(signer, document, {
      role: input.sign.role,
      signingTime: at,
      name: input.sign.name,
    });
    document = withSignatures(document, [...document.model.signatures, entry]);
    facts.push({
      roleCode: input.sign.role,
      signerName: input.sign.name,
      signerSerial: credential.identity.rnokpp ?? null,
      signedAt: at.toISOString(),
      verified: true,
    });
  }
  return { ok: true, xml: writeEttn(document), summary: summarize(document.model), signatures: facts };
}

/** The feature's one CPU task, by kind: prepare a document (read, check, write, sign) or render the paper copy. */
export type EttnTask = ({ kind: 'prepare' } & PrepareTask) | { kind: 'pdf'; model: EttnPdfModel };

export async function ettnTask(task: EttnTask): Promise<PrepareResult | Uint8Array> {
  // The PDF's fonts and libraries are loaded by the first paper copy, not with the prepare the API runs inline.
  if (task.kind === 'pdf') return (await import('./ettn-pdf.ts')).renderEttnPdf(task.model);
  const { kind: _kind, ...input } = task;
  return prepareTask(input);
}
