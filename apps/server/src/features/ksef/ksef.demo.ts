/**
 * The demo-ksef variant's incoming side (issue 13): at the demo's first start, Demo Supplier issues Demo KSeF an
 * invoice in the portal's KSeF simulator, as Demo Supplier's own ERP would (the simulator, like KSeF's TEST
 * environment, takes a self-made TEST certificate of the seller's NIP). Demo KSeF's `ksef.receive` job then brings it
 * to its inbox, so the demo shows an invoice another company issued arriving from KSeF.
 */
import { DraftLineSchema, emptyDraftForm } from '@portal/contracts';
import { formToCanonical } from '@portal/documents';
import { buildFa3, canonicalToKsefInvoice } from '@portal/ksef';

type DemoParty = { nip: string; gln: string; name: string; street: string; postalCode: string; city: string };

/** The seed's Demo Supplier and Demo KSeF (seed/demo.ts: their VAT ids, GLNs and Demo KSeF's address). */
const SELLER: DemoParty = {
  nip: '5260001246',
  gln: '5901234000017',
  name: 'Demo Supplier',
  street: 'ul. Krzywa 2',
  postalCode: '00-002',
  city: 'Warszawa',
};
const BUYER: DemoParty = {
  nip: '7010002139',
  gln: '5901234000024',
  name: 'Demo KSeF',
  street: 'ul. Prosta 51',
  postalCode: '00-838',
  city: 'Warszawa',
};

/** Demo Supplier's invoice to Demo KSeF as FA(3), issued `now` (its number carries the date), and its seller. */
export function demoPurchaseInvoice(now: Date): { seller: { nip: string; name: string }; number: string; xml: string } {
  const number = `FV/${now.toISOString().slice(0, 10).replaceAll('-', '/')}/KSEF-DEMO`;
  return {
    seller: { nip: SELLER.nip, name: SELLER.name },
    number,
    xml: purchaseInvoiceXml(SELLER, BUYER, number, now),
  };
}

function purchaseInvoiceXml(seller: DemoParty, buyer: DemoParty, number: string, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  const form = emptyDraftForm();
  form.number = number;
  form.documentDate = day;
  const party = (p: DemoParty) => ({
    gln: p.gln,
    name: p.name,
    street: p.street,
    city: p.city,
    postalCode: p.postalCode,
    country: 'PL',
    vatId: `PL${p.nip}`,
  });
  form.supplier = { ...form.supplier, ...party(seller) };
  form.buyer = { ...form.buyer, ...party(buyer) };
  form.lines = [
    DraftLineSchema.parse({
      description: 'Woda mineralna 0,5 l',
      quantity: '24',
      unit: 'PCE',
      price: '1.29',
      vatRate: '8',
    }),
    DraftLineSchema.parse({
      description: 'Kawa ziarnista 1 kg',
      quantity: '2',
      unit: 'PCE',
      price: '59.90',
      vatRate: '23',
    }),
  ];
  return buildFa3(
    canonicalToKsefInvoice(formToCanonical('invoice', form, 'lines'), {
      createdAt: now.toISOString(),
      systemInfo: 'Demo Supplier ERP',
    }),
  );
}
