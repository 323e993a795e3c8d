import { FEATURE_PERMISSIONS, type FeaturePermission, type FeatureToggle } from '@portal/contracts';
import type { Db } from '../db/client.ts';
import { systemClock } from '../lib/clock.ts';
import { createAuditService } from '../features/audit/audit.service.ts';
import { hashPassword, insertLegacyAccount } from '../features/auth/auth.service.ts';
import { createCompaniesService } from '../features/companies/companies.service.ts';
import { createGroupsService } from '../features/groups/groups.service.ts';
import { seedDemoEttn } from '../features/ettn/ettn.seed.ts';
import { seedDemoPartners } from '../features/partners/partners.seed.ts';
import { createProductsService } from '../features/products/products.service.ts';
import { createUsersService } from '../features/users/users.service.ts';

/** The demo accounts; tests and people rely on them exactly (README lists them). */
export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.example.com', password: 'Admin#Demo2026', what: 'platform admin (admin area)' },
  { email: 'user@demo.example.com', password: 'User#Demo2026', what: 'Demo Supplier, all permissions' },
  { email: 'clerk@demo.example.com', password: 'Clerk#Demo2026', what: 'Demo Supplier, inbox read only' },
  { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026', what: 'Demo Retailer, all permissions' },
  { email: 'demo@demo.example.com', password: 'Demo#Demo2026', what: 'role demo' },
  { email: 'ksef@demo.example.com', password: 'Ksef#Demo2026', what: 'role demo-ksef, KSeF toggles' },
  { email: 'carrier@demo.example.com', password: 'Carrier#Demo2026', what: 'Demo Transport, e-TTN carrier and driver' },
] as const;
export const DEMO_LEGACY = { login: 'DEMO01', password: 'Legacy#2026' } as const;

/** The demo companies' own GLNs (issue 10). */
export const DEMO_GLNS = {
  supplier: '5901234000017',
  retailer: '4012345000016',
  ksef: '5901234000024',
  sandbox: '5901234000031',
} as const;

/** Demo Retailer's delivery points. */
export const DEMO_DELIVERY_POINTS = [
  {
    gln: '4012345000023',
    name: 'Store Berlin',
    street: 'Friedrichstraße 100',
    postalCode: '10117',
    city: 'Berlin',
    country: 'DE',
    code: 'S-BER',
  },
  {
    gln: '4012345000030',
    name: 'Store Hamburg',
    street: 'Mönckebergstraße 7',
    postalCode: '20095',
    city: 'Hamburg',
    country: 'DE',
    code: 'S-HAM',
  },
  {
    gln: '4012345000047',
    name: 'Central warehouse',
    street: 'Logistikring 1',
    postalCode: '14979',
    city: 'Großbeeren',
    country: 'DE',
    code: 'WH-01',
  },
] as const;

const ALL: FeaturePermission[] = [...FEATURE_PERMISSIONS];

/**
 * Seeds the demo companies, users, groups and the legacy account once; returns false when already there. `partners`
 * (the demo start, not the tests) makes Demo Retailer and Demo Supplier each other's trading partner.
 */
export async function seedDemoData(db: Db, options: { partners?: boolean } = {}): Promise<boolean> {
  // The seed writes through the owners' services, as every other feature does (decision 0013).
  const users = createUsersService({ db });
  const groups = createGroupsService({
    db,
    users,
    audit: createAuditService({ db, clock: systemClock }),
    clock: systemClock,
  });
  const companies = createCompaniesService({ db, groups });
  if (await users.findByEmail('admin@demo.example.com')) return false;
  const now = new Date();
  const pw = async (email: string) => hashPassword(DEMO_ACCOUNTS.find((a) => a.email === email)!.password);

  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    /** A company with its first group (every permission), as createCompany() starts every company. */
    const company = async (
      name: string,
      firstGroup: string,
      extra: { vatId?: string; taxId?: string; country?: string; toggles?: FeatureToggle[] } = {},
    ) => {
      const created = await companies.createCompany(
        {
          name,
          vatId: extra.vatId ?? null,
          taxId: extra.taxId ?? null,
          country: extra.country ?? null,
          toggles: extra.toggles ?? [],
        },
        { administrators: { name: firstGroup, permissions: ALL }, tx },
      );
      return { id: created.company.id, groupId: created.administratorsGroupId };
    };
    const user = async (
      email: string,
      firstName: string,
      lastName: string,
      companyId: string | null,
      roles: string[],
      groupIds: string[],
    ) => {
      const row = await users.insert(
        {
          email,
          firstName,
          lastName,
          companyId,
          roles,
          passwordHash: await pw(email),
          emailVerifiedAt: now,
          passwordChangedAt: now,
        },
        tx,
      );
      await groups.addMember(row.id, groupIds, tx);
      return row.id;
    };

    // The help assistant (issue 15): Demo Supplier and Demo Retailer have it; user@ and buyer@ may use it, clerk@ not.
    // e-TTN (issue 14): Demo Supplier (consignor), Demo Retailer (consignee) and Demo Transport (carrier) have it.
    const { id: supplier, groupId: supplierAll } = await company('Demo Supplier', 'Administrators', {
      vatId: 'PL5260001246',
      country: 'PL',
      toggles: ['CHAT_AI', 'ETTN'],
    });
    const { id: retailer, groupId: retailerAll } = await company('Demo Retailer', 'Administrators', {
      vatId: 'DE811907980',
      country: 'DE',
      toggles: ['CHAT_AI', 'ETTN'],
    });
    const { id: transport, groupId: transportAll } = await company('Demo Transport', 'Administrators', {
      taxId: '32855961',
      country: 'UA',
      toggles: ['ETTN'],
    });
    const { id: demoCo, groupId: demoAll } = await company('Demo Sandbox', 'Demo', { country: 'PL' });
    const { id: ksefCo, groupId: ksefAll } = await company('Demo KSeF', 'Demo', {
      vatId: 'PL7010002139',
      country: 'PL',
      toggles: ['KSEF', 'DEMO_KSEF'],
    });
    const supplierInbox = await groups.insert(
      supplier,
      { name: 'Inbox readers', permissions: ['INBOX_READ'] },
      undefined,
      tx,
    );

    // GLNs and delivery points (issue 10): exact, tests and people rely on them.
    const location = (
      companyId: string,
      gln: string,
      name: string,
      kind: 'company' | 'delivery_point' = 'company',
      address: { street: string; postalCode: string; city: string; country: string; code: string } | null = null,
    ) =>
      companies.locations.create(
        { companyId },
        { gln, kind, name, street: null, postalCode: null, city: null, country: null, code: null, ...address },
        now,
        tx,
      );
    await location(supplier, DEMO_GLNS.supplier, 'Demo Supplier');
    await location(retailer, DEMO_GLNS.retailer, 'Demo Retailer');
    for (const point of DEMO_DELIVERY_POINTS) {
      const { gln, name, ...address } = point;
      await location(retailer, gln, name, 'delivery_point', address);
    }
    await location(ksefCo, DEMO_GLNS.ksef, 'Demo KSeF');
    // Its address, which an FA(3) invoice must carry (issue 13): its invoices go to KSeF from the first login.
    await companies.update(
      ksefCo,
      { profile: { street: 'ul. Prosta 51', postalCode: '00-838', city: 'Warszawa' } },
      tx,
    );
    await location(demoCo, DEMO_GLNS.sandbox, 'Demo Sandbox');

    await user('admin@demo.example.com', 'Ada', 'Admin', null, ['admin'], []);
    // e-TTN party roles (issue 14): Demo Supplier's users consign (CZ), Demo Retailer's receive (CN), Demo Transport's
    // carry and drive (CA, DR). clerk@ holds the roles but not the permission ETTN (no group grants it to him).
    await user('user@demo.example.com', 'Uma', 'User', supplier, ['chat-ai', 'ettn', 'ETTN_CZ'], [supplierAll]);
    await user('clerk@demo.example.com', 'Carl', 'Clerk', supplier, ['ettn', 'ETTN_CZ'], [supplierInbox]);
    await user('buyer@demo.example.com', 'Bea', 'Buyer', retailer, ['chat-ai', 'ettn', 'ETTN_CN'], [retailerAll]);
    await user(
      'carrier@demo.example.com',
      'Taras',
      'Carrier',
      transport,
      ['ettn', 'ETTN_CA', 'ETTN_DR'],
      [transportAll],
    );
    await seedDemoEttn(db, { supplier, retailer, transport }, now, tx);
    await user('demo@demo.example.com', 'Dana', 'Demo', demoCo, ['demo'], [demoAll]);
    await user('ksef@demo.example.com', 'Kasia', 'Ksef', ksefCo, ['demo-ksef'], [ksefAll]);

    // A few products of Demo Supplier's catalogue (issue 12), to fill its outgoing documents from.
    const products = createProductsService({ db, clock: systemClock });
    const catalogue: [
      gtin: string | null,
      article: string,
      description: string,
      unit: string,
      price: string,
      vat: string,
    ][] = [
      ['5901234123464', 'DS-1001', 'Mineral water 0.5 l, still', 'PCE', '1.29', '8'],
      ['5901234123471', 'DS-1002', 'Orange juice 1 l', 'PCE', '4.99', '5'],
      ['10012345678902', 'DS-2001', 'Mineral water 0.5 l, case of 24', 'CT', '27.90', '8'],
      ['5901234123488', 'DS-3001', 'Wheat flour type 650', 'KGM', '2.35', '5'],
      [null, 'DS-9001', 'Delivery service', 'PCE', '50.00', '23'],
    ];
    await products.addMany(
      supplier,
      catalogue.map(([gtin, supplierArticleNumber, description, unit, price, vatRate]) => ({
        gtin,
        supplierArticleNumber,
        buyerArticleNumber: null,
        description,
        unit,
        price,
        currency: 'PLN',
        vatRate,
      })),
      tx,
    );

    if (options.partners) {
      await seedDemoPartners(
        db,
        [
          {
            companyId: retailer,
            gln: DEMO_GLNS.supplier,
            name: 'Demo Supplier',
            linkedCompanyId: supplier,
            docTypesIn: ['ORDRSP', 'DESADV', 'INVOIC', 'APERAK'],
            docTypesOut: ['ORDERS', 'RECADV', 'APERAK'],
          },
          {
            companyId: supplier,
            gln: DEMO_GLNS.retailer,
            name: 'Demo Retailer',
            linkedCompanyId: retailer,
            docTypesIn: ['ORDERS', 'RECADV', 'APERAK'],
            docTypesOut: ['ORDRSP', 'DESADV', 'INVOIC', 'APERAK'],
          },
          // The demo-ksef variant (issue 13): Demo KSeF invoices Demo Supplier, and each invoice also goes to KSeF.
          {
            companyId: ksefCo,
            gln: DEMO_GLNS.supplier,
            name: 'Demo Supplier',
            linkedCompanyId: supplier,
            docTypesIn: ['ORDERS', 'APERAK'],
            docTypesOut: ['INVOIC', 'APERAK'],
          },
          {
            companyId: supplier,
            gln: DEMO_GLNS.ksef,
            name: 'Demo KSeF',
            linkedCompanyId: ksefCo,
            docTypesIn: ['INVOIC', 'APERAK'],
            docTypesOut: ['ORDERS', 'APERAK'],
          },
        ],
        tx,
      );
    }

    await insertLegacyAccount(
      {
        login: DEMO_LEGACY.login,
        passwordHash: await hashPassword(DEMO_LEGACY.password),
        companyId: supplier,
        groupId: supplierAll,
      },
      tx,
    );
  });
  return true;
}
