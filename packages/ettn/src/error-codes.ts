/**
 * The e-TTN error codes 0–32 with their texts in the portal's eleven languages. The table lives in packages/contracts
 * (the API answers with `ettn.<code>` and the web app words it), and the domain re-exports it from there.
 */
export {
  ETTN_ERROR_CODES,
  ETTN_ERROR_LANGUAGES,
  ETTN_ERROR_TEXTS,
  ettnErrorKey,
  ettnErrorText,
  isEttnErrorCode,
  type EttnErrorCode,
  type EttnErrorLanguage,
} from '@portal/contracts';
