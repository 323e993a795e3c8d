/**
 * The embedded KSeF simulator (issue 13 §2), driven as a KSeF client would: XAdES login with a self-signed
 * certificate carrying the NIP, a KSeF token and a login with it, an online session with an encrypted FA(3) invoice,
 * its statuses, KSeF number and signed UPO; the rejections (440, 450, 410), one-time redeem, expiry and refresh,
 * the rate limit, and a buyer receiving the invoice through an export.
 */
import { createHash, generateKeyPairSync, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, zipSync } from 'fflate';
import { SignedXml } from 'xml-crypto';
import {
  aesDecrypt,
  aesEncrypt,
  buildFa3,
  encryptInvoice,
  encryptionInfo,
  encryptKsefToken,
  generateSymmetricKey,
  isValidKsefNumber,
  validateUpo,
  type KsefInvoiceInput,
} from '@portal/ksef';
import { selfSignedCertificate } from '../src/features/ksef-simulator/sim-certificate.ts';
import { createTestApp, type TestApp } from './helper.ts';

const BASE = '/ksef-simulator/v2';
const SELLER_NIP = '5265877635';
const BUYER_NIP = '7010002137';
const OTHER_NIP = '9462527315';
const DELAY_SECONDS = 1;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    clock: undefined,
    env: {
      KSEF_SIMULATOR_DELAY_MS: String(DELAY_SECONDS * 1000),
      KSEF_SIMULATOR_ACCESS_TTL_SECONDS: '60',
      KSEF_SIMULATOR_RATE_LIMITS: JSON.stringify({ sessionList: { perSecond: 3, perMinute: 100, perHour: 1000 } }),
    },
  });
}, 60_000);
afterAll(async () => {
  if (conformance) expect(checkedResponses).toBeGreaterThan(50);
  await t?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/**
 * Conformance: every JSON answer of these tests is checked against the schema that
 * `ksef-api-subset-simulator.json` (beside the clone, as CI has it) gives for its path, method and status, with no
 * property beyond the schema's. Without the file the check is skipped.
 */
const specPath = fileURLToPath(
  new URL('../../../../shared/specs/ksef/ksef-api-subset-simulator.json', import.meta.url),
);
type Spec = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};
const conformance = (() => {
  if (!existsSync(specPath)) return undefined;
  const spec = JSON.parse(readFileSync(specPath, 'utf8').replaceAll('"#/components/', '"ksef#/components/')) as Spec;
  // No property beyond the ones the schema names.
  const close = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(close);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.properties && !o.allOf && !o.oneOf && o.additionalProperties === undefined) o.additionalProperties = false;
    // OpenAPI 3.0's `nullable` in JSON Schema terms.
    if (o.nullable === true && typeof o.type === 'string') o.type = [o.type, 'null'];
    if (o.nullable === true && !o.type) o.anyOf = [{ allOf: o.allOf ?? [] }, { type: 'null' }];
    if (o.nullable === true && !o.type && o.allOf) delete o.allOf;
    delete o.nullable;
    Object.values(o).forEach(close);
  };
  close(spec.components.schemas);
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'ksef', components: spec.components });
  const routes = Object.entries(spec.paths)
    .map(([path, ops]) => ({
      ops,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params);
  const problem400 = ajv.compile({ $ref: 'ksef#/components/schemas/BadRequestProblemDetails' });
  const problem429 = ajv.compile({ $ref: 'ksef#/components/schemas/TooManyRequestsProblemDetails' });
  return (method: string, url: string, res: Awaited<ReturnType<TestApp['app']['inject']>>) => {
    const path = url.split('?')[0]?.slice(BASE.length) ?? '';
    if (path.startsWith('/presigned/')) return;
    const route = routes.find((r) => r.pattern.test(path) && r.ops[method.toLowerCase()]);
    expect(route, `${method} ${path} is in the subset`).toBeTruthy();
    const op = route?.ops[method.toLowerCase()];
    const answer = op?.responses[String(res.statusCode)];
    expect(answer, `${method} ${path} may answer ${res.statusCode}`).toBeTruthy();
    const type = String(res.headers['content-type'] ?? '').split(';')[0] ?? '';
    if (!answer?.content) return expect(res.body).toBe('');
    if (!type.endsWith('json')) return expect(Object.keys(answer.content)).toContain(type);
    const schema = answer.content[type]?.schema;
    expect(schema, `${method} ${path} ${res.statusCode} as ${type}`).toBeTruthy();
    const validate =
      type === 'application/problem+json' && res.statusCode === 400
        ? problem400
        : type === 'application/problem+json' && res.statusCode === 429
          ? problem429
          : ajv.compile(schema ?? {});
    const ok = validate(res.json());
    expect(
      ok,
      `${method} ${path} ${res.statusCode}: ${JSON.stringify(validate.errors)} in ${res.body.slice(0, 500)}`,
    ).toBe(true);
  };
})();
let checkedResponses = 0;

const inject = async (options: InjectOptions) => {
  const res = await t.app.inject(options);
  if (conformance) {
    conformance(options.method ?? 'GET', typeof options.url === 'string' ? options.url : '', res);
    checkedResponses++;
  }
  return res;
};
/** Lets the simulator's asynchronous stages pass (they are shown from timestamps of the injected clock). */
const wait = (stages = 2) => t.clock.advance(DELAY_SECONDS * stages + 0.01);

type PublicKeys = { token: { key: KeyObject; id: string }; symmetric: { key: KeyObject; id: string } };
async function publicKeys(): Promise<PublicKeys> {
  const res = await inject({ method: 'GET', url: `${BASE}/security/public-key-certificates` });
  expect(res.statusCode).toBe(200);
  const certs = res.json() as { certificate: string; publicKeyId: string; usage: string[] }[];
  const of = (usage: string) => {
    const c = certs.find((x) => x.usage.includes(usage));
    if (!c) throw new Error(`no ${usage} certificate`);
    return { key: new X509Certificate(Buffer.from(c.certificate, 'base64')).publicKey, id: c.publicKeyId };
  };
  return { token: of('KsefTokenEncryption'), symmetric: of('SymmetricKeyEncryption') };
}

/** A self-signed seal as KSeF TEST accepts it: the NIP in organizationIdentifier `VATPL-<NIP>`. */
function sealFor(nip: string, kind: 'rsa' | 'ec' = 'rsa') {
  const { privateKey } =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const now = t.clock.now();
  const der = selfSignedCertificate({
    privateKey,
    subject: [
      ['C', 'PL'],
      ['O', `Test company ${nip}`],
      ['organizationIdentifier', `VATPL-${nip}`],
      ['CN', `Test seal ${nip}`],
    ],
    notBefore: new Date(now.getTime() - 3600_000),
    notAfter: new Date(now.getTime() + 365 * 24 * 3600_000),
  });
  return {
    kind,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certPem: new X509Certificate(der).toString(),
  };
}

const ECDSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256';
/** XML-DSig ECDSA signing (R||S), which xml-crypto leaves to its user. */
class EcdsaSha256 {
  getSignature(signedInfo: string, privateKey: string): string {
    return sign('sha256', Buffer.from(signedInfo), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');
  }
  verifySignature(): boolean {
    throw new Error('signing only');
  }
  getAlgorithmName(): string {
    return ECDSA_SHA256;
  }
}

async function challenge() {
  const res = await inject({ method: 'POST', url: `${BASE}/auth/challenge` });
  expect(res.statusCode).toBe(200);
  return res.json() as { challenge: string; timestampMs: number };
}

/** An AuthTokenRequest signed enveloped (the signature inside its root) or enveloping (the request in ds:Object). */
function signedAuthRequest(
  challengeValue: string,
  contextNip: string,
  seal: ReturnType<typeof sealFor>,
  mode: 'enveloped' | 'enveloping' = 'enveloped',
): string {
  const request =
    '<AuthTokenRequest xmlns="http://ksef.mf.gov.pl/auth/token/2.1">' +
    `<Challenge>${challengeValue}</Challenge><ContextIdentifier><Nip>${contextNip}</Nip></ContextIdentifier>` +
    '<SubjectIdentifierType>certificateSubject</SubjectIdentifierType></AuthTokenRequest>';
  const signer = new SignedXml({
    privateKey: seal.privateKeyPem,
    publicCert: seal.certPem,
    signatureAlgorithm: seal.kind === 'ec' ? ECDSA_SHA256 : 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    ...(mode === 'enveloping' ? { objects: [{ content: request, attributes: { Id: 'AuthTokenRequest-1' } }] } : {}),
  });
  signer.SignatureAlgorithms[ECDSA_SHA256] = EcdsaSha256 as never;
  const digest = { digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256' };
  if (mode === 'enveloping') {
    signer.addReference({
      xpath: "//*[@Id='AuthTokenRequest-1']",
      transforms: ['http://www.w3.org/2001/10/xml-exc-c14n#'],
      ...digest,
    });
    signer.computeSignature('<Holder/>', { prefix: 'ds', location: { reference: '/*', action: 'append' } });
    // The signature, lifted out of the holder, is the whole document.
    return '<?xml version="1.0" encoding="utf-8"?>' + signer.getSignedXml().replace(/^<Holder>|<\/Holder>$/g, '');
  }
  signer.addReference({
    xpath: '/*',
    isEmptyUri: true,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    ...digest,
  });
  signer.computeSignature('<?xml version="1.0" encoding="utf-8"?>' + request, {
    prefix: 'ds',
    location: { reference: '/*', action: 'append' },
  });
  return signer.getSignedXml();
}

/** Polls the authentication to its end and redeems the tokens. */
async function finishLogin(init: { referenceNumber: string; authenticationToken: { token: string } }) {
  const first = await inject({
    method: 'GET',
    url: `${BASE}/auth/${init.referenceNumber}`,
    headers: bearer(init.authenticationToken.token),
  });
  expect(first.json().status.code).toBe(100);
  wait(1);
  const done = await inject({
    method: 'GET',
    url: `${BASE}/auth/${init.referenceNumber}`,
    headers: bearer(init.authenticationToken.token),
  });
  expect(done.statusCode).toBe(200);
  expect(done.json().status.code, done.body).toBe(200);
  const redeem = await inject({
    method: 'POST',
    url: `${BASE}/auth/token/redeem`,
    headers: bearer(init.authenticationToken.token),
  });
  expect(redeem.statusCode, redeem.body).toBe(200);
  return redeem.json() as { accessToken: { token: string }; refreshToken: { token: string } };
}

async function xadesLogin(nip: string, kind: 'rsa' | 'ec' = 'rsa', mode: 'enveloped' | 'enveloping' = 'enveloped') {
  const { challenge: c } = await challenge();
  const res = await inject({
    method: 'POST',
    url: `${BASE}/auth/xades-signature`,
    headers: { 'content-type': 'application/xml' },
    payload: signedAuthRequest(c, nip, sealFor(nip, kind), mode),
  });
  expect(res.statusCode, res.body).toBe(202);
  return { init: res.json(), tokens: await finishLogin(res.json()) };
}

async function ksefTokenLogin(nip: string, token: string, keys: PublicKeys) {
  const c = await challenge();
  const res = await inject({
    method: 'POST',
    url: `${BASE}/auth/ksef-token`,
    payload: {
      challenge: c.challenge,
      contextIdentifier: { type: 'Nip', value: nip },
      encryptedToken: encryptKsefToken(keys.token.key, token, c.timestampMs),
      publicKeyId: keys.token.id,
    },
  });
  expect(res.statusCode, res.body).toBe(202);
  return finishLogin(res.json());
}

async function createKsefToken(access: string) {
  const res = await inject({
    method: 'POST',
    url: `${BASE}/tokens`,
    headers: bearer(access),
    payload: { permissions: ['InvoiceRead', 'InvoiceWrite'], description: 'Simulator test token' },
  });
  expect(res.statusCode, res.body).toBe(202);
  const created = res.json() as { referenceNumber: string; token: string };
  const pending = await inject({
    method: 'GET',
    url: `${BASE}/tokens/${created.referenceNumber}`,
    headers: bearer(access),
  });
  expect(pending.json().status).toBe('Pending');
  wait(1);
  const active = await inject({
    method: 'GET',
    url: `${BASE}/tokens/${created.referenceNumber}`,
    headers: bearer(access),
  });
  expect(active.json().status).toBe('Active');
  return created;
}

function invoice(number: string, seller = SELLER_NIP, buyer = BUYER_NIP): string {
  const input: KsefInvoiceInput = {
    seller: {
      nip: seller,
      name: 'Sprzedawca sp. z o.o.',
      address: { countryCode: 'PL', line1: 'ul. Kwiatowa 1', line2: '00-001 Warszawa' },
    },
    buyer: {
      id: { type: 'nip', nip: buyer },
      name: 'Nabywca S.A.',
      address: { countryCode: 'PL', line1: 'ul. Polna 1', line2: '00-001 Warszawa' },
    },
    kind: 'VAT',
    number,
    issueDate: '2026-11-16',
    createdAt: '2026-11-16T09:00:00Z',
    lines: [{ name: 'Widget', unit: 'szt.', quantity: '3', netUnitPrice: '10.99', vatRate: '23' }],
  };
  return buildFa3(input);
}

async function openSession(access: string, keys: PublicKeys) {
  const { key, iv } = generateSymmetricKey();
  const res = await inject({
    method: 'POST',
    url: `${BASE}/sessions/online`,
    headers: bearer(access),
    payload: {
      formCode: { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' },
      encryption: encryptionInfo(keys.symmetric.key, keys.symmetric.id, key, iv),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { ref: (res.json() as { referenceNumber: string }).referenceNumber, key, iv };
}

async function send(access: string, session: { ref: string; key: Buffer; iv: Buffer }, xml: string) {
  const res = await inject({
    method: 'POST',
    url: `${BASE}/sessions/online/${session.ref}/invoices`,
    headers: bearer(access),
    payload: { ...encryptInvoice(xml, session.key, session.iv), offlineMode: false },
  });
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { referenceNumber: string }).referenceNumber;
}

async function status(access: string, sessionRef: string, invoiceRef: string) {
  const res = await inject({
    method: 'GET',
    url: `${BASE}/sessions/${sessionRef}/invoices/${invoiceRef}`,
    headers: bearer(access),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    ksefNumber?: string;
    acquisitionDate?: string;
    upoDownloadUrl?: string;
    status: { code: number; details?: string[]; extensions?: Record<string, string> };
  };
}

/** A seller logged in with a KSeF token made after an XAdES login, as a portal company would be. */
async function sellerSession(nip = SELLER_NIP) {
  const keys = await publicKeys();
  const xades = await xadesLogin(nip);
  const created = await createKsefToken(xades.tokens.accessToken.token);
  const tokens = await ksefTokenLogin(nip, created.token, keys);
  return { keys, access: tokens.accessToken.token, tokens, tokenReference: created.referenceNumber };
}

const withoutSignature = (xml: string) => xml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');

describe('KSeF simulator', () => {
  it('takes an invoice end to end: XAdES, KSeF token, online session, statuses, KSeF number, signed UPO', async () => {
    const seller = await sellerSession();
    const session = await openSession(seller.access, seller.keys);
    const ref = await send(seller.access, session, invoice('FV/2026/11/001'));

    expect((await status(seller.access, session.ref, ref)).status.code).toBe(100);
    wait(1);
    expect((await status(seller.access, session.ref, ref)).status.code).toBe(150);
    wait(1);
    const done = await status(seller.access, session.ref, ref);
    expect(done.status.code).toBe(200);
    expect(done.ksefNumber).toMatch(new RegExp(`^${SELLER_NIP}-20261116-[0-9A-F]{12}-[0-9A-F]{2}$`));
    expect(isValidKsefNumber(done.ksefNumber ?? '')).toBe(true);
    expect(done.acquisitionDate).toBeTruthy();

    const upo = await inject({
      method: 'GET',
      url: `${BASE}/sessions/${session.ref}/invoices/${ref}/upo`,
      headers: bearer(seller.access),
    });
    expect(upo.statusCode).toBe(200);
    expect(upo.headers['content-type']).toMatch(/application\/xml/);
    expect(upo.body).toContain('KSeF simulator');
    expect(upo.body).toContain(`<NumerKSeFDokumentu>${done.ksefNumber}</NumerKSeFDokumentu>`);
    expect(upo.body).toContain(`<NumerReferencyjnyTokenaKSeF>${seller.tokenReference}</NumerReferencyjnyTokenaKSeF>`);
    expect(upo.headers['x-ms-meta-hash']).toBeTruthy();
    expect(await validateUpo(withoutSignature(upo.body))).toEqual({ valid: true, errors: [] });
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(upo.body)?.[0] ?? '';
    const cert = /<ds:X509Certificate>([^<]+)</.exec(signature)?.[1] ?? '';
    const verifier = new SignedXml({
      publicCert: new X509Certificate(Buffer.from(cert, 'base64')).toString(),
      getCertFromKeyInfo: () => null,
    });
    verifier.loadSignature(signature);
    expect(verifier.checkSignature(upo.body)).toBe(true);
    expect(() => {
      const tampered = upo.body.replace('<NumerFaktury>FV/2026/11/001', '<NumerFaktury>FV/2026/11/999');
      const v = new SignedXml({
        publicCert: new X509Certificate(Buffer.from(cert, 'base64')).toString(),
        getCertFromKeyInfo: () => null,
      });
      v.loadSignature(signature);
      if (!v.checkSignature(tampered)) throw new Error('invalid');
    }).toThrow();

    // The same UPO by its KSeF number and through the pre-signed URL, without a token.
    const byNumber = await inject({
      method: 'GET',
      url: `${BASE}/sessions/${session.ref}/invoices/ksef/${done.ksefNumber}/upo`,
      headers: bearer(seller.access),
    });
    expect(byNumber.body).toBe(upo.body);
    const presigned = await inject({
      method: 'GET',
      url: (done.upoDownloadUrl ?? '').replace('http://portal.test', ''),
    });
    expect(presigned.statusCode).toBe(200);
    expect(presigned.body).toBe(upo.body);

    // Close: 170, then 200 with the session UPO.
    const close = await inject({
      method: 'POST',
      url: `${BASE}/sessions/online/${session.ref}/close`,
      headers: bearer(seller.access),
    });
    expect(close.statusCode).toBe(204);
    const closed = await inject({
      method: 'GET',
      url: `${BASE}/sessions/${session.ref}`,
      headers: bearer(seller.access),
    });
    expect(closed.json().status.code).toBe(170);
    wait(1);
    const processed = (
      await inject({ method: 'GET', url: `${BASE}/sessions/${session.ref}`, headers: bearer(seller.access) })
    ).json();
    expect(processed.status.code).toBe(200);
    expect(processed).toMatchObject({ invoiceCount: 1, successfulInvoiceCount: 1, failedInvoiceCount: 0 });
    const page = processed.upo.pages[0] as { referenceNumber: string; downloadUrl: string };
    const sessionUpo = await inject({
      method: 'GET',
      url: `${BASE}/sessions/${session.ref}/upo/${page.referenceNumber}`,
      headers: bearer(seller.access),
    });
    expect(sessionUpo.statusCode).toBe(200);
    expect(await validateUpo(withoutSignature(sessionUpo.body))).toEqual({ valid: true, errors: [] });
    expect(sessionUpo.body).toContain('<CalkowitaLiczbaDokumentow>1</CalkowitaLiczbaDokumentow>');
  }, 60_000);

  it('answers a duplicate with 440 and the original number, a non-FA(3) invoice with 450, a foreign seller with 410', async () => {
    const seller = await sellerSession();
    const session = await openSession(seller.access, seller.keys);
    const first = await send(seller.access, session, invoice('FV/2026/11/DUP'));
    const again = await send(seller.access, session, invoice('FV/2026/11/DUP'));
    const bad = await send(
      seller.access,
      session,
      invoice('FV/2026/11/BAD').replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>'),
    );
    const foreign = await send(seller.access, session, invoice('FV/2026/11/OTHER', OTHER_NIP));
    wait();
    const original = await status(seller.access, session.ref, first);
    expect(original.status.code).toBe(200);
    const duplicate = await status(seller.access, session.ref, again);
    expect(duplicate.status.code).toBe(440);
    expect(duplicate.status.extensions).toEqual({
      originalKsefNumber: original.ksefNumber,
      originalSessionReferenceNumber: session.ref,
    });
    const invalid = await status(seller.access, session.ref, bad);
    expect(invalid.status.code).toBe(450);
    expect(invalid.status.details?.join('\n')).toMatch(/P_2x/);
    expect((await status(seller.access, session.ref, foreign)).status.code).toBe(410);

    const failed = await inject({
      method: 'GET',
      url: `${BASE}/sessions/${session.ref}/invoices/failed`,
      headers: bearer(seller.access),
    });
    expect((failed.json().invoices as { status: { code: number } }[]).map((i) => i.status.code).sort()).toEqual([
      410, 440, 450,
    ]);
  }, 60_000);

  it('checks the hashes and sizes of a sent invoice (21403, 21402)', async () => {
    const seller = await sellerSession();
    const session = await openSession(seller.access, seller.keys);
    const body = encryptInvoice(invoice('FV/2026/11/HASH'), session.key, session.iv);
    const url = `${BASE}/sessions/online/${session.ref}/invoices`;
    const wrongHash = await inject({
      method: 'POST',
      url,
      headers: bearer(seller.access),
      payload: { ...body, invoiceHash: body.encryptedInvoiceHash },
    });
    expect(wrongHash.statusCode).toBe(400);
    expect(wrongHash.json().exception.exceptionDetailList[0].exceptionCode).toBe(21403);
    const wrongSize = await inject({
      method: 'POST',
      url,
      headers: { ...bearer(seller.access), 'x-error-format': 'problem-details' },
      payload: { ...body, encryptedInvoiceSize: body.encryptedInvoiceSize + 16 },
    });
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(wrongSize.json().errors[0].code).toBe(21402);
  }, 60_000);

  it('accepts an enveloping signature (the request inside ds:Object)', async () => {
    const { tokens } = await xadesLogin(SELLER_NIP, 'rsa', 'enveloping');
    expect(tokens.accessToken.token).toBeTruthy();
  }, 60_000);

  it('accepts an ECDSA P-256 seal (R||S signature value)', async () => {
    const { tokens } = await xadesLogin(SELLER_NIP, 'ec');
    const res = await inject({ method: 'GET', url: `${BASE}/rate-limits`, headers: bearer(tokens.accessToken.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().invoiceSend).toEqual({ perSecond: 10, perMinute: 30, perHour: 180 });
  }, 60_000);

  it('refuses an unknown publicKeyId (21470) and marks a session whose key it cannot unwrap 415, then 21180', async () => {
    const seller = await sellerSession();
    const { key, iv } = generateSymmetricKey();
    const formCode = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' };
    const unknown = await inject({
      method: 'POST',
      url: `${BASE}/sessions/online`,
      headers: bearer(seller.access),
      payload: { formCode, encryption: encryptionInfo(seller.keys.symmetric.key, 'AAAA', key, iv) },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().exception.exceptionDetailList[0].exceptionCode).toBe(21470);

    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const open = await inject({
      method: 'POST',
      url: `${BASE}/sessions/online`,
      headers: bearer(seller.access),
      payload: { formCode, encryption: encryptionInfo(stranger, seller.keys.symmetric.id, key, iv) },
    });
    expect(open.statusCode).toBe(201);
    const ref = open.json().referenceNumber as string;
    const session = await inject({ method: 'GET', url: `${BASE}/sessions/${ref}`, headers: bearer(seller.access) });
    expect(session.json().status.code).toBe(415);
    const sent = await inject({
      method: 'POST',
      url: `${BASE}/sessions/online/${ref}/invoices`,
      headers: bearer(seller.access),
      payload: encryptInvoice(invoice('FV/2026/11/415'), key, iv),
    });
    expect(sent.statusCode).toBe(400);
    expect(sent.json().exception.exceptionDetailList[0].exceptionCode).toBe(21180);
  }, 60_000);

  it('redeems once (a second redeem is 400 with 21301)', async () => {
    const { init } = await xadesLogin(SELLER_NIP);
    const again = await inject({
      method: 'POST',
      url: `${BASE}/auth/token/redeem`,
      headers: bearer(init.authenticationToken.token),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().exception.exceptionDetailList[0].exceptionCode).toBe(21301);
  }, 60_000);

  it('refuses a signature by a certificate without the context NIP, and a tampered signed request', async () => {
    const { challenge: c } = await challenge();
    const res = await inject({
      method: 'POST',
      url: `${BASE}/auth/xades-signature`,
      headers: { 'content-type': 'application/xml' },
      payload: signedAuthRequest(c, SELLER_NIP, sealFor(OTHER_NIP)),
    });
    expect(res.statusCode).toBe(202);
    wait(1);
    const st = await inject({
      method: 'GET',
      url: `${BASE}/auth/${res.json().referenceNumber}`,
      headers: bearer(res.json().authenticationToken.token),
    });
    expect(st.json().status.code).toBe(415);

    const { challenge: c2 } = await challenge();
    const tampered = signedAuthRequest(c2, OTHER_NIP, sealFor(OTHER_NIP)).replace(
      `<Nip>${OTHER_NIP}</Nip>`,
      `<Nip>${SELLER_NIP}</Nip>`,
    );
    const bad = await inject({
      method: 'POST',
      url: `${BASE}/auth/xades-signature`,
      headers: { 'content-type': 'application/xml' },
      payload: tampered,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().exception.exceptionDetailList[0].exceptionCode).toBe(9105);

    const doctype = await inject({
      method: 'POST',
      url: `${BASE}/auth/xades-signature`,
      headers: { 'content-type': 'application/xml' },
      payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>',
    });
    expect(doctype.statusCode).toBe(400);
    expect(doctype.json().exception.exceptionDetailList[0].exceptionCode).toBe(21001);
  }, 60_000);

  it('expires access tokens (401 problem+json) and refreshes them with the refresh token', async () => {
    const { tokens } = await xadesLogin(SELLER_NIP);
    const ok = await inject({
      method: 'GET',
      url: `${BASE}/limits/context`,
      headers: bearer(tokens.accessToken.token),
    });
    expect(ok.statusCode).toBe(200);
    t.clock.advance(61);
    const expired = await inject({
      method: 'GET',
      url: `${BASE}/limits/context`,
      headers: bearer(tokens.accessToken.token),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(expired.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
    const refreshed = await inject({
      method: 'POST',
      url: `${BASE}/auth/token/refresh`,
      headers: bearer(tokens.refreshToken.token),
    });
    expect(refreshed.statusCode).toBe(200);
    const again = await inject({
      method: 'GET',
      url: `${BASE}/limits/context`,
      headers: bearer(refreshed.json().accessToken.token),
    });
    expect(again.statusCode).toBe(200);

    // Revoking the session ends the refresh token too.
    const revoke = await inject({
      method: 'DELETE',
      url: `${BASE}/auth/sessions/current`,
      headers: bearer(refreshed.json().accessToken.token),
    });
    expect(revoke.statusCode).toBe(204);
    const after = await inject({
      method: 'POST',
      url: `${BASE}/auth/token/refresh`,
      headers: bearer(tokens.refreshToken.token),
    });
    expect(after.statusCode).toBe(401);
  }, 60_000);

  it('answers 429 with Retry-After over a rate limit, per context', async () => {
    t.clock.advance(3600);
    const { tokens } = await xadesLogin(OTHER_NIP);
    const list = () =>
      inject({ method: 'GET', url: `${BASE}/sessions?sessionType=Online`, headers: bearer(tokens.accessToken.token) });
    for (let i = 0; i < 3; i++) expect((await list()).statusCode).toBe(200);
    const over = await list();
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.json().status.code).toBe(429);
    t.clock.advance(Number(over.headers['retry-after']));
    expect((await list()).statusCode).toBe(200);
  }, 60_000);

  it('lets the buyer receive the invoice: by KSeF number, in the metadata query and through an export', async () => {
    const seller = await sellerSession();
    const session = await openSession(seller.access, seller.keys);
    const xml = invoice('FV/2026/11/BUYER');
    const ref = await send(seller.access, session, xml);
    wait();
    const { ksefNumber } = await status(seller.access, session.ref, ref);
    expect(ksefNumber).toBeTruthy();

    const buyer = await xadesLogin(BUYER_NIP);
    const access = buyer.tokens.accessToken.token;
    const single = await inject({ method: 'GET', url: `${BASE}/invoices/ksef/${ksefNumber}`, headers: bearer(access) });
    expect(single.statusCode).toBe(200);
    expect(single.body).toBe(xml);

    const from = new Date(t.clock.now().getTime() - 24 * 3600_000).toISOString();
    const filters = {
      subjectType: 'Subject2',
      dateRange: { dateType: 'PermanentStorage', from, restrictToPermanentStorageHwmDate: true },
    };
    const meta = await inject({
      method: 'POST',
      url: `${BASE}/invoices/query/metadata`,
      headers: bearer(access),
      payload: filters,
    });
    expect(meta.statusCode, meta.body).toBe(200);
    expect((meta.json().invoices as { ksefNumber: string }[]).map((i) => i.ksefNumber)).toContain(ksefNumber);

    const keys = await publicKeys();
    const { key, iv } = generateSymmetricKey();
    const created = await inject({
      method: 'POST',
      url: `${BASE}/invoices/exports`,
      headers: bearer(access),
      payload: { encryption: encryptionInfo(keys.symmetric.key, keys.symmetric.id, key, iv), filters },
    });
    expect(created.statusCode, created.body).toBe(201);
    const exportRef = created.json().referenceNumber as string;
    const pending = await inject({
      method: 'GET',
      url: `${BASE}/invoices/exports/${exportRef}`,
      headers: bearer(access),
    });
    expect(pending.json().status.code).toBe(100);
    wait(1);
    const ready = (
      await inject({ method: 'GET', url: `${BASE}/invoices/exports/${exportRef}`, headers: bearer(access) })
    ).json();
    expect(ready.status.code).toBe(200);
    expect(ready.package).toMatchObject({ isTruncated: false });
    expect(ready.package.permanentStorageHwmDate).toBeTruthy();
    const part = ready.package.parts[0] as { url: string; encryptedPartSize: number };
    const download = await inject({ method: 'GET', url: part.url.replace('http://portal.test', '') });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(part.encryptedPartSize);
    const files = unzipSync(aesDecrypt(download.rawPayload, key, iv));
    expect(Buffer.from(files[`${ksefNumber}.xml`] ?? []).toString('utf8')).toBe(xml);
    const metadata = JSON.parse(Buffer.from(files['_metadata.json'] ?? []).toString('utf8')) as {
      invoices: { ksefNumber: string }[];
    };
    expect(metadata.invoices.map((i) => i.ksefNumber)).toContain(ksefNumber);

    // The seller's own export (Subject2) does not hold it.
    const sellerMeta = await inject({
      method: 'POST',
      url: `${BASE}/invoices/query/metadata`,
      headers: bearer(seller.access),
      payload: filters,
    });
    expect((sellerMeta.json().invoices as { ksefNumber: string }[]).map((i) => i.ksefNumber)).not.toContain(ksefNumber);
  }, 60_000);
  it('takes a batch session: a zip in two encrypted parts uploaded to pre-signed URLs, processed after close', async () => {
    const seller = await sellerSession();
    const xmls = ['FV/2026/11/B1', 'FV/2026/11/B2'].map((n) => invoice(n));
    const zip = Buffer.from(zipSync({ 'b1.xml': Buffer.from(xmls[0] ?? ''), 'b2.xml': Buffer.from(xmls[1] ?? '') }));
    const half = Math.ceil(zip.length / 2);
    const { key, iv } = generateSymmetricKey();
    const parts = [zip.subarray(0, half), zip.subarray(half)].map((p) => aesEncrypt(p, key, iv));
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');
    const open = await inject({
      method: 'POST',
      url: `${BASE}/sessions/batch`,
      headers: bearer(seller.access),
      payload: {
        formCode: { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' },
        batchFile: {
          fileSize: zip.length,
          fileHash: sha(zip),
          fileParts: parts.map((p, i) => ({ ordinalNumber: i + 1, fileSize: p.length, fileHash: sha(p) })),
        },
        encryption: encryptionInfo(seller.keys.symmetric.key, seller.keys.symmetric.id, key, iv),
      },
    });
    expect(open.statusCode, open.body).toBe(201);
    const { referenceNumber: ref, partUploadRequests } = open.json() as {
      referenceNumber: string;
      partUploadRequests: { ordinalNumber: number; method: string; url: string; headers: Record<string, string> }[];
    };
    expect(ref).toMatch(/-SB-/);
    const closeEarly = await inject({
      method: 'POST',
      url: `${BASE}/sessions/batch/${ref}/close`,
      headers: bearer(seller.access),
    });
    expect(closeEarly.statusCode).toBe(400);
    for (const request of partUploadRequests) {
      const put = await inject({
        method: request.method as 'PUT',
        url: request.url.replace('http://portal.test', ''),
        headers: request.headers,
        payload: parts[request.ordinalNumber - 1],
      });
      expect(put.statusCode, put.body).toBe(201);
    }
    const close = await inject({
      method: 'POST',
      url: `${BASE}/sessions/batch/${ref}/close`,
      headers: bearer(seller.access),
    });
    expect(close.statusCode, close.body).toBe(204);
    const processing = await inject({ method: 'GET', url: `${BASE}/sessions/${ref}`, headers: bearer(seller.access) });
    expect([150, 200]).toContain(processing.json().status.code);
    for (let i = 0; i < 100; i++) {
      wait();
      const st = (
        await inject({ method: 'GET', url: `${BASE}/sessions/${ref}`, headers: bearer(seller.access) })
      ).json();
      if (st.status.code !== 150) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    wait();
    const done = (
      await inject({ method: 'GET', url: `${BASE}/sessions/${ref}`, headers: bearer(seller.access) })
    ).json();
    expect(done.status.code, JSON.stringify(done)).toBe(200);
    expect(done).toMatchObject({ invoiceCount: 2, successfulInvoiceCount: 2 });
    const list = (
      await inject({ method: 'GET', url: `${BASE}/sessions/${ref}/invoices`, headers: bearer(seller.access) })
    ).json();
    const invoices = list.invoices as { invoiceFileName: string; ksefNumber: string; status: { code: number } }[];
    expect(invoices.map((i) => i.invoiceFileName)).toEqual(['b1.xml', 'b2.xml']);
    expect(invoices.every((i) => i.status.code === 200 && isValidKsefNumber(i.ksefNumber))).toBe(true);
  }, 60_000);
});

describe('KSEF_SIMULATOR=false', () => {
  it('leaves the simulator out', async () => {
    const off = await createTestApp({ seed: false, env: { KSEF_SIMULATOR: 'false' } });
    try {
      const res = await off.app.inject({ method: 'GET', url: `${BASE}/security/public-key-certificates` });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  }, 60_000);
});
