import type addressBook from '@portal/i18n/locales/en/address-book.json';
import type admin from '@portal/i18n/locales/en/admin.json';
import type auth from '@portal/i18n/locales/en/auth.json';
import type chat from '@portal/i18n/locales/en/chat.json';
import type common from '@portal/i18n/locales/en/common.json';
import type documents from '@portal/i18n/locales/en/documents.json';
import type drafts from '@portal/i18n/locales/en/drafts.json';
import type edifact from '@portal/i18n/locales/en/edifact.json';
import type errors from '@portal/i18n/locales/en/errors.json';
import type ettn from '@portal/i18n/locales/en/ettn.json';
import type help from '@portal/i18n/locales/en/help.json';
import type ksef from '@portal/i18n/locales/en/ksef.json';
import type layout from '@portal/i18n/locales/en/layout.json';
import type partners from '@portal/i18n/locales/en/partners.json';
import type products from '@portal/i18n/locales/en/products.json';
import type profile from '@portal/i18n/locales/en/profile.json';
import type userManagement from '@portal/i18n/locales/en/user-management.json';
import type validation from '@portal/i18n/locales/en/validation.json';

// Keys typed from the English catalogs (every other language has exactly its keys: `npm run i18n:check`), so a
// `t('a.missing.key')` fails the typecheck.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      'address-book': typeof addressBook;
      admin: typeof admin;
      auth: typeof auth;
      chat: typeof chat;
      common: typeof common;
      documents: typeof documents;
      drafts: typeof drafts;
      edifact: typeof edifact;
      errors: typeof errors;
      ettn: typeof ettn;
      help: typeof help;
      ksef: typeof ksef;
      layout: typeof layout;
      partners: typeof partners;
      products: typeof products;
      profile: typeof profile;
      'user-management': typeof userManagement;
      validation: typeof validation;
    };
  }
}
