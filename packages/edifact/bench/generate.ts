/** Generated EDIFACT input for the bench: ORDERS and INVOIC, D96A, EANCOM-style segments. */

const CHUNK = 1024 * 1024;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * One realistic EANCOM-style D96A message (ORDERS or INVOIC) with 3 to 24 lines. `varied`: 1 to 120 lines and some
 * optional segments left out, so that there are thousands of message shapes (segment sequences) instead of 44.
 */
export const message = (n: number, varied = false): string => {
  const ref = `M${pad(n, 9)}`;
  const lines = varied ? 1 + ((n * 7919) % 120) : 3 + (n % 22);
  const optional = (bit: number): boolean => !varied || ((n >> bit) & 1) === 1;
  const s: string[] = [];
  if (n % 2 === 0) {
    s.push(`UNH+${ref}+ORDERS:D:96A:UN:EAN008`, `BGM+220+PO${n}+9`, 'DTM+137:20240115:102');
    if (optional(1)) s.push('DTM+2:20240120:102');
    if (optional(2)) s.push('FTX+ZZZ+++DELIVER TO DOCK 4 BEFORE NOON');
    s.push(`RFF+CT:CONTRACT${n % 1000}`);
    s.push('NAD+BY+5412345000013::9++BUYER COMPANY LTD+MAIN STREET 1+BRUSSELS++1000+BE', 'RFF+VA:BE0123456789');
    s.push('NAD+SU+4012345500004::9', 'NAD+DP+5412345678908::9', 'CUX+2:EUR:9');
    for (let i = 1; i <= lines; i++) {
      s.push(`LIN+${i}++40123456${pad(i, 5)}:EN`, `PIA+1+ART${i}:SA`, `IMD+F++:::PRODUCT DESCRIPTION ${i}`);
      s.push(`QTY+21:${i * 3}:PCE`, `MOA+203:${(i * 37.5).toFixed(2)}`, 'PRI+AAA:12.50');
    }
    s.push('UNS+S', `CNT+2:${lines}`);
  } else {
    s.push(`UNH+${ref}+INVOIC:D:96A:UN:EAN008`, `BGM+380+INV${n}+9`, 'DTM+137:20240115:102', 'DTM+35:20240114:102');
    s.push(`RFF+ON:PO${n - 1}`);
    if (optional(1)) s.push('DTM+171:20240110:102');
    s.push('NAD+BY+5412345000013::9', 'RFF+VA:BE0123456789', 'NAD+SU+4012345500004::9', 'RFF+VA:DE123456789');
    s.push('CUX+2:EUR:4');
    if (optional(2)) s.push('PAT+1++5:3:D:30');
    for (let i = 1; i <= lines; i++) {
      s.push(`LIN+${i}++40123456${pad(i, 5)}:EN`, `QTY+47:${i * 2}`, `MOA+203:${(i * 25).toFixed(2)}`);
      s.push('PRI+AAA:12.50', 'TAX+7+VAT+++:::21+S', `MOA+124:${(i * 5.25).toFixed(2)}`);
    }
    s.push('UNS+S', `CNT+2:${lines}`, 'MOA+86:1210.00', 'MOA+79:1000.00', 'TAX+7+VAT+++:::21+S', 'MOA+124:210.00');
  }
  s.push(`UNT+${s.length + 1}+${ref}`);
  return s.join("'") + "'";
};

const header = "UNA:+.? 'UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC0001'";

/**
 * Text chunks of about `chunk` characters (1 MB by default) making one interchange of about `size` bytes (`varied`:
 * see `message`).
 */
export function* interchangeChunks(size: number, chunk = CHUNK, varied = false): Generator<string> {
  let out = header;
  let written = 0;
  let n = 0;
  while (written + out.length < size) {
    out += message(++n, varied);
    if (out.length >= chunk) {
      written += out.length;
      yield out;
      out = '';
    }
  }
  yield out + `UNZ+${n}+IC0001'`;
}
