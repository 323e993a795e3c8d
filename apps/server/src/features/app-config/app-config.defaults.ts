import type { Language, PaymentReminderContent } from '@portal/contracts';

const PHONE = '+48 22 100 20 30';
const MAIL = 'payments@portal.example.com';

/**
 * The payment reminder in every language of the portal: what `GET /AppConfig` answers for a language admins have
 * not edited, and what `seedAppConfig` stores.
 */
export const DEFAULT_PAYMENT_REMINDERS: Record<Language, PaymentReminderContent> = {
  en: {
    header: 'Payment reminder',
    body: 'Our records show that an invoice for your use of the portal is overdue. Please settle the outstanding amount as soon as possible to avoid restrictions on your account.',
    contact: {
      text: 'If you have already paid, please ignore this message. For questions about your invoices, contact our billing team:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Thank you for your prompt attention to this matter.',
    close: 'Close',
  },
  pl: {
    header: 'Przypomnienie o płatności',
    body: 'Według naszych danych faktura za korzystanie z portalu nie została opłacona w terminie. Prosimy o jak najszybsze uregulowanie zaległej kwoty, aby uniknąć ograniczeń dostępu do konta.',
    contact: {
      text: 'Jeśli płatność została już dokonana, prosimy zignorować tę wiadomość. W sprawie faktur prosimy o kontakt z naszym działem rozliczeń:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Dziękujemy za szybkie zajęcie się tą sprawą.',
    close: 'Zamknij',
  },
  de: {
    header: 'Zahlungserinnerung',
    body: 'Laut unseren Unterlagen ist eine Rechnung für Ihre Nutzung des Portals überfällig. Bitte begleichen Sie den offenen Betrag so bald wie möglich, um Einschränkungen Ihres Kontos zu vermeiden.',
    contact: {
      text: 'Falls Sie bereits bezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos. Bei Fragen zu Ihren Rechnungen wenden Sie sich an unsere Buchhaltung:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Vielen Dank für Ihre rasche Erledigung.',
    close: 'Schließen',
  },
  es: {
    header: 'Recordatorio de pago',
    body: 'Según nuestros registros, una factura por el uso del portal está vencida. Le rogamos que abone el importe pendiente lo antes posible para evitar restricciones en su cuenta.',
    contact: {
      text: 'Si ya ha realizado el pago, ignore este mensaje. Para cualquier consulta sobre sus facturas, póngase en contacto con nuestro departamento de facturación:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Gracias por su pronta atención.',
    close: 'Cerrar',
  },
  fr: {
    header: 'Rappel de paiement',
    body: 'Selon nos informations, une facture relative à votre utilisation du portail est échue. Merci de régler le montant dû dans les meilleurs délais afin d’éviter toute restriction de votre compte.',
    contact: {
      text: 'Si vous avez déjà effectué le paiement, veuillez ne pas tenir compte de ce message. Pour toute question sur vos factures, contactez notre service de facturation :',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Nous vous remercions de votre diligence.',
    close: 'Fermer',
  },
  hu: {
    header: 'Fizetési emlékeztető',
    body: 'Nyilvántartásunk szerint a portál használatáról kiállított egyik számlája lejárt. Kérjük, a fiókja korlátozásának elkerülése érdekében mielőbb rendezze a fennálló összeget.',
    contact: {
      text: 'Ha már fizetett, kérjük, tekintse tárgytalannak ezt az üzenetet. Számláival kapcsolatos kérdéseivel forduljon számlázási csapatunkhoz:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Köszönjük, hogy mielőbb intézkedik.',
    close: 'Bezárás',
  },
  it: {
    header: 'Promemoria di pagamento',
    body: 'Dai nostri archivi risulta scaduta una fattura relativa all’utilizzo del portale. Vi preghiamo di saldare l’importo dovuto il prima possibile per evitare limitazioni al vostro account.',
    contact: {
      text: 'Se avete già effettuato il pagamento, ignorate questo messaggio. Per domande sulle vostre fatture, contattate il nostro ufficio amministrazione:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Grazie per la cortese e sollecita attenzione.',
    close: 'Chiudi',
  },
  ms: {
    header: 'Peringatan pembayaran',
    body: 'Menurut rekod kami, invois bagi penggunaan portal oleh syarikat anda telah tertunggak. Sila jelaskan baki tertunggak secepat mungkin untuk mengelakkan sekatan pada akaun anda.',
    contact: {
      text: 'Jika anda telah membuat pembayaran, sila abaikan mesej ini. Untuk sebarang pertanyaan mengenai invois anda, hubungi pasukan bil kami:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Terima kasih atas perhatian segera anda.',
    close: 'Tutup',
  },
  th: {
    header: 'แจ้งเตือนการชำระเงิน',
    body: 'จากบันทึกของเรา ใบแจ้งหนี้ค่าใช้บริการพอร์ทัลของคุณเลยกำหนดชำระแล้ว โปรดชำระยอดค้างโดยเร็วที่สุดเพื่อหลีกเลี่ยงการจำกัดการใช้งานบัญชีของคุณ',
    contact: {
      text: 'หากคุณชำระเงินแล้ว โปรดละเว้นข้อความนี้ หากมีคำถามเกี่ยวกับใบแจ้งหนี้ โปรดติดต่อฝ่ายเรียกเก็บเงินของเรา:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'ขอขอบคุณที่ดำเนินการโดยเร็ว',
    close: 'ปิด',
  },
  uk: {
    header: 'Нагадування про оплату',
    body: 'За нашими даними, рахунок за користування порталом прострочено. Будь ласка, якнайшвидше сплатіть заборгованість, щоб уникнути обмежень доступу до вашого облікового запису.',
    contact: {
      text: 'Якщо ви вже здійснили оплату, просимо не зважати на це повідомлення. З питань щодо рахунків звертайтеся до нашого відділу розрахунків:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'Дякуємо за оперативне вирішення цього питання.',
    close: 'Закрити',
  },
  ar: {
    header: 'تذكير بالدفع',
    body: 'تشير سجلاتنا إلى أن إحدى فواتير استخدامكم للبوابة قد تجاوزت موعد استحقاقها. يرجى تسديد المبلغ المستحق في أقرب وقت ممكن لتجنب تقييد حسابكم.',
    contact: {
      text: 'إذا كنتم قد سددتم المبلغ بالفعل، فيرجى تجاهل هذه الرسالة. للاستفسار عن فواتيركم، تواصلوا مع فريق الفوترة لدينا:',
      phone: PHONE,
      mail: MAIL,
    },
    footer: 'شكرًا لاهتمامكم العاجل بهذا الأمر.',
    close: 'إغلاق',
  },
};
