/** The KSeF 2.0 client: `@portal/ksef/client`. */
export {
  FA3_SESSION_FORM_CODE,
  KSEF_ENVIRONMENTS,
  KsefAuth,
  KsefClient,
  OnlineSession,
  type ExportStatus,
  type InvoiceStatus,
  type KsefClientOptions,
  type KsefCredentials,
  type PublicKeyCertificate,
  type SessionStatus,
  type StatusInfo,
  type TokenInfo,
} from './client.ts';
export {
  errorFromResponse,
  KsefApiError,
  KsefRateLimitError,
  KsefStatusError,
  type KsefErrorDetail,
} from './errors.ts';
export {
  AUTH_NAMESPACE,
  buildAuthTokenRequest,
  signXades,
  verifyXades,
  type ContextIdentifier,
  type VerifiedXml,
} from './xades.ts';
export { createTestCertificate } from './test-certificate.ts';
