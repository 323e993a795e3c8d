/**
 * A KSeF 2.0 client (NOTES §2 to §10), used by the portal's server and usable alone: login by KSeF token or by XAdES,
 * token refresh and revocation, online and batch sessions with their encryption, invoice and session statuses, UPOs,
 * KSeF tokens, and exports of received invoices. It speaks only HTTP through `fetch`, so it runs against KSeF's
 * TEST, DEMO and production environments and against the portal's simulator alike.
 *
 * Limits are honoured, not fought: a 429 waits for its `Retry-After` (up to `maxRetryAfterSeconds`) and is retried,
 * and every context is throttled to `requestsPerSecond` before KSeF has to say so. Errors are {@link KsefApiError}
 * with KSeF's codes; a final unsuccessful status is a {@link KsefStatusError}.
 */
import { createHash, X509Certificate, type KeyObject } from 'node:crypto';
import { ZipFile } from 'yazl';
import {
  aesDecrypt,
  aesEncrypt,
  encryptInvoice,
  encryptionInfo,
  encryptKsefToken,
  generateSymmetricKey,
} from '../crypto.ts';
import { errorFromResponse, KsefApiError, KsefRateLimitError, KsefStatusError } from './errors.ts';
import { buildAuthTokenRequest, signXades, type ContextIdentifier } from './xades.ts';

/** KSeF's API base addresses (NOTES §1). */
export const KSEF_ENVIRONMENTS = {
  test: 'https://api-test.ksef.mf.gov.pl/v2',
  demo: 'https://api-demo.ksef.mf.gov.pl/v2',
  production: 'https://api.ksef.mf.gov.pl/v2',
} as const;

/** FA(3)'s form code for `/sessions/online` and `/sessions/batch`. */
export const FA3_SESSION_FORM_CODE = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;

export type KsefClientOptions = {
  /** The API base, e.g. {@link KSEF_ENVIRONMENTS}.test or the simulator's `http://host/ksef-simulator/v2`. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Retries of a 429, and of a network error or 5xx on a call that is safe to repeat (default 3). */
  maxRetries?: number;
  /** A 429 asking to wait longer than this is thrown, not waited for (default 60). */
  maxRetryAfterSeconds?: number;
  /** Requests per second per context (default 10, KSeF's lowest per-second limit). */
  requestsPerSecond?: number;
  /** Between status polls (default 1 s), and how long to poll before giving up (default 120 s). */
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

export type KsefCredentials =
  | { kind: 'token'; context: ContextIdentifier; token: string }
  | {
      kind: 'certificate';
      context: ContextIdentifier;
      certificatePem: string;
      privateKey: string | KeyObject;
      subjectIdentifierType?: 'certificateSubject' | 'certificateFingerprint';
    };

export type TokenInfo = { token: string; validUntil: string };
export type StatusInfo = { code: number; description: string; details?: string[] | null };
export type PublicKeyCertificate = {
  certificate: string;
  certificateId?: string;
  publicKeyId: string;
  validFrom: string;
  validTo: string;
  usage: string[];
};
export type InvoiceStatus = {
  ordinalNumber: number;
  invoiceNumber?: string | null;
  ksefNumber?: string | null;
  referenceNumber: string;
  invoiceHash: string;
  acquisitionDate?: string | null;
  invoicingDate: string;
  permanentStorageDate?: string | null;
  upoDownloadUrl?: string | null;
  status: StatusInfo & { extensions?: Record<string, unknown> | null };
};
export type SessionStatus = {
  status: StatusInfo;
  dateCreated: string;
  dateUpdated: string;
  validUntil?: string | null;
  upo?: { pages: { referenceNumber: string; downloadUrl: string; downloadUrlExpirationDate: string }[] } | null;
  invoiceCount?: number | null;
  successfulInvoiceCount?: number | null;
  failedInvoiceCount?: number | null;
};
export type ExportStatus = {
  status: StatusInfo;
  completedDate?: string | null;
  package?: {
    invoiceCount: number;
    size: number;
    isTruncated: boolean;
    lastPermanentStorageDate?: string | null;
    permanentStorageHwmDate?: string | null;
    parts: {
      ordinalNumber: number;
      partName: string;
      method: string;
      url: string;
      partSize: number;
      partHash: string;
      encryptedPartSize: number;
      encryptedPartHash: string;
      expirationDate: string;
    }[];
  } | null;
};

const sha256b64 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Call = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** A raw body with its content type (the XAdES request). */
  raw?: { contentType: string; data: string | Uint8Array };
  bearer?: string;
  /** Answer as text (XML) rather than JSON. */
  text?: boolean;
  /** Whether a network error or 5xx may be retried (reads, and calls KSeF makes idempotent). */
  idempotent?: boolean;
  /** The context the call is throttled under. */
  context?: string;
};

export class KsefClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly options: Required<Omit<KsefClientOptions, 'fetch' | 'baseUrl'>>;
  private certificates: PublicKeyCertificate[] | null = null;
  private readonly windows = new Map<string, number[]>();

  constructor(options: KsefClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.options = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 60,
      requestsPerSecond: options.requestsPerSecond ?? 10,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      pollTimeoutMs: options.pollTimeoutMs ?? 120_000,
      sleep: options.sleep ?? defaultSleep,
    };
  }

  /** Waits until the context has a free slot in its one-second window (per context throttling, NOTES §10). */
  private async throttle(context: string): Promise<void> {
    const limit = this.options.requestsPerSecond;
    for (;;) {
      const now = Date.now();
      const window = (this.windows.get(context) ?? []).filter((t) => t > now - 1000);
      if (window.length < limit) {
        window.push(now);
        this.windows.set(context, window);
        return;
      }
      await this.options.sleep(window[0]! + 1000 - now);
    }
  }

  /** One call, with the retries its kind allows. */
  async call<T>(call: Call): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.throttle(call.context ?? 'anonymous');
      let response: Response;
      try {
        const headers: Record<string, string> = { accept: 'application/json', 'x-error-format': 'problem-details' };
        if (call.bearer) headers.authorization = `Bearer ${call.bearer}`;
        let body: string | Uint8Array | undefined;
        if (call.raw) {
          headers['content-type'] = call.raw.contentType;
          body = call.raw.data;
        } else if (call.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(call.body);
        }
        response = await this.fetchImpl(`${this.baseUrl}${call.path}`, {
          method: call.method,
          headers,
          ...(body === undefined ? {} : { body: body as NonNullable<RequestInit['body']> }),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (error) {
        if (call.idempotent && attempt < this.options.maxRetries) {
          await this.options.sleep(500 * 2 ** attempt);
          continue;
        }
        throw error;
      }
      if (response.ok) {
        if (response.status === 204) return undefined as T;
        return (call.text ? await response.text() : await response.json()) as T;
      }
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      const error = errorFromResponse(response.status, parsed, response.headers.get('retry-after'));
      if (
        error instanceof KsefRateLimitError &&
        attempt < this.options.maxRetries &&
        error.retryAfterSeconds <= this.options.maxRetryAfterSeconds
      ) {
        await this.options.sleep(error.retryAfterSeconds * 1000);
        continue;
      }
      if (response.status >= 500 && call.idempotent && attempt < this.options.maxRetries) {
        await this.options.sleep(500 * 2 ** attempt);
        continue;
      }
      throw error;
    }
  }

  /** The Ministry's public key certificates, fetched once (again after {@link forgetCertificates}). */
  async publicKeyCertificates(): Promise<PublicKeyCertificate[]> {
    this.certificates ??= await this.call<PublicKeyCertificate[]>({
      method: 'GET',
      path: '/security/public-key-certificates',
      idempotent: true,
    });
    return this.certificates;
  }

  /** After 21470 (an unknown or retired key): the next use fetches the certificates again. */
  forgetCertificates(): void {
    this.certificates = null;
  }

  /** The certificate of a usage valid now, the newest if several (NOTES §3 step 1). */
  async certificateFor(usage: 'KsefTokenEncryption' | 'SymmetricKeyEncryption') {
    const now = Date.now();
    const valid = (await this.publicKeyCertificates())
      .filter((c) => c.usage.includes(usage) && Date.parse(c.validFrom) <= now && now < Date.parse(c.validTo))
      .sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom));
    const chosen = valid[0];
    if (!chosen) throw new KsefApiError(0, [], `KSeF offers no valid certificate for ${usage}`);
    const x509 = new X509Certificate(Buffer.from(chosen.certificate, 'base64'));
    return { publicKey: x509.publicKey, publicKeyId: chosen.publicKeyId };
  }

  challenge(): Promise<{ challenge: string; timestamp: string; timestampMs: number; clientIp?: string }> {
    return this.call({ method: 'POST', path: '/auth/challenge' });
  }

  /**
   * Logs in (NOTES §2): a challenge, the token or XAdES step, polling until the authentication is done, and the
   * one-time redeem. Returns a session holding the access and refresh tokens.
   */
  async login(credentials: KsefCredentials): Promise<KsefAuth> {
    const context = credentials.context;
    const { challenge, timestampMs } = await this.challenge();
    let init: { referenceNumber: string; authenticationToken: TokenInfo };
    if (credentials.kind === 'token') {
      const { publicKey, publicKeyId } = await this.certificateFor('KsefTokenEncryption');
      init = await this.call({
        method: 'POST',
        path: '/auth/ksef-token',
        context: context.value,
        body: {
          challenge,
          contextIdentifier: context,
          encryptedToken: encryptKsefToken(publicKey, credentials.token, timestampMs),
          publicKeyId,
        },
      });
    } else {
      const request = buildAuthTokenRequest({
        challenge,
        context,
        ...(credentials.subjectIdentifierType ? { subjectIdentifierType: credentials.subjectIdentifierType } : {}),
      });
      init = await this.call({
        method: 'POST',
        path: '/auth/xades-signature',
        context: context.value,
        raw: {
          contentType: 'application/xml',
          data: signXades(request, credentials.certificatePem, credentials.privateKey),
        },
      });
    }
    const authToken = init.authenticationToken.token;
    await this.poll(
      'authentication',
      async () =>
        (
          await this.call<{ status: StatusInfo }>({
            method: 'GET',
            path: `/auth/${encodeURIComponent(init.referenceNumber)}`,
            bearer: authToken,
            context: context.value,
            idempotent: true,
          })
        ).status,
    );
    const tokens = await this.call<{ accessToken: TokenInfo; refreshToken: TokenInfo }>({
      method: 'POST',
      path: '/auth/token/redeem',
      bearer: authToken,
      context: context.value,
    });
    return new KsefAuth(this, context, init.referenceNumber, tokens.accessToken, tokens.refreshToken);
  }

  /** Polls a status until it is no longer 100 or 150; 200 is returned, anything else thrown. */
  async poll<S extends StatusInfo>(
    operation: KsefStatusError['operation'],
    read: () => Promise<S>,
    accept: (status: S) => boolean = (s) => s.code === 200,
  ): Promise<S> {
    const deadline = Date.now() + this.options.pollTimeoutMs;
    for (;;) {
      const status = await read();
      if (status.code !== 100 && status.code !== 150) {
        if (accept(status)) return status;
        throw new KsefStatusError(
          operation,
          status.code,
          status.description,
          status.details ?? [],
          (status as { extensions?: Record<string, unknown> | null }).extensions ?? null,
        );
      }
      if (Date.now() > deadline) {
        throw new KsefStatusError(
          operation,
          status.code,
          `still ${status.code} after ${this.options.pollTimeoutMs} ms`,
        );
      }
      await this.options.sleep(this.options.pollIntervalMs);
    }
  }

  /** A part upload to a pre-signed address, exactly as KSeF instructs: its method and headers, no token. */
  async upload(method: string, url: string, headers: Record<string, string>, data: Uint8Array): Promise<void> {
    const response = await this.fetchImpl(url, {
      method,
      headers,
      body: data as NonNullable<RequestInit['body']>,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (!response.ok) throw errorFromResponse(response.status, await response.text(), null);
  }

  /** A pre-signed download (UPO page, export part): no token, as KSeF wants (NOTES §6). */
  async download(url: string): Promise<Buffer> {
    const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
    if (!response.ok) throw errorFromResponse(response.status, await response.text(), null);
    return Buffer.from(await response.arrayBuffer());
  }
}

/** A logged-in context: its tokens, refreshed when they run out, and the calls that need them. */
export class KsefAuth {
  constructor(
    readonly client: KsefClient,
    readonly context: ContextIdentifier,
    /** The authentication's reference (`…-AU-…`): the portal shows it as the token reference. */
    readonly authenticationReference: string,
    private access: TokenInfo,
    private readonly refreshToken: TokenInfo,
  ) {}

  /** The access token, refreshed first when it expires within 30 s. */
  async accessToken(): Promise<string> {
    if (Date.parse(this.access.validUntil) - Date.now() < 30_000) await this.refresh();
    return this.access.token;
  }

  async refresh(): Promise<void> {
    const answer = await this.client.call<{ accessToken: TokenInfo }>({
      method: 'POST',
      path: '/auth/token/refresh',
      bearer: this.refreshToken.token,
      context: this.context.value,
    });
    this.access = answer.accessToken;
  }

  /** A call with the access token; a 401 (the token ran out early) refreshes once and repeats. */
  async request<T>(call: Omit<Call, 'bearer' | 'context'>): Promise<T> {
    try {
      return await this.client.call<T>({ ...call, bearer: await this.accessToken(), context: this.context.value });
    } catch (error) {
      if (!(error instanceof KsefApiError) || error.status !== 401) throw error;
      await this.refresh();
      return this.client.call<T>({ ...call, bearer: this.access.token, context: this.context.value });
    }
  }

  /** Revokes the refresh token (`DELETE /auth/sessions/current`). */
  logout(): Promise<void> {
    return this.request({ method: 'DELETE', path: '/auth/sessions/current' });
  }

  /** Opens an online session for FA(3) with a fresh AES key (NOTES §4); a retired key (21470) is fetched again once. */
  async openOnlineSession(formCode = FA3_SESSION_FORM_CODE): Promise<OnlineSession> {
    for (let attempt = 0; ; attempt++) {
      const { key, iv } = generateSymmetricKey();
      const { publicKey, publicKeyId } = await this.client.certificateFor('SymmetricKeyEncryption');
      try {
        const opened = await this.request<{ referenceNumber: string; validUntil: string }>({
          method: 'POST',
          path: '/sessions/online',
          body: { formCode, encryption: encryptionInfo(publicKey, publicKeyId, key, iv) },
        });
        return new OnlineSession(this, opened.referenceNumber, opened.validUntil, key, iv);
      } catch (error) {
        if (attempt === 0 && error instanceof KsefApiError && error.has(21470)) {
          this.client.forgetCertificates();
          continue;
        }
        throw error;
      }
    }
  }

  /** A session that is open already (the portal keeps its reference and key between jobs). */
  resumeOnlineSession(referenceNumber: string, validUntil: string, key: Uint8Array, iv: Uint8Array): OnlineSession {
    return new OnlineSession(this, referenceNumber, validUntil, Buffer.from(key), Buffer.from(iv));
  }

  sessionStatus(referenceNumber: string): Promise<SessionStatus> {
    return this.request({ method: 'GET', path: `/sessions/${encodeURIComponent(referenceNumber)}`, idempotent: true });
  }

  invoiceStatus(sessionReference: string, invoiceReference: string): Promise<InvoiceStatus> {
    return this.request({
      method: 'GET',
      path: `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}`,
      idempotent: true,
    });
  }

  /**
   * Waits for an invoice's final status. 200 is returned; 440 (a duplicate) is returned too, since its
   * `extensions.originalKsefNumber` is the invoice's number (NOTES §5: adopting it makes sending idempotent); any
   * other final status is a {@link KsefStatusError}.
   */
  async waitForInvoice(sessionReference: string, invoiceReference: string): Promise<InvoiceStatus> {
    let last: InvoiceStatus | undefined;
    await this.client.poll(
      'invoice',
      async () => {
        last = await this.invoiceStatus(sessionReference, invoiceReference);
        return last.status;
      },
      (s) => s.code === 200 || s.code === 440,
    );
    return last!;
  }

  /** The UPO of one invoice, as XML. */
  invoiceUpo(sessionReference: string, invoiceReference: string): Promise<string> {
    return this.request({
      method: 'GET',
      path: `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}/upo`,
      text: true,
      idempotent: true,
    });
  }

  /** The session's UPO pages, once the closed session is processed (NOTES §6). */
  async sessionUpo(sessionReference: string): Promise<string[]> {
    const status = await this.client.poll(
      'session',
      async () => (await this.sessionStatus(sessionReference)).status,
      (s) => [200, 445].includes(s.code),
    );
    void status;
    const pages = (await this.sessionStatus(sessionReference)).upo?.pages ?? [];
    return Promise.all(pages.map(async (p) => (await this.client.download(p.downloadUrl)).toString('utf8')));
  }

  /**
   * Sends many invoices in one batch session (NOTES §8): a zip of the files, cut into parts of at most `partBytes`
   * (KSeF allows 100 MB), each part encrypted with the session's key and IV and uploaded to its pre-signed address,
   * then the session closed. Returns the session's reference and which invoice hash is which file, to match the
   * session's results.
   */
  async sendBatch(
    invoices: readonly { fileName: string; xml: string | Uint8Array }[],
    options: { partBytes?: number; formCode?: typeof FA3_SESSION_FORM_CODE } = {},
  ): Promise<{ referenceNumber: string; files: Map<string, string> }> {
    const files = new Map<string, string>();
    const zip = new ZipFile();
    for (const invoice of invoices) {
      const bytes = typeof invoice.xml === 'string' ? Buffer.from(invoice.xml, 'utf8') : Buffer.from(invoice.xml);
      files.set(sha256b64(bytes), invoice.fileName);
      zip.addBuffer(bytes, invoice.fileName);
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const archive = Buffer.concat(chunks);
    const partBytes = options.partBytes ?? 100_000_000;
    const { key, iv } = generateSymmetricKey();
    const parts: Buffer[] = [];
    for (let offset = 0; offset < archive.length; offset += partBytes) {
      parts.push(aesEncrypt(archive.subarray(offset, offset + partBytes), key, iv));
    }
    const { publicKey, publicKeyId } = await this.client.certificateFor('SymmetricKeyEncryption');
    const opened = await this.request<{
      referenceNumber: string;
      partUploadRequests: { ordinalNumber: number; method: string; url: string; headers: Record<string, string> }[];
    }>({
      method: 'POST',
      path: '/sessions/batch',
      body: {
        formCode: options.formCode ?? FA3_SESSION_FORM_CODE,
        batchFile: {
          fileSize: archive.length,
          fileHash: sha256b64(archive),
          fileParts: parts.map((p, i) => ({ ordinalNumber: i + 1, fileSize: p.length, fileHash: sha256b64(p) })),
        },
        encryption: encryptionInfo(publicKey, publicKeyId, key, iv),
        offlineMode: false,
      },
    });
    for (const upload of opened.partUploadRequests) {
      const part = parts[upload.ordinalNumber - 1];
      if (!part) throw new KsefApiError(0, [], `KSeF asked for part ${upload.ordinalNumber}, which was not sent`);
      await this.client.upload(upload.method, upload.url, upload.headers, part);
    }
    await this.request({ method: 'POST', path: `/sessions/batch/${encodeURIComponent(opened.referenceNumber)}/close` });
    return { referenceNumber: opened.referenceNumber, files };
  }

  /** An invoice's XML by its KSeF number. */
  invoiceByKsefNumber(ksefNumber: string): Promise<string> {
    return this.request({
      method: 'GET',
      path: `/invoices/ksef/${encodeURIComponent(ksefNumber)}`,
      text: true,
      idempotent: true,
    });
  }

  /** A KSeF token for this context (only after an XAdES login, NOTES §2). The secret is in the answer only. */
  createToken(permissions: string[], description: string): Promise<{ referenceNumber: string; token: string }> {
    return this.request({ method: 'POST', path: '/tokens', body: { permissions, description } });
  }

  tokenStatus(referenceNumber: string): Promise<{ referenceNumber: string; status: string }> {
    return this.request({ method: 'GET', path: `/tokens/${encodeURIComponent(referenceNumber)}`, idempotent: true });
  }

  revokeToken(referenceNumber: string): Promise<void> {
    return this.request({ method: 'DELETE', path: `/tokens/${encodeURIComponent(referenceNumber)}` });
  }

  /**
   * Exports the invoices of a subject type (NOTES §9) and returns the decrypted, joined zip with the package's
   * high-water-mark fields; the zip holds the XML files and `_metadata.json`.
   */
  async exportInvoices(filters: Record<string, unknown>, options: { onlyMetadata?: boolean } = {}) {
    const { key, iv } = generateSymmetricKey();
    const { publicKey, publicKeyId } = await this.client.certificateFor('SymmetricKeyEncryption');
    const started = await this.request<{ referenceNumber: string }>({
      method: 'POST',
      path: '/invoices/exports',
      body: {
        encryption: encryptionInfo(publicKey, publicKeyId, key, iv),
        filters,
        onlyMetadata: options.onlyMetadata ?? false,
      },
    });
    let last: ExportStatus | undefined;
    await this.client.poll('export', async () => {
      last = await this.request<ExportStatus>({
        method: 'GET',
        path: `/invoices/exports/${encodeURIComponent(started.referenceNumber)}`,
        idempotent: true,
      });
      return last.status;
    });
    const pkg = last!.package;
    const parts = [...(pkg?.parts ?? [])].sort((a, b) => a.ordinalNumber - b.ordinalNumber);
    const plain: Buffer[] = [];
    for (const part of parts) {
      const encrypted = await this.client.download(part.url);
      if (sha256b64(encrypted) !== part.encryptedPartHash) {
        throw new KsefApiError(0, [], `export part ${part.ordinalNumber}: its hash does not match`);
      }
      plain.push(aesDecrypt(encrypted, key, iv));
    }
    return {
      referenceNumber: started.referenceNumber,
      zip: Buffer.concat(plain),
      invoiceCount: pkg?.invoiceCount ?? 0,
      isTruncated: pkg?.isTruncated ?? false,
      lastPermanentStorageDate: pkg?.lastPermanentStorageDate ?? null,
      permanentStorageHwmDate: pkg?.permanentStorageHwmDate ?? null,
    };
  }
}

/** An open online session: send encrypted invoices, then close it. */
export class OnlineSession {
  constructor(
    readonly auth: KsefAuth,
    readonly referenceNumber: string,
    readonly validUntil: string,
    /** The session's AES key and IV: the portal keeps them (encrypted) to resume the session after a restart. */
    readonly key: Buffer,
    readonly iv: Buffer,
  ) {}

  /** Sends one invoice (plain FA(3) XML, UTF-8 without BOM); KSeF answers with its reference (`…-EE-…`). */
  async send(invoice: string | Uint8Array): Promise<{ referenceNumber: string; invoiceHash: string }> {
    const encrypted = encryptInvoice(invoice, this.key, this.iv);
    const answer = await this.auth.request<{ referenceNumber: string }>({
      method: 'POST',
      path: `/sessions/online/${encodeURIComponent(this.referenceNumber)}/invoices`,
      body: { ...encrypted, offlineMode: false },
    });
    return { referenceNumber: answer.referenceNumber, invoiceHash: encrypted.invoiceHash };
  }

  close(): Promise<void> {
    return this.auth.request({
      method: 'POST',
      path: `/sessions/online/${encodeURIComponent(this.referenceNumber)}/close`,
    });
  }
}
