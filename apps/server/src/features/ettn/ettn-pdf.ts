/**
 * The e-TTN's paper copy (the PDF a driver shows at a roadside check): number, status, parties, route, cargo,
 * vehicles, signatures and a QR code of the note's id, on one A4 page or more. Labels are Ukrainian and English (the
 * document is Ukrainian; the portal's other languages read the English). Runs on the CPU pool (`ettn.run`, kind pdf).
 *
 * Fonts: Noto Sans (Latin and Cyrillic subsets of @fontsource), each text cut into runs of the font that has its
 * characters. The QR code is drawn as vector squares from the `qrcode` package's module matrix.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

export type EttnPdfModel = {
  processId: string;
  number: string;
  status: string;
  issueDateTime: string;
  /** [label, value] lines of each section, already formatted. */
  sections: { title: string; lines: [string, string][] }[];
  /** Under the QR code. */
  registryNote: string;
};

type Face = { name: string; regular: Buffer; bold: Buffer; covers: (cp: number) => boolean };
let faces: Face[] | undefined;

const loadFaces = (): Face[] => {
  if (!faces) {
    const require = createRequire(import.meta.url);
    faces = ['latin', 'latin-ext', 'cyrillic'].map((subset) => {
      const base = `@fontsource/noto-sans/files/noto-sans-${subset}`;
      const regular = readFileSync(require.resolve(`${base}-400-normal.woff`));
      const bold = readFileSync(require.resolve(`${base}-700-normal.woff`));
      const face = fontkit.create(regular) as fontkit.Font;
      return { name: subset, regular, bold, covers: (cp: number) => face.hasGlyphForCodePoint(cp) };
    });
  }
  return faces;
};

/** Runs of one font each: the first face that has the character; spaces and punctuation stay in their run. */
const runsOf = (text: string): { face: string; text: string }[] => {
  const all = loadFaces();
  const runs: { face: string; text: string }[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const last = runs.at(-1);
    const current = last ? all.find((f) => f.name === last.face) : undefined;
    if (last && current?.covers(cp)) {
      last.text += char;
      continue;
    }
    runs.push({ face: (all.find((f) => f.covers(cp)) ?? all[0]!).name, text: char });
  }
  return runs;
};

export async function renderEttnPdf(model: EttnPdfModel): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `e-TTN ${model.number}` } });
  for (const f of loadFaces()) {
    doc.registerFont(f.name, f.regular);
    doc.registerFont(`${f.name}-bold`, f.bold);
  }
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));

  const write = (text: string, size: number, bold = false, options: PDFKit.Mixins.TextOptions = {}) => {
    const runs = runsOf(text || ' ');
    runs.forEach((run, i) => {
      doc
        .font(bold ? `${run.face}-bold` : run.face)
        .fontSize(size)
        .text(run.text, { ...options, continued: i < runs.length - 1 });
    });
  };

  // The QR code of the note's id, top right.
  const qr = QRCode.create(model.processId, { errorCorrectionLevel: 'M' });
  const cells = qr.modules.size;
  const side = 110;
  const cell = side / cells;
  const left = doc.page.width - doc.page.margins.right - side;
  const top = doc.page.margins.top;
  for (let y = 0; y < cells; y++) {
    for (let x = 0; x < cells; x++) {
      if (qr.modules.get(y, x)) doc.rect(left + x * cell, top + y * cell, cell, cell);
    }
  }
  doc.fill('#000000');
  doc.fontSize(6);
  write(model.processId, 6, false, { width: side, align: 'center' });
  doc.x = doc.page.margins.left;
  doc.y = top;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right - side - 16;
  write('Електронна товарно-транспортна накладна / e-TTN', 16, true, { width });
  write(`№ ${model.number}`, 13, true, { width });
  write(`Статус / Status: ${model.status}`, 10, false, { width });
  write(`Дата / Date: ${model.issueDateTime}`, 10, false, { width });
  write(model.registryNote, 8, false, { width });
  doc.y = Math.max(doc.y, top + side + 20);

  for (const section of model.sections) {
    doc.x = doc.page.margins.left;
    doc.moveDown(0.6);
    write(section.title, 11, true);
    for (const [label, value] of section.lines) write(`${label}: ${value}`, 9);
  }
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}
