import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

/**
 * A price catalogue received on the platform fills the receiver's product catalogue (issue 12, part 1): Demo Supplier
 * sends a PRICAT from its outbox, Demo Retailer finds the articles among its products, by GTIN, with their prices.
 */
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

let t: TestApp;
let supplier: string;
let buyer: string;

function pricat(control: string, number: string, lines: string[]): string {
  const body = [
    `BGM+9+${number}+9'`,
    "DTM+137:20261110:102'",
    `NAD+BY+${RETAILER}::9'`,
    `NAD+SU+${SUPPLIER}::9'`,
    "CUX+2:PLN:8'",
    "PGI+1'",
    ...lines,
  ];
  return [
    "UNA:+.? '",
    `UNB+UNOC:3+${SUPPLIER}:14+${RETAILER}:14+261110:1200+${control}'`,
    "UNH+1+PRICAT:D:96A:UN:EAN008'",
    ...body,
    `UNT+${body.length + 2}+1'`,
    `UNZ+1+${control}'`,
  ].join('');
}

async function send(content: string) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/edifact' }), 'pricat.edi');
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload?direction=out',
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(supplier) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files[0] as { documents: { status: string }[]; findings: unknown[] };
}

const productOf = async (token: string, gtin: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/products?search=${gtin}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { gtin: string; description: string; price: string | null; currency: string }[]).find(
    (p) => p.gtin === gtin,
  );
};

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
  supplier = (await login(t.app)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
});
afterAll(() => t.close());

describe('a received price catalogue', () => {
  it('adds its articles to the receiver’s products, then updates their prices from the next one', async () => {
    const first = await send(
      pricat('PC0001', 'CAT-1', [
        "LIN+1+1+5901234123457:EN'",
        "IMD+F++:::Sparkling water 1.5 l'",
        "QTY+59:6'",
        "PRI+AAA:12.5'",
      ]),
    );
    expect(first.documents[0]!.status).toBe('sent');
    expect(await productOf(buyer, '5901234123457')).toMatchObject({
      description: 'Sparkling water 1.5 l',
      currency: 'PLN',
    });
    expect(Number((await productOf(buyer, '5901234123457'))!.price)).toBe(12.5);
    // The sender's own catalogue is not touched by what it sends.
    expect(await productOf(supplier, '5901234123457')).toBeUndefined();

    await send(
      pricat('PC0002', 'CAT-2', ["LIN+1+1+5901234123457:EN'", "IMD+F++:::Sparkling water 1.5 l'", "PRI+AAA:13.75'"]),
    );
    expect(Number((await productOf(buyer, '5901234123457'))!.price)).toBe(13.75);
  });

  it('with errors, is stored and fills nothing', async () => {
    const broken = await send(
      pricat('PC0003', 'CAT-3', ["LIN+1+1+5901234123464:EN'", "IMD+F++:::Still water'", "PRI+AAA:1,,0'"]),
    );
    expect(broken.documents[0]!.status).toBe('error');
    expect(await productOf(buyer, '5901234123464')).toBeUndefined();
  });
});
