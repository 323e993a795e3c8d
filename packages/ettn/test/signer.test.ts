/**
 * The demo signer: CAdES-BES signatures that verify, and fail (code 30) on one changed byte of the content or of the
 * signature, on a certificate the verifier does not trust, outside the certificate's validity; and every signature
 * of a document's UaSignatureStorage verified, across the transactions of its chain.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { noteDocument, readEttn, withSignatures, writeEttn, type EttnDocument } from '../src/model.ts';
import {
  createDemoCredential,
  DemoSigner,
  exportDemoCredential,
  fromBase64,
  importDemoCredential,
  signDocument,
  signedContent,
  verifyChain,
  verifySignatureStorage,
  type DemoCredential,
} from '../src/signer.ts';
import { demoNote } from './demo-note.ts';

let consignor: DemoCredential;
let carrier: DemoCredential;
const content = new TextEncoder().encode('<eCMR><ram:ID>TTN-1</ram:ID></eCMR>');
const flip = (bytes: Uint8Array, at: number): Uint8Array => {
  const copy = bytes.slice();
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
};

beforeAll(async () => {
  consignor = await createDemoCredential({
    name: 'Петро Відправник',
    rnokpp: '3184710691',
    organization: 'Demo Supplier',
  });
  carrier = await createDemoCredential({ name: 'Іван Водій', rnokpp: '1111111101', organization: 'Demo Transport' });
});

describe('DemoSigner', () => {
  it('signs detached and verifies, naming the signer from the demo certificate', async () => {
    const signer = new DemoSigner(consignor);
    const signature = await signer.sign(content, { role: 'CZ', signingTime: new Date('2026-11-27T10:00:00Z') });
    const check = await signer.verify(signature, content);
    expect(check).toMatchObject({ ok: true, signerName: 'Петро Відправник (DEMO)', signerSerialNumber: '3184710691' });
    expect(check.signingTime?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
  });

  it('fails with 30 when one byte of the content changes', async () => {
    const signer = new DemoSigner(consignor);
    const signature = await signer.sign(content, { role: 'CZ' });
    for (const at of [0, 10, content.length - 1]) {
      expect(await signer.verify(signature, flip(content, at))).toMatchObject({ ok: false, code: 30 });
    }
  });

  it('fails with 30 when one byte of the signature value changes, or the signature is not CMS', async () => {
    const signer = new DemoSigner(consignor);
    const signature = await signer.sign(content, { role: 'CZ' });
    // The ECDSA signature value sits at the end of the SignerInfo.
    expect(await signer.verify(flip(signature, signature.length - 3), content)).toMatchObject({ ok: false, code: 30 });
    expect(await signer.verify(new Uint8Array([1, 2, 3]), content)).toMatchObject({ ok: false, code: 30 });
  });

  it('signs enveloping: verifies without the content, and refuses other content beside it', async () => {
    const signer = new DemoSigner(carrier);
    const signature = await signer.sign(content, { role: 'CA', mode: 'enveloping' });
    expect(await signer.verify(signature, undefined)).toMatchObject({ ok: true });
    expect(await signer.verify(signature, content)).toMatchObject({ ok: true });
    expect(await signer.verify(signature, flip(content, 5))).toMatchObject({ ok: false, code: 30 });
    const detached = await signer.sign(content, { role: 'CA' });
    expect(await signer.verify(detached, undefined)).toMatchObject({ ok: false, code: 30 });
  });

  it('refuses a signer certificate outside the trusted ones, or outside its validity', async () => {
    const signer = new DemoSigner(carrier);
    const signature = await signer.sign(content, { role: 'CA' });
    expect(await signer.verify(signature, content, { trustedCertificates: [carrier.certificate] })).toMatchObject({
      ok: true,
    });
    expect(await signer.verify(signature, content, { trustedCertificates: [consignor.certificate] })).toMatchObject({
      ok: false,
      code: 30,
    });
    expect(await signer.verify(signature, content, { at: new Date(Date.now() + 400 * 86_400_000) })).toMatchObject({
      ok: false,
      code: 30,
    });
  });

  it('keeps a credential through export and import (the per-user certificate stored with the user)', async () => {
    const restored = await importDemoCredential(await exportDemoCredential(consignor));
    const signature = await new DemoSigner(restored).sign(content, { role: 'CZ' });
    expect(
      await new DemoSigner().verify(signature, content, { trustedCertificates: [consignor.certificate] }),
    ).toMatchObject({
      ok: true,
    });
  });
});

describe('verifySignatureStorage', () => {
  const signNote = async (): Promise<EttnDocument> => {
    const doc = noteDocument(demoNote());
    const entry = await signDocument(new DemoSigner(consignor), doc, {
      role: 'CZ',
      name: 'Петро Відправник',
      taxId: '3184710691',
    });
    return withSignatures(doc, [entry]);
  };

  it('verifies every signature of a written and re-read document', async () => {
    const read = readEttn(writeEttn(await signNote()));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const result = await verifySignatureStorage(read.document, new DemoSigner());
    expect(result.ok).toBe(true);
    expect(result.checks).toMatchObject([{ index: 0, roleCode: 'CZ', ok: true }]);
  });

  it('fails with 30 when the signed content changed after signing', async () => {
    const text = writeEttn(await signNote()).replace('TTN-2026-0001', 'TTN-2026-0002');
    const read = readEttn(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const result = await verifySignatureStorage(read.document, new DemoSigner());
    expect(result.ok).toBe(false);
    expect(result.checks).toMatchObject([{ roleCode: 'CZ', ok: false, code: 30 }]);
  });

  it('verifies the chain: an earlier transaction’s signature against that transaction’s bytes', async () => {
    const t0 = await signNote();
    const note1 = demoNote();
    note1.header.transactionId = '1';
    note1.consignment.previous = {
      typeCode: '730',
      id: '0',
      file: { id: 'd0', uri: 'https://registry.example/d0', size: '4096' },
    };
    const t1 = noteDocument(note1);
    const carrierEntry = await signDocument(new DemoSigner(carrier), t1, { role: 'CA' });
    const signed1 = withSignatures(t1, [...t0.model.signatures, carrierEntry]);
    expect((await verifySignatureStorage(signed1, new DemoSigner())).ok).toBe(false);
    const withHistory = await verifySignatureStorage(signed1, new DemoSigner(), {
      previousContents: [signedContent(t0)],
    });
    expect(withHistory.checks.map((c) => [c.roleCode, c.ok])).toEqual([
      ['CZ', true],
      ['CA', true],
    ]);
    expect(withHistory.ok).toBe(true);
  });

  it('an empty storage is not a verified document', async () => {
    expect(await verifySignatureStorage(noteDocument(demoNote()), new DemoSigner())).toEqual({ ok: false, checks: [] });
    expect(fromBase64('AQID')).toEqual(new Uint8Array([1, 2, 3]));
  });
});

describe('verifyChain', () => {
  const chain = async (): Promise<EttnDocument[]> => {
    const t0doc = noteDocument(demoNote());
    const t0 = withSignatures(t0doc, [await signDocument(new DemoSigner(consignor), t0doc, { role: 'CZ' })]);
    const note1 = demoNote();
    note1.header.transactionId = '1';
    note1.consignment.previous = {
      typeCode: '730',
      id: '0',
      file: { id: 'd0', uri: 'https://registry.example/d0', size: '1' },
    };
    const t1doc = noteDocument(note1);
    const t1 = withSignatures(t1doc, [
      ...t0.model.signatures,
      await signDocument(new DemoSigner(carrier), t1doc, { role: 'DR' }),
    ]);
    return [t0, t1];
  };

  it('verifies the back references and every signature of every transaction', async () => {
    const result = await verifyChain(new DemoSigner(), await chain());
    expect(result.ok).toBe(true);
    expect(result.transactions.map((t) => t.map((c) => c.roleCode))).toEqual([['CZ'], ['CZ', 'DR']]);
  });

  it('31 when a transaction does not refer to the one before', async () => {
    const [t0, t1] = await chain();
    expect(await verifyChain(new DemoSigner(), [t1!, t0!])).toMatchObject({ ok: false, code: 31 });
  });

  it('30 when a signature of any transaction does not verify', async () => {
    const [t0, t1] = await chain();
    const forged = withSignatures(t1!, [
      t1!.model.signatures[0]!,
      { ...t1!.model.signatures[1]!, signature: t0!.model.signatures[0]!.signature.slice(0, -8) + 'AAAAAAA=' },
    ]);
    expect(await verifyChain(new DemoSigner(), [t0!, forged])).toMatchObject({ ok: false, code: 30 });
  });
});
