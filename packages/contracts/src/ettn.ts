import { z } from 'zod';
import { LANGUAGES } from './constants.ts';
import { ListQuerySchema, pageSchema } from './lists.ts';
import { isValidEdrpou, isValidRnokpp } from './identifiers.ts';
import { isValidGln, text } from './rules.ts';

/**
 * e-TTN (issue 14): the error codes 0–32 of the description with their texts in the eleven languages, and the
 * request and response shapes of `/api/ettns/...` (description, section 7). The domain (XML, validator, lifecycle,
 * signatures) is `@portal/ettn`, which re-exports the error table from here.
 */

// --- error codes --------------------------------------------------------------------------------------------------

/**
 * The codes and their English meanings are the description's table (section 8), which wins wherever a source
 * disagrees; codes 3, 8 and 23 are not given there and are left out rather than invented. The Ukrainian texts are
 * written from the same meanings (the registry's own wording is not public). The API answers with `ettn.<code>`
 * (STYLE.md, Errors) and the UI shows the text of the user's language (`errors:ettn.<code>`, generated from this
 * table into the catalogs by `packages/i18n/scripts/ettn-errors.mjs`).
 */

/** The portal's languages, in the same order as LANGUAGES. */
export const ETTN_ERROR_LANGUAGES = LANGUAGES;
export type EttnErrorLanguage = (typeof ETTN_ERROR_LANGUAGES)[number];

export const ETTN_ERROR_CODES = [
  0, 1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32,
] as const;
export type EttnErrorCode = (typeof ETTN_ERROR_CODES)[number];

/** The API error codes, one per e-TTN code (`ettn.7`); part of ERROR_CODES. */
export const ETTN_API_ERROR_CODES = [
  'ettn.0',
  'ettn.1',
  'ettn.2',
  'ettn.4',
  'ettn.5',
  'ettn.6',
  'ettn.7',
  'ettn.9',
  'ettn.10',
  'ettn.11',
  'ettn.12',
  'ettn.13',
  'ettn.14',
  'ettn.15',
  'ettn.16',
  'ettn.17',
  'ettn.18',
  'ettn.19',
  'ettn.20',
  'ettn.21',
  'ettn.22',
  'ettn.24',
  'ettn.25',
  'ettn.26',
  'ettn.27',
  'ettn.28',
  'ettn.29',
  'ettn.30',
  'ettn.31',
  'ettn.32',
] as const satisfies readonly `ettn.${EttnErrorCode}`[];
export type EttnApiErrorCode = (typeof ETTN_API_ERROR_CODES)[number];

/** The API error code of an e-TTN code: `ettn.7`. */
export const ettnErrorKey = (code: EttnErrorCode): `ettn.${EttnErrorCode}` => `ettn.${code}`;

export const isEttnErrorCode = (value: number): value is EttnErrorCode =>
  (ETTN_ERROR_CODES as readonly number[]).includes(value);

/**
 * The HTTP status of each e-TTN code. No 401: the web app refreshes the session on a 401, and an expired registry
 * token is not the user's session. A refusal of the state machine or of a role is a 409 or 403; input the registry
 * cannot take a 400 or 422; a missing object a 404; the registry's own failure a 500 or 502.
 */
export const ETTN_ERROR_STATUS = {
  'ettn.0': 500,
  'ettn.1': 400,
  'ettn.2': 403,
  'ettn.4': 422,
  'ettn.5': 403,
  'ettn.6': 404,
  'ettn.7': 409,
  'ettn.9': 409,
  'ettn.10': 404,
  'ettn.11': 409,
  'ettn.12': 409,
  'ettn.13': 422,
  'ettn.14': 403,
  'ettn.15': 400,
  'ettn.16': 422,
  'ettn.17': 403,
  'ettn.18': 422,
  'ettn.19': 403,
  'ettn.20': 403,
  'ettn.21': 403,
  'ettn.22': 422,
  'ettn.24': 409,
  'ettn.25': 409,
  'ettn.26': 422,
  'ettn.27': 422,
  'ettn.28': 422,
  'ettn.29': 422,
  'ettn.30': 422,
  'ettn.31': 422,
  'ettn.32': 502,
} as const satisfies Record<EttnApiErrorCode, number>;

type Texts = Record<EttnErrorLanguage, string>;

export const ETTN_ERROR_TEXTS: Readonly<Record<EttnErrorCode, Texts>> = {
  0: {
    ar: 'خطأ داخلي في قاعدة البيانات',
    de: 'Interner Datenbankfehler',
    en: 'Internal database error',
    es: 'Error interno de la base de datos',
    fr: 'Erreur interne de la base de données',
    hu: 'Belső adatbázishiba',
    it: 'Errore interno del database',
    ms: 'Ralat dalaman pangkalan data',
    pl: 'Wewnętrzny błąd bazy danych',
    th: 'ข้อผิดพลาดภายในฐานข้อมูล',
    uk: 'Внутрішня помилка бази даних',
  },
  1: {
    ar: 'تم إنشاء الطلب بشكل غير صحيح',
    de: 'Die Anfrage wurde fehlerhaft erstellt',
    en: 'Incorrectly generated request',
    es: 'La solicitud se generó de forma incorrecta',
    fr: 'Requête mal formée',
    hu: 'Hibásan összeállított kérés',
    it: 'Richiesta generata in modo errato',
    ms: 'Permintaan dijana dengan tidak betul',
    pl: 'Nieprawidłowo utworzone żądanie',
    th: 'คำขอถูกสร้างไม่ถูกต้อง',
    uk: 'Некоректно сформований запит',
  },
  2: {
    ar: 'رمز فحص المستند غير صالح',
    de: 'Ungültiges Token für die Dokumentenprüfung',
    en: 'Invalid document inspection token',
    es: 'Token de inspección del documento no válido',
    fr: "Jeton d'inspection du document non valide",
    hu: 'Érvénytelen dokumentum-ellenőrzési token',
    it: 'Token di ispezione del documento non valido',
    ms: 'Token pemeriksaan dokumen tidak sah',
    pl: 'Nieprawidłowy token kontroli dokumentu',
    th: 'โทเค็นการตรวจสอบเอกสารไม่ถูกต้อง',
    uk: 'Недійсний токен перевірки документа',
  },
  4: {
    ar: 'نوع المركبة غير صحيح',
    de: 'Falscher Fahrzeugtyp',
    en: 'Incorrect vehicle type',
    es: 'Tipo de vehículo incorrecto',
    fr: 'Type de véhicule incorrect',
    hu: 'Helytelen járműtípus',
    it: 'Tipo di veicolo errato',
    ms: 'Jenis kenderaan tidak betul',
    pl: 'Nieprawidłowy typ pojazdu',
    th: 'ประเภทยานพาหนะไม่ถูกต้อง',
    uk: 'Некоректний тип транспортного засобу',
  },
  5: {
    ar: 'دور الممثل غير صحيح',
    de: 'Falsche Rolle des Vertreters',
    en: 'Representative role incorrect',
    es: 'Rol del representante incorrecto',
    fr: 'Rôle du représentant incorrect',
    hu: 'Helytelen képviselői szerepkör',
    it: 'Ruolo del rappresentante errato',
    ms: 'Peranan wakil tidak betul',
    pl: 'Nieprawidłowa rola przedstawiciela',
    th: 'บทบาทของผู้แทนไม่ถูกต้อง',
    uk: 'Некоректна роль представника',
  },
  6: {
    ar: 'لم يتم العثور على كائن بوليصة الشحن',
    de: 'TTN-Objekt nicht gefunden',
    en: 'TTN object not found',
    es: 'No se encontró el objeto TTN',
    fr: 'Objet TTN introuvable',
    hu: 'A TTN objektum nem található',
    it: 'Oggetto TTN non trovato',
    ms: 'Objek TTN tidak ditemui',
    pl: 'Nie znaleziono obiektu TTN',
    th: 'ไม่พบออบเจ็กต์ TTN',
    uk: "Об'єкт ТТН не знайдено",
  },
  7: {
    ar: 'انتقال غير صحيح بين حالات بوليصة الشحن',
    de: 'Unzulässiger Übergang zwischen TTN-Status',
    en: 'Incorrect transition between TTN states',
    es: 'Transición incorrecta entre estados de la TTN',
    fr: "Transition incorrecte entre les états de l'e-TTN",
    hu: 'Helytelen átmenet a TTN állapotai között',
    it: 'Transizione errata tra gli stati della TTN',
    ms: 'Peralihan tidak betul antara status TTN',
    pl: 'Nieprawidłowe przejście między stanami TTN',
    th: 'การเปลี่ยนสถานะ TTN ไม่ถูกต้อง',
    uk: 'Некоректний перехід між станами ТТН',
  },
  9: {
    ar: 'التنزيل غير مسموح به في الحالة الحالية',
    de: 'Herunterladen im aktuellen Status nicht erlaubt',
    en: 'Downloading in the current state is not allowed',
    es: 'No se permite la descarga en el estado actual',
    fr: "Le téléchargement n'est pas autorisé dans l'état actuel",
    hu: 'A letöltés a jelenlegi állapotban nem engedélyezett',
    it: 'Download non consentito nello stato attuale',
    ms: 'Muat turun tidak dibenarkan dalam status semasa',
    pl: 'Pobieranie w bieżącym stanie jest niedozwolone',
    th: 'ไม่อนุญาตให้ดาวน์โหลดในสถานะปัจจุบัน',
    uk: 'Завантаження в поточному стані не дозволено',
  },
  10: {
    ar: 'لم يتم العثور على المستند المرافق',
    de: 'Begleitdokument nicht gefunden',
    en: 'Accompanying document not found',
    es: 'No se encontró el documento adjunto',
    fr: "Document d'accompagnement introuvable",
    hu: 'A kísérő dokumentum nem található',
    it: 'Documento di accompagnamento non trovato',
    ms: 'Dokumen iringan tidak ditemui',
    pl: 'Nie znaleziono dokumentu towarzyszącego',
    th: 'ไม่พบเอกสารประกอบ',
    uk: 'Супровідний документ не знайдено',
  },
  11: {
    ar: 'نوع المستند الداعم المقترح يختلف عن النوع الحالي',
    de: 'Der vorgeschlagene Typ des Begleitdokuments weicht vom aktuellen ab',
    en: 'Proposed supporting document type differs from the current one',
    es: 'El tipo de documento de respaldo propuesto difiere del actual',
    fr: 'Le type de document justificatif proposé diffère du type actuel',
    hu: 'A javasolt kísérő dokumentum típusa eltér a jelenlegitől',
    it: 'Il tipo di documento di supporto proposto è diverso da quello attuale',
    ms: 'Jenis dokumen sokongan yang dicadangkan berbeza daripada jenis semasa',
    pl: 'Proponowany typ dokumentu uzupełniającego różni się od bieżącego',
    th: 'ประเภทเอกสารประกอบที่เสนอแตกต่างจากประเภทปัจจุบัน',
    uk: 'Запропонований тип супровідного документа відрізняється від поточного',
  },
  12: {
    ar: 'انتقال غير صحيح بين حالات المستندات الداعمة',
    de: 'Unzulässiger Übergang zwischen den Status von Begleitdokumenten',
    en: 'Incorrect transition between states of supporting documents',
    es: 'Transición incorrecta entre estados de los documentos de respaldo',
    fr: 'Transition incorrecte entre les états des documents justificatifs',
    hu: 'Helytelen átmenet a kísérő dokumentumok állapotai között',
    it: 'Transizione errata tra gli stati dei documenti di supporto',
    ms: 'Peralihan tidak betul antara status dokumen sokongan',
    pl: 'Nieprawidłowe przejście między stanami dokumentów uzupełniających',
    th: 'การเปลี่ยนสถานะของเอกสารประกอบไม่ถูกต้อง',
    uk: 'Некоректний перехід між станами супровідних документів',
  },
  13: {
    ar: 'وقت الإلغاء المقترح غير صحيح',
    de: 'Falscher vorgeschlagener Stornierungszeitpunkt',
    en: 'Incorrect proposed cancel time',
    es: 'Hora de cancelación propuesta incorrecta',
    fr: "Heure d'annulation proposée incorrecte",
    hu: 'Helytelen javasolt visszavonási időpont',
    it: 'Ora di annullamento proposta errata',
    ms: 'Masa pembatalan yang dicadangkan tidak betul',
    pl: 'Nieprawidłowy proponowany czas anulowania',
    th: 'เวลายกเลิกที่เสนอไม่ถูกต้อง',
    uk: 'Некоректний запропонований час скасування',
  },
  14: {
    ar: 'توقيع الحدث لم يعد صالحًا',
    de: 'Die Signatur des Ereignisses ist nicht mehr gültig',
    en: 'Event signature no longer valid',
    es: 'La firma del evento ya no es válida',
    fr: "La signature de l'événement n'est plus valide",
    hu: 'Az esemény aláírása már nem érvényes',
    it: "La firma dell'evento non è più valida",
    ms: 'Tandatangan peristiwa tidak lagi sah',
    pl: 'Podpis zdarzenia nie jest już ważny',
    th: 'ลายเซ็นของเหตุการณ์ไม่มีผลอีกต่อไป',
    uk: 'Підпис події більше не дійсний',
  },
  15: {
    ar: 'معرّف الحدث مفقود',
    de: 'Ereignis-ID fehlt',
    en: 'Event ID missing',
    es: 'Falta el identificador del evento',
    fr: "Identifiant de l'événement manquant",
    hu: 'Hiányzik az esemény azonosítója',
    it: "ID dell'evento mancante",
    ms: 'ID peristiwa tiada',
    pl: 'Brak identyfikatora zdarzenia',
    th: 'ไม่มีรหัสเหตุการณ์',
    uk: 'Відсутній ідентифікатор події',
  },
  16: {
    ar: 'عدم تطابق نصوص الموافقة',
    de: 'Die Einwilligungstexte stimmen nicht überein',
    en: 'Consent texts discrepancy',
    es: 'Discrepancia en los textos de consentimiento',
    fr: 'Les textes de consentement ne concordent pas',
    hu: 'A hozzájárulási szövegek eltérnek',
    it: 'Discrepanza nei testi di consenso',
    ms: 'Percanggahan teks persetujuan',
    pl: 'Niezgodność tekstów zgody',
    th: 'ข้อความการให้ความยินยอมไม่ตรงกัน',
    uk: 'Розбіжність текстів згоди',
  },
  17: {
    ar: 'المستهلك غير مشترك في الأحداث',
    de: 'Der Empfänger hat keine Ereignisse abonniert',
    en: 'Consumer not subscribed to events',
    es: 'El consumidor no está suscrito a los eventos',
    fr: "Le consommateur n'est pas abonné aux événements",
    hu: 'A fogyasztó nem iratkozott fel az eseményekre',
    it: 'Il consumatore non è iscritto agli eventi',
    ms: 'Pengguna tidak melanggan peristiwa',
    pl: 'Odbiorca nie subskrybuje zdarzeń',
    th: 'ผู้รับไม่ได้สมัครรับเหตุการณ์',
    uk: 'Споживач не підписаний на події',
  },
  18: {
    ar: 'نص الموافقة مفقود',
    de: 'Einwilligungstext fehlt',
    en: 'Consent text missing',
    es: 'Falta el texto de consentimiento',
    fr: 'Texte de consentement manquant',
    hu: 'Hiányzik a hozzájárulási szöveg',
    it: 'Testo di consenso mancante',
    ms: 'Teks persetujuan tiada',
    pl: 'Brak tekstu zgody',
    th: 'ไม่มีข้อความการให้ความยินยอม',
    uk: 'Відсутній текст згоди',
  },
  19: {
    ar: 'رمز الوصول لم يعد صالحًا',
    de: 'Das Zugriffstoken ist nicht mehr gültig',
    en: 'Access token no longer valid',
    es: 'El token de acceso ya no es válido',
    fr: "Le jeton d'accès n'est plus valide",
    hu: 'A hozzáférési token már nem érvényes',
    it: 'Il token di accesso non è più valido',
    ms: 'Token akses tidak lagi sah',
    pl: 'Token dostępu nie jest już ważny',
    th: 'โทเค็นการเข้าถึงไม่มีผลอีกต่อไป',
    uk: 'Токен доступу більше не дійсний',
  },
  20: {
    ar: 'دور الموقّع على بوليصة الشحن غير صحيح',
    de: 'Falsche Rolle des TTN-Unterzeichners',
    en: 'Incorrect TTN signatory role',
    es: 'Rol del firmante de la TTN incorrecto',
    fr: "Rôle du signataire de l'e-TTN incorrect",
    hu: 'Helytelen TTN-aláírói szerepkör',
    it: 'Ruolo del firmatario della TTN errato',
    ms: 'Peranan penandatangan TTN tidak betul',
    pl: 'Nieprawidłowa rola podpisującego TTN',
    th: 'บทบาทผู้ลงนาม TTN ไม่ถูกต้อง',
    uk: 'Некоректна роль підписанта ТТН',
  },
  21: {
    ar: 'دور الموقّع على المستند الداعم غير صحيح',
    de: 'Falsche Rolle des Unterzeichners des Begleitdokuments',
    en: 'Incorrect supporting-document signatory role',
    es: 'Rol del firmante del documento de respaldo incorrecto',
    fr: 'Rôle du signataire du document justificatif incorrect',
    hu: 'Helytelen aláírói szerepkör a kísérő dokumentumon',
    it: 'Ruolo del firmatario del documento di supporto errato',
    ms: 'Peranan penandatangan dokumen sokongan tidak betul',
    pl: 'Nieprawidłowa rola podpisującego dokument uzupełniający',
    th: 'บทบาทผู้ลงนามเอกสารประกอบไม่ถูกต้อง',
    uk: 'Некоректна роль підписанта супровідного документа',
  },
  22: {
    ar: 'رابط غير صحيح إلى مستند',
    de: 'Falscher Verweis auf ein Dokument',
    en: 'Incorrect link to a document',
    es: 'Enlace incorrecto a un documento',
    fr: 'Lien incorrect vers un document',
    hu: 'Helytelen hivatkozás egy dokumentumra',
    it: 'Collegamento errato a un documento',
    ms: 'Pautan ke dokumen tidak betul',
    pl: 'Nieprawidłowe odwołanie do dokumentu',
    th: 'ลิงก์ไปยังเอกสารไม่ถูกต้อง',
    uk: 'Некоректне посилання на документ',
  },
  24: {
    ar: 'تركيبة غير صحيحة لحالات بوليصة الشحن والمستند الداعم',
    de: 'Unzulässige Kombination der Status von TTN und Begleitdokument',
    en: 'Incorrect combination of note and supporting document states',
    es: 'Combinación incorrecta de estados de la TTN y del documento de respaldo',
    fr: "Combinaison incorrecte des états de l'e-TTN et du document justificatif",
    hu: 'A fuvarlevél és a kísérő dokumentum állapotainak helytelen kombinációja',
    it: 'Combinazione errata degli stati della TTN e del documento di supporto',
    ms: 'Gabungan status nota dan dokumen sokongan tidak betul',
    pl: 'Nieprawidłowe połączenie stanów TTN i dokumentu uzupełniającego',
    th: 'การรวมกันของสถานะใบกำกับและเอกสารประกอบไม่ถูกต้อง',
    uk: 'Некоректне поєднання станів ТТН і супровідного документа',
  },
  25: {
    ar: 'عملية غير صحيحة لتحديث الممثلين',
    de: 'Unzulässiger Vorgang zur Aktualisierung der Vertreter',
    en: 'Incorrect operation to update representatives',
    es: 'Operación incorrecta para actualizar los representantes',
    fr: 'Opération de mise à jour des représentants incorrecte',
    hu: 'Helytelen művelet a képviselők frissítésére',
    it: 'Operazione errata di aggiornamento dei rappresentanti',
    ms: 'Operasi mengemas kini wakil tidak betul',
    pl: 'Nieprawidłowa operacja aktualizacji przedstawicieli',
    th: 'การดำเนินการปรับปรุงผู้แทนไม่ถูกต้อง',
    uk: 'Некоректна операція оновлення представників',
  },
  26: {
    ar: 'عدد التوقيعات غير صحيح',
    de: 'Falsche Anzahl von Signaturen',
    en: 'Incorrect number of signatures',
    es: 'Número de firmas incorrecto',
    fr: 'Nombre de signatures incorrect',
    hu: 'Helytelen az aláírások száma',
    it: 'Numero di firme errato',
    ms: 'Bilangan tandatangan tidak betul',
    pl: 'Nieprawidłowa liczba podpisów',
    th: 'จำนวนลายเซ็นไม่ถูกต้อง',
    uk: 'Некоректна кількість підписів',
  },
  27: {
    ar: 'نوع المستند الداعم غير صحيح',
    de: 'Falscher Typ des Begleitdokuments',
    en: 'Incorrect supporting document type',
    es: 'Tipo de documento de respaldo incorrecto',
    fr: 'Type de document justificatif incorrect',
    hu: 'Helytelen kísérő dokumentum típus',
    it: 'Tipo di documento di supporto errato',
    ms: 'Jenis dokumen sokongan tidak betul',
    pl: 'Nieprawidłowy typ dokumentu uzupełniającego',
    th: 'ประเภทเอกสารประกอบไม่ถูกต้อง',
    uk: 'Некоректний тип супровідного документа',
  },
  28: {
    ar: 'وقت التحديث المقترح غير صحيح',
    de: 'Falscher vorgeschlagener Aktualisierungszeitpunkt',
    en: 'Incorrect suggested update time',
    es: 'Hora de actualización sugerida incorrecta',
    fr: 'Heure de mise à jour suggérée incorrecte',
    hu: 'Helytelen javasolt frissítési időpont',
    it: 'Ora di aggiornamento suggerita errata',
    ms: 'Masa kemas kini yang dicadangkan tidak betul',
    pl: 'Nieprawidłowy sugerowany czas aktualizacji',
    th: 'เวลาปรับปรุงที่เสนอไม่ถูกต้อง',
    uk: 'Некоректний запропонований час оновлення',
  },
  29: {
    ar: 'المستند لا يطابق المخطط',
    de: 'Das Dokument entspricht nicht dem Schema',
    en: 'Document does not match the scheme',
    es: 'El documento no se ajusta al esquema',
    fr: 'Le document ne correspond pas au schéma',
    hu: 'A dokumentum nem felel meg a sémának',
    it: 'Il documento non corrisponde allo schema',
    ms: 'Dokumen tidak sepadan dengan skema',
    pl: 'Dokument nie jest zgodny ze schematem',
    th: 'เอกสารไม่ตรงตามโครงสร้างที่กำหนด',
    uk: 'Документ не відповідає схемі',
  },
  30: {
    ar: 'لم يتم التحقق من توقيع المستند',
    de: 'Die Signatur des Dokuments wurde nicht verifiziert',
    en: 'Document signature not verified',
    es: 'La firma del documento no se ha verificado',
    fr: "La signature du document n'a pas été vérifiée",
    hu: 'A dokumentum aláírása nincs ellenőrizve',
    it: 'La firma del documento non è stata verificata',
    ms: 'Tandatangan dokumen tidak disahkan',
    pl: 'Podpis dokumentu nie został zweryfikowany',
    th: 'ไม่สามารถยืนยันลายเซ็นของเอกสารได้',
    uk: 'Підпис документа не перевірено',
  },
  31: {
    ar: 'قسم الإصدار السابق مشوّه',
    de: 'Fehlerhafter Abschnitt der Vorgängerversion',
    en: 'Malformed previous-version section',
    es: 'Sección de la versión anterior mal formada',
    fr: 'Section de la version précédente mal formée',
    hu: 'Hibás az előző verzió szakasza',
    it: 'Sezione della versione precedente non valida',
    ms: 'Bahagian versi sebelumnya tidak lengkap atau rosak',
    pl: 'Nieprawidłowa sekcja poprzedniej wersji',
    th: 'ส่วนข้อมูลของเวอร์ชันก่อนหน้าไม่ถูกต้อง',
    uk: 'Некоректно сформований розділ попередньої версії',
  },
  32: {
    ar: 'تعذّر تحميل المستند',
    de: 'Das Dokument konnte nicht hochgeladen werden',
    en: 'Document could not be uploaded',
    es: 'No se pudo cargar el documento',
    fr: "Le document n'a pas pu être téléversé",
    hu: 'A dokumentumot nem sikerült feltölteni',
    it: 'Impossibile caricare il documento',
    ms: 'Dokumen tidak dapat dimuat naik',
    pl: 'Nie udało się przesłać dokumentu',
    th: 'ไม่สามารถอัปโหลดเอกสารได้',
    uk: 'Не вдалося завантажити документ',
  },
};

/** The text of a code in a language (English when the language is not one of the eleven). */
export const ettnErrorText = (code: EttnErrorCode, language: string): string => {
  const texts = ETTN_ERROR_TEXTS[code];
  return (ETTN_ERROR_LANGUAGES as readonly string[]).includes(language)
    ? texts[language as EttnErrorLanguage]
    : texts.en;
};

/** Every language's text of a code: the "error message map" a refusal carries in `error.data.messages`. */
export const ettnErrorMessages = (code: EttnErrorCode): Texts => ({ ...ETTN_ERROR_TEXTS[code] });

// --- the API ------------------------------------------------------------------------------------------------------

/** The largest e-TTN XML an upload may carry (a note with many lines and signatures stays far below). */
export const ETTN_XML_MAX_BYTES = 1_048_576;
/** The largest multipart body of an e-TTN call: the XML and its text fields. */
export const ETTN_FORM_MAX_BYTES = ETTN_XML_MAX_BYTES + 64 * 1024;
/** A subscription or alias expiring within this many ms is announced by the expiry dialog (description, section 9). */
export const ETTN_EXPIRY_WARNING_MS = 1_209_600_000;

/** The statuses of the description, section 4 (a note's and an act's; see @portal/ettn's lifecycle). */
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
export type EttnStatusCode = (typeof ETTN_STATUSES)[number];
export const EttnStatusSchema = z.enum(ETTN_STATUSES, { error: 'oneOf' });

/** Party role codes a signer may name (description, section 6, with the sources' DRS and UC sub-roles). */
export const ETTN_PARTY_ROLE_CODES = [
  'CZ',
  'CA',
  'CH',
  'DR',
  'DRS',
  'CN',
  'UC',
  'OB',
  'FW',
  'WD',
  'WH',
  'COP',
  'IO',
  'OV',
] as const;
export const EttnPartyRoleSchema = z.enum(ETTN_PARTY_ROLE_CODES, { error: 'oneOf' });

export const ETTN_ACT_TYPES = [
  'DisagreementAct',
  'ReloadAct',
  'AdjustmentAct',
  'ConsigneeChangeAct',
  'RejectAct',
  'ResealingAct',
  'StopAct',
  'StorageDeliveryAct',
  'StoragePickUpAct',
] as const;
export const EttnActTypeSchema = z.enum(ETTN_ACT_TYPES, { error: 'oneOf' });

/** The alias qualifier is fixed as EDRPOU (description, section 9). */
export const ETTN_ALIAS_QUALIFIERS = ['EDRPOU'] as const;
export const EttnAliasQualifierSchema = z.enum(ETTN_ALIAS_QUALIFIERS, { error: 'oneOf' });
const EdrpouSchema = text({ error: 'required' })
  .trim()
  .max(8, 'tooLong')
  .regex(/^\d{8}$/, 'edrpou')
  .refine(isValidEdrpou, 'edrpou');

export const ETTN_PART_TYPES = ['BODY', 'META'] as const;
export const EttnPartTypeSchema = z.enum(ETTN_PART_TYPES, { error: 'oneOf' });

const booleanField = z
  .union([z.boolean(), z.enum(['true', 'false'], { error: 'boolean' })])
  .transform((v) => v === true || v === 'true');
const optionalText = (max: number) => text().trim().max(max, 'tooLong').optional();
const uuidField = z.uuid({ error: 'uuid' });

/** `POST /api/ettns/aliasRegistrationGet`: the alias query (empty: every alias and subscription of the company). */
export const AliasRegistrationGetRequestSchema = z.object({
  aliasQualifier: EttnAliasQualifierSchema.optional(),
  aliasValue: EdrpouSchema.optional(),
});
export type AliasRegistrationGetRequest = z.infer<typeof AliasRegistrationGetRequestSchema>;

export const EttnAliasSchema = z.object({
  qualifier: EttnAliasQualifierSchema,
  value: z.string(),
  registeredAt: z.string(),
  expiresAt: z.string(),
  /** Registered and not expired. */
  isRegistered: z.boolean(),
});
export type EttnAlias = z.infer<typeof EttnAliasSchema>;

export const EttnSubscriptionSchema = z.object({
  id: z.uuid(),
  aliasQualifier: EttnAliasQualifierSchema,
  aliasValue: z.string(),
  startDate: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type EttnSubscription = z.infer<typeof EttnSubscriptionSchema>;

export const AliasRegistrationResponseSchema = z.object({
  aliases: z.array(EttnAliasSchema),
  subscriptions: z.array(EttnSubscriptionSchema),
  /** The earliest expiry within ETTN_EXPIRY_WARNING_MS of now, for the expiry dialog; null when none. */
  expiresSoon: z.string().nullable(),
});
export type AliasRegistrationResponse = z.infer<typeof AliasRegistrationResponseSchema>;

/**
 * `POST /api/ettns/aliasRegistrationSet` (multipart or JSON): registers the company's alias with the registry and
 * subscribes it to the events of its notes for a year; `isRegistered=true` renews an alias the company holds.
 */
export const AliasRegistrationSetFormSchema = z.object({
  fileUrl: optionalText(2000),
  aliasQualifier: EttnAliasQualifierSchema,
  aliasValue: EdrpouSchema,
  isRegistered: booleanField.default(false),
});
export type AliasRegistrationSetForm = z.infer<typeof AliasRegistrationSetFormSchema>;

/** `POST /api/ettns/registerEttn` (multipart): the `file` part (XML, ≤ ETTN_XML_MAX_BYTES) and these fields. */
export const RegisterEttnFormSchema = z.object({
  fileName: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(255, 'tooLong'),
  signingPartyRoleCode: EttnPartyRoleSchema,
});
export type RegisterEttnForm = z.infer<typeof RegisterEttnFormSchema>;
export const RegisterEttnResponseSchema = z.object({ id: z.uuid() });

/** `POST /api/ettns/downloadSignedEttn`: `fileUrl` is a transaction's `fileUrl` of the view (its document-detail id). */
export const DownloadSignedEttnFormSchema = z.object({
  fileName: optionalText(255),
  fileUrl: uuidField,
});
export type DownloadSignedEttnForm = z.infer<typeof DownloadSignedEttnFormSchema>;

/** `POST /api/ettns/processDocumentPartGet`: a registered note's (or act's) transaction; the newest when not named. */
export const ProcessDocumentPartGetRequestSchema = z.object({
  processId: uuidField,
  documentId: uuidField.optional(),
  documentDetId: uuidField.optional(),
  partType: EttnPartTypeSchema.default('BODY'),
});
export type ProcessDocumentPartGetRequest = z.infer<typeof ProcessDocumentPartGetRequestSchema>;

/** `POST /api/ettns/pendingPartGet`: an uploaded file not yet sent (`registerEttn`'s id). */
export const PendingPartGetRequestSchema = z.object({
  registeredFileId: uuidField,
  partType: EttnPartTypeSchema.default('BODY'),
});
export type PendingPartGetRequest = z.infer<typeof PendingPartGetRequestSchema>;

export const EttnPartResponseSchema = z.object({
  /** The part as base64 of UTF-8 XML: BODY the document (`UAECMR` or `UAECMR_ACT`), META the registry's facts. */
  bodyPartContent: z.string(),
  partType: EttnPartTypeSchema,
  processDocumentStatus: z.enum(['OK', 'PENDING']),
});
export type EttnPartResponse = z.infer<typeof EttnPartResponseSchema>;

/**
 * `POST /api/ettns/signAndSend` (multipart or JSON). The description's fields; what is sent:
 * - `registeredFileId` (an upload) or `file` (an XML): a new note (no `processId`), or the next transaction or an act
 *   of the note `processId`;
 * - neither: the server writes the next transaction of note `processId` (`actType` given: a new act of that type;
 *   `documentId` of an act: its countersignature, or with `decision=reject` its rejection).
 * The server signs as `signingPartyRoleCode` with the user's signer. `actualStatus` and `actualVersion` (the note's
 * status and transaction number the user saw) refuse a step on a note that moved meanwhile (7 and 31).
 */
export const SignAndSendFormSchema = z.object({
  aliasQualifier: EttnAliasQualifierSchema.optional(),
  aliasValue: EdrpouSchema.optional(),
  registeredFileId: uuidField.optional(),
  fileUrl: optionalText(2000),
  signingPartyRoleCode: EttnPartyRoleSchema,
  processId: uuidField.optional(),
  documentId: uuidField.optional(),
  documentDetId: uuidField.optional(),
  documentDetDocumentId: uuidField.optional(),
  actualVersion: z.coerce.number({ error: 'integer' }).int('integer').min(0, 'tooSmall').optional(),
  actualStatus: EttnStatusSchema.optional(),
  documentUrl: optionalText(2000),
  /** Portal extensions for the screens: start an act of this type; sign or reject (a step or an act). */
  actType: EttnActTypeSchema.optional(),
  decision: z.enum(['sign', 'reject'], { error: 'oneOf' }).default('sign'),
  reason: optionalText(500),
});
export type SignAndSendForm = z.infer<typeof SignAndSendFormSchema>;

export const SignAndSendResponseSchema = z.object({
  processId: z.uuid(),
  documentId: z.uuid(),
  documentDetId: z.uuid(),
  /** The note's status after the step. */
  status: EttnStatusSchema,
  /** The act's status when the step was an act's. */
  documentStatus: EttnStatusSchema.nullable(),
  processDocumentStatus: z.enum(['OK', 'PENDING']),
});
export type SignAndSendResponse = z.infer<typeof SignAndSendResponseSchema>;

/** The 25 supporting-document types (EDIN dictionary DICT.01.10; see @portal/ettn's lifecycle for their sources). */
export const ETTN_SUPPORTING_DOCUMENT_TYPES = [
  'Order',
  'Purchase_order',
  'Weight_certificate',
  'Transport_loading_report',
  'Cargo_declaration',
  'Certificate',
  'Contract',
  'Insurance_certificate',
  'Commercial_invoice',
  'Tax_invoice',
  'Veterinary_certificate',
  'Certificate_of_origin',
  'Sanitary_certificate',
  'Certificate_of_quality',
  'Phytosanitary_certificate',
  'Packing_list',
  'Specification',
  'Customs_declaration',
  'Dangerous_goods_declaration',
  'Power_of_attorney',
  'Delivery_note',
  'Acceptance_certificate',
  'Laboratory_report',
  'Permit',
  'Other',
] as const;
export const EttnSupportingDocumentTypeSchema = z.enum(ETTN_SUPPORTING_DOCUMENT_TYPES, { error: 'oneOf' });
export const ETTN_SUPPORTING_DOCUMENT_STATUSES = ['DRAFT', 'SIGNATURE_PENDING', 'SIGNED', 'CANCELED'] as const;
/** The largest supporting document (a PDF). */
export const ETTN_SUPPORTING_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

export const EttnSupportingDocumentSchema = z.object({
  id: z.uuid(),
  type: EttnSupportingDocumentTypeSchema,
  status: z.enum(ETTN_SUPPORTING_DOCUMENT_STATUSES),
  fileName: z.string(),
  size: z.number().int(),
  /** The party role that attached it, and the roles that signed it. */
  attachedBy: z.string(),
  signedBy: z.array(z.string()),
  createdAt: z.string(),
});
export type EttnSupportingDocument = z.infer<typeof EttnSupportingDocumentSchema>;

export const EttnAliasRefSchema = z.object({ qualifier: EttnAliasQualifierSchema, value: EdrpouSchema });

/** `POST /api/ettns/documentView` (and, without viewType and act, `documentPdf`). */
export const DocumentViewRequestSchema = z.object({
  alias: EttnAliasRefSchema.optional(),
  ettnDocumentId: z.object({
    /** The note's process id, or for a pending file its `registerEttn` id. */
    procId: uuidField,
    docId: uuidField.optional(),
    docDetId: uuidField.optional(),
    isCurrent: z.boolean().default(true),
  }),
  language: z.enum(LANGUAGES, { error: 'oneOf' }).optional(),
  isPending: z.boolean().default(false),
  viewType: z.enum(['VIEW'], { error: 'oneOf' }).default('VIEW'),
  /** View the act `ettnDocumentId.docId` rather than the note. */
  act: z.boolean().default(false),
});
export type DocumentViewRequest = z.infer<typeof DocumentViewRequestSchema>;
export const DocumentPdfRequestSchema = DocumentViewRequestSchema.omit({ viewType: true, act: true });
export type DocumentPdfRequest = z.infer<typeof DocumentPdfRequestSchema>;

const PartySchema = z.object({
  role: z.string(),
  name: z.string().nullable(),
  edrpou: z.string().nullable(),
  address: z.string().nullable(),
  person: z.string().nullable(),
});
const LocationSchema = z.object({ name: z.string().nullable(), description: z.string().nullable() });

export const EttnListItemSchema = z.object({
  /** The process id of a registered note; the upload's id in the pending list. */
  id: z.uuid(),
  number: z.string().nullable(),
  issueDate: z.string().nullable(),
  status: EttnStatusSchema,
  consignor: PartySchema.nullable(),
  consignee: PartySchema.nullable(),
  carrier: PartySchema.nullable(),
  /** The vehicles' registration numbers, truck first. */
  vehicle: z.string().nullable(),
  route: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  /** The note's next step (pickup_sign, arrival_sign, …) and the party roles that must act; null when finished. */
  currentStep: z.string().nullable(),
  mustAct: z.array(z.string()),
  /** The party roles the caller's company has in the note. */
  myRoles: z.array(z.string()),
  updatedAt: z.string(),
});
export type EttnListItem = z.infer<typeof EttnListItemSchema>;
export const EttnPageSchema = pageSchema(EttnListItemSchema);

export const EttnListQuerySchema = ListQuerySchema.extend({
  status: EttnStatusSchema.optional(),
  /** Part of the number or of a party's name or EDRPOU. */
  search: optionalText(200),
  /** The caller's company's role in the note. */
  role: EttnPartyRoleSchema.optional(),
  dateFrom: z.iso.date({ error: 'date' }).optional(),
  dateTo: z.iso.date({ error: 'date' }).optional(),
});
export type EttnListQuery = z.infer<typeof EttnListQuerySchema>;

export const EttnEventSchema = z.object({
  id: z.string(),
  entityType: z.enum(['ettn', 'act']),
  entityId: z.uuid(),
  ettnId: z.uuid(),
  entityStatus: EttnStatusSchema,
  timestamp: z.string(),
  documentId: z.uuid(),
  actorIdentifier: z.string(),
});
export type EttnEvent = z.infer<typeof EttnEventSchema>;
export const EttnEventPageSchema = pageSchema(EttnEventSchema);
export const EttnEventsQuerySchema = ListQuerySchema.extend({ processId: uuidField.optional() });

export const EttnViewSchema = z.object({
  processId: z.uuid(),
  documentId: z.uuid().nullable(),
  isPending: z.boolean(),
  kind: z.enum(['ettn', 'act']),
  actType: z.string().nullable(),
  number: z.string().nullable(),
  issueDateTime: z.string().nullable(),
  status: EttnStatusSchema,
  processDocumentStatus: z.enum(['OK', 'PENDING']),
  version: z.number().int(),
  currentStep: z.string().nullable(),
  mustAct: z.array(z.string()),
  myRoles: z.array(z.string()),
  parties: z.array(PartySchema),
  route: z.object({ loading: LocationSchema.nullable(), unloading: LocationSchema.nullable() }),
  items: z.array(
    z.object({
      sequence: z.string().nullable(),
      name: z.string().nullable(),
      uktzed: z.string().nullable(),
      grossWeight: z.string().nullable(),
      weightUnit: z.string().nullable(),
      packageQuantity: z.string().nullable(),
      packageType: z.string().nullable(),
      amount: z.string().nullable(),
      currency: z.string().nullable(),
    }),
  ),
  vehicles: z.array(
    z.object({
      id: z.string().nullable(),
      category: z.string().nullable(),
      seals: z.array(z.string()),
      brand: z.string().nullable(),
      model: z.string().nullable(),
    }),
  ),
  signatures: z.array(
    z.object({
      roleCode: z.string(),
      signerName: z.string().nullable(),
      signedAt: z.string().nullable(),
      transactionNo: z.number().int(),
      verified: z.boolean(),
      signerKind: z.string(),
    }),
  ),
  acts: z.array(
    z.object({
      documentId: z.uuid(),
      type: z.string(),
      status: EttnStatusSchema,
      route: z.array(z.string()),
      signedBy: z.array(z.string()),
      nextSigner: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  transactions: z.array(
    z.object({
      documentDetId: z.uuid(),
      documentId: z.uuid(),
      kind: z.enum(['ettn', 'act']),
      transactionNo: z.number().int(),
      signingRole: z.string(),
      status: z.enum(['OK', 'PENDING']),
      createdAt: z.string(),
      /** What `downloadSignedEttn` takes. */
      fileUrl: z.string(),
    }),
  ),
  history: z.array(EttnEventSchema.omit({ id: true })),
  /** The note's supporting documents (PDF), newest first; empty for a pending upload and for an act. */
  supportingDocuments: z.array(EttnSupportingDocumentSchema),
});
export type EttnView = z.infer<typeof EttnViewSchema>;

// --- portal extensions for the screens: composing a note by form, supporting documents ----------------------------

/** A party a note names, as the create form asks for it (the registry knows parties by EDRPOU). */
export const EttnComposePartySchema = z.object({
  edrpou: EdrpouSchema,
  name: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(255, 'tooLong'),
  /** One line: postcode, city, street. */
  address: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(500, 'tooLong'),
});
export type EttnComposeParty = z.infer<typeof EttnComposePartySchema>;

const requiredText = (max: number) =>
  text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(max, 'tooLong');

/** The driver's RNOKPP (v3 table 3.6, mandatory): ten digits with the check digit. */
const RnokppSchema = text({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(10, { error: 'rnokpp', abort: true })
  .regex(/^\d{10}$/, { error: 'rnokpp', abort: true })
  .refine(isValidRnokpp, 'rnokpp');

/** The driver's licence (v3 table 3.6, mandatory): series of three capital letters (Cyrillic or Latin), six digits. */
const DriverLicenceSchema = text({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(9, { error: 'licence', abort: true })
  .toUpperCase()
  .regex(/^[A-ZА-ЯІЇЄҐ]{3}\d{6}$/u, 'licence');

/** A place's КАТОТТГ code (v3 table 3.11/3.12, mandatory): UA and 17 digits, e.g. UA80000000000093317 (Kyiv). */
const KatottgSchema = text({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(19, { error: 'katottg', abort: true })
  .toUpperCase()
  .regex(/^UA\d{17}$/, 'katottg');

/** A place's GLN (v3 table 3.11/3.12 SystemID): 13 digits with the GS1 check digit. */
const PlaceGlnSchema = text({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(13, { error: 'gln', abort: true })
  .regex(/^\d{13}$/, { error: 'gln', abort: true })
  .refine(isValidGln, 'gln');

const decimalField = (max: number) =>
  text({ error: 'required' })
    .trim()
    .min(1, { error: 'required', abort: true })
    .max(max, 'tooLong')
    .regex(/^\d{1,12}(\.\d{1,3})?$/, 'decimal');

/** The most cargo lines a composed note may carry. */
export const ETTN_COMPOSE_MAX_ITEMS = 200;

export const EttnComposeItemSchema = z.object({
  name: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(255, 'tooLong'),
  /** УКТ ЗЕД code, 4 to 10 digits, when known. */
  uktzed: text()
    .trim()
    .max(10, { error: 'uktzed', abort: true })
    .regex(/^(\d{4,10})?$/, 'uktzed')
    .optional(),
  quantity: decimalField(16),
  /** The package type code, e.g. PK (package), PX (pallet), CT (carton). */
  packageType: text().trim().max(3, 'tooLong').optional(),
  grossWeightKg: decimalField(16),
  /** Value in UAH, when known. */
  amount: decimalField(16).optional(),
});
export type EttnComposeItem = z.infer<typeof EttnComposeItemSchema>;

/**
 * `POST /api/ettns/compose` (JSON): a new note written by the server from the create form, with the company as
 * consignor (its registered alias); it becomes a pending upload (the answer is `registerEttn`'s) to sign and send.
 */
export const EttnComposeFormSchema = z.object({
  number: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(50, 'tooLong'),
  /** The issue date, YYYY-MM-DD. */
  issueDate: text({ error: 'required' })
    .trim()
    .max(10, { error: 'date', abort: true })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date'),
  consignee: EttnComposePartySchema,
  carrier: EttnComposePartySchema,
  driverName: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(255, 'tooLong'),
  /** The driver's RNOKPP (tax number), the carrier's SpecifiedTaxRegistration. */
  driverRnokpp: RnokppSchema,
  /** The driver's licence, series and number (e.g. ВХМ123456). */
  driverLicence: DriverLicenceSchema,
  /** The vehicle's registration plate. */
  vehicle: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(20, 'tooLong'),
  /** The truck's brand and model (the table's BRAND and MODEL notes, both mandatory). */
  vehicleBrand: requiredText(100),
  vehicleModel: requiredText(100),
  loadingAddress: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(500, 'tooLong'),
  loadingKatottg: KatottgSchema,
  /** The loading place's GLN; absent: the company's own GLN (the consignor loads at its premises). */
  loadingGln: PlaceGlnSchema.optional(),
  unloadingAddress: text({ error: 'required' }).trim().min(1, { error: 'required', abort: true }).max(500, 'tooLong'),
  unloadingKatottg: KatottgSchema,
  /** The unloading place's GLN (mandatory in the table; the portal knows no default for another's place). */
  unloadingGln: PlaceGlnSchema,
  items: z.array(EttnComposeItemSchema).min(1, 'required').max(ETTN_COMPOSE_MAX_ITEMS, 'tooMany'),
  /** The despatch advice (documents) the form was filled from, kept as the note's reference. */
  despatchAdviceId: uuidField.optional(),
});
export type EttnComposeForm = z.infer<typeof EttnComposeFormSchema>;

/**
 * `GET /api/ettns/compose/fromDespatchAdvice/:documentId`: the create form filled from a despatch advice. A party's
 * fields are each optional too: a despatch advice names the consignee, but seldom by its EDRPOU.
 */
export const EttnComposeDraftSchema = EttnComposeFormSchema.partial().extend({
  consignee: EttnComposePartySchema.partial().optional(),
  carrier: EttnComposePartySchema.partial().optional(),
  items: z.array(EttnComposeItemSchema.partial()),
});
export type EttnComposeDraft = z.infer<typeof EttnComposeDraftSchema>;

/**
 * `POST /api/ettns/supportingDocuments` (multipart: `file` a PDF ≤ ETTN_SUPPORTING_DOCUMENT_MAX_BYTES, and these
 * fields): attaches it to note `processId` as `signingPartyRoleCode`, signed at once (status SIGNED); the other
 * parties may countersign it (`/sign`), the one that attached it may withdraw it (`/cancel`).
 */
export const EttnSupportingDocumentFormSchema = z.object({
  processId: uuidField,
  type: EttnSupportingDocumentTypeSchema,
  signingPartyRoleCode: EttnPartyRoleSchema,
});
export type EttnSupportingDocumentForm = z.infer<typeof EttnSupportingDocumentFormSchema>;

/** `POST /api/ettns/supportingDocuments/:id/sign` and `/cancel`. */
export const EttnSupportingDocumentActionSchema = z.object({ signingPartyRoleCode: EttnPartyRoleSchema });
