/**
 * The document as a PDF (decision 0026), rendered on the CPU pool's threads with PDFKit. The service prepares a
 * print model of translated strings (documents-print.ts); this file only lays it out: an A4 page with the title, the
 * details, parties, dates and references, the lines table (its header repeated on each page) and the totals, page
 * numbers at the foot.
 *
 * Fonts: Noto Sans from the @fontsource packages (their WOFF subsets: Latin, Latin Extended for Polish and Hungarian,
 * Cyrillic for Ukrainian, Arabic, Thai), embedded as subsets. PDFKit draws one font at a time, so each text is cut
 * into runs by the first font that has each character. PDFKit (fontkit) shapes a run: Arabic letters join and a right
 * to left run is reversed, Thai marks are placed by the font's GPOS. What is not done is the full Unicode
 * bidirectional algorithm: in an Arabic document the runs of a line are laid right to left and the page is mirrored,
 * which is right for Arabic text with embedded numbers and Latin names, but a line mixing directions in nested ways
 * may show its parts in a different order than a browser would.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

export type PdfPair = [label: string, value: string];

/** Everything the PDF shows, already translated and formatted. */
export type PdfModel = {
  rtl: boolean;
  title: string;
  /** Under the title: status, mode. */
  subtitle: string;
  /** Document metadata (the PDF's own Title and Subject). */
  subject: string;
  sections: (
    | { kind: 'pairs'; title: string; pairs: PdfPair[] }
    | { kind: 'parties'; title: string; parties: { role: string; lines: string[] }[] }
    | {
        kind: 'table';
        title: string;
        empty: string;
        headers: string[];
        /** Relative widths of the columns. */
        widths: number[];
        /** Columns aligned to the end (numbers). */
        endAligned: boolean[];
        rows: string[][];
      }
  )[];
  /** `Page {{page}} of {{pages}}`, filled per page. */
  pageOf: string;
  /**
   * An invoice in KSeF (issue 13): KOD I, its verification link, drawn as a QR code with the KSeF number under it
   * (KSeF's visualisation), the link beside it; `url` null shows the number alone.
   */
  ksef?: { title: string; ksefNumber: string; url: string | null };
};

const FONT_FILES = {
  latin: ['@fontsource/noto-sans/files/noto-sans-latin', true],
  latinExt: ['@fontsource/noto-sans/files/noto-sans-latin-ext', true],
  cyrillic: ['@fontsource/noto-sans/files/noto-sans-cyrillic', true],
  arabic: ['@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic', true],
  thai: ['@fontsource/noto-sans-thai/files/noto-sans-thai-thai', true],
} as const;
type FontName = keyof typeof FONT_FILES;
const ORDER: FontName[] = ['latin', 'latinExt', 'cyrillic', 'arabic', 'thai'];

type LoadedFont = { name: FontName; regular: Buffer; bold: Buffer; covers: (cp: number) => boolean };
let loaded: LoadedFont[] | undefined;

/** The fonts, read once per thread. */
function fonts(): LoadedFont[] {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded = ORDER.map((name) => {
      const [base] = FONT_FILES[name];
      const regular = readFileSync(require.resolve(`${base}-400-normal.woff`));
      const bold = readFileSync(require.resolve(`${base}-700-normal.woff`));
      const face = fontkit.create(regular) as fontkit.Font;
      return { name, regular, bold, covers: (cp: number) => face.hasGlyphForCodePoint(cp) };
    });
  }
  return loaded;
}

/** A piece of text in one font; `rtl` when it is right-to-left script (Arabic letters, not digits). */
type Run = { font: string; text: string; rtl: boolean };

/** Characters that take the font of the run they stand in (spaces, punctuation, symbols). */
const NEUTRAL = /[\s\p{P}\p{S}]/u;
const DIGIT = /\p{N}/u;

/**
 * Cuts a text into runs of one font each: the first font that has the character, neutral ones staying in the run
 * they follow. Digits never join an Arabic run: a run is shaped as a whole and an Arabic one is reversed, while
 * numbers read left to right in Arabic text too.
 */
function runsOf(text: string, bold: boolean): Run[] {
  const all = fonts();
  const runs: Run[] = [];
  let key = '';
  let font: LoadedFont | undefined;
  let buffer = '';
  const flush = () => {
    if (buffer && font) {
      runs.push({ font: `${font.name}${bold ? '-bold' : ''}`, text: buffer, rtl: key === 'arabic' });
    }
    buffer = '';
  };
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (font?.covers(cp) && NEUTRAL.test(char)) {
      buffer += char;
      continue;
    }
    const next = all.find((f) => f.covers(cp)) ?? all[0]!;
    const nextKey = `${next.name}${DIGIT.test(char) ? ':n' : ''}`;
    if (nextKey !== key) {
      flush();
      font = next;
      key = nextKey;
    }
    buffer += char;
  }
  flush();
  return runs;
}

/**
 * The runs of a right-to-left line in the order they are drawn from the left: the line's runs reversed, except that
 * a sequence of left-to-right runs (a number, a Latin name, `PV-1009`) keeps its own order. A simplified form of the
 * Unicode bidirectional algorithm for one level of embedding.
 */
function visualOrder(runs: readonly Run[]): Run[] {
  const groups: Run[][] = [];
  for (const run of runs) {
    const last = groups.at(-1);
    if (last && !run.rtl && !last[0]!.rtl) last.push(run);
    else groups.push([run]);
  }
  return groups.reverse().flat();
}

/**
 * Renders the model to PDF bytes. Plain data in, bytes out: it runs on a worker thread (the `documents.pdf` task).
 */
export async function renderDocumentPdf(model: PdfModel): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    bufferPages: true,
    info: { Title: model.title, Subject: model.subject, Creator: 'Open EDI Portal' },
    lang: model.rtl ? 'ar' : undefined,
  } as PDFKit.PDFDocumentOptions);
  for (const f of fonts()) {
    doc.registerFont(f.name, f.regular);
    doc.registerFont(`${f.name}-bold`, f.bold);
  }
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  const bottom = doc.page.height - doc.page.margins.bottom - 16;
  let y = doc.page.margins.top;

  /** A box's x in the page: mirrored for a right-to-left document. */
  const xOf = (x: number, w: number) => (model.rtl ? left + (right - (x + w)) : x);

  const widthOf = (runs: Run[], size: number) =>
    runs.reduce((sum, run) => sum + doc.font(run.font).fontSize(size).widthOfString(run.text), 0);

  /** Greedy word wrap into lines of runs that fit `w`; a word longer than a line is cut by characters. */
  const wrap = (text: string, w: number, size: number, bold: boolean): Run[][] => {
    const lines: Run[][] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      const push = (value: string) => lines.push(runsOf(value, bold));
      for (const word of paragraph.split(/(?<=\s)/u)) {
        const candidate = line + word;
        if (!line || widthOf(runsOf(candidate.trimEnd(), bold), size) <= w) {
          line = candidate;
          if (widthOf(runsOf(line.trimEnd(), bold), size) > w) {
            // One word wider than the line: cut it.
            let part = '';
            for (const char of line) {
              if (part && widthOf(runsOf(part + char, bold), size) > w) {
                push(part);
                part = '';
              }
              part += char;
            }
            line = part;
          }
          continue;
        }
        push(line.trimEnd());
        line = word;
      }
      push(line.trimEnd());
    }
    return lines;
  };

  /** Draws one line of runs in the box [x, x + w) at y, aligned to its start or end (in reading direction). */
  const drawLine = (runs: Run[], x: number, w: number, top: number, size: number, align: 'start' | 'end') => {
    const ordered = model.rtl ? visualOrder(runs) : runs;
    const total = widthOf(ordered, size);
    const box = xOf(x, w);
    const toRight = (align === 'end') !== model.rtl;
    let cx = toRight ? box + w - total : box;
    for (const run of ordered) {
      doc.font(run.font).fontSize(size);
      const runWidth = doc.widthOfString(run.text);
      doc.text(run.text, cx, top, { lineBreak: false });
      cx += runWidth;
    }
  };

  const lineHeight = (size: number) => size * 1.35;

  /** A wrapped text block; returns its height. */
  const block = (
    text: string,
    x: number,
    w: number,
    top: number,
    size: number,
    opts: { bold?: boolean; align?: 'start' | 'end'; draw?: boolean } = {},
  ): number => {
    const lines = wrap(text, w, size, opts.bold ?? false);
    if (opts.draw !== false) {
      lines.forEach((line, i) => drawLine(line, x, w, top + i * lineHeight(size), size, opts.align ?? 'start'));
    }
    return lines.length * lineHeight(size);
  };

  const newPage = () => {
    doc.addPage();
    y = doc.page.margins.top;
  };
  const ensure = (height: number) => {
    if (y + height > bottom) newPage();
  };
  const heading = (text: string) => {
    ensure(40);
    y += 8;
    y += block(text, left, width, y, 12, { bold: true });
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor('#999999').stroke();
    y += 4;
  };

  doc.fillColor('#111111');
  y += block(model.title, left, width, y, 18, { bold: true });
  y += block(model.subtitle, left, width, y, 10);

  for (const section of model.sections) {
    if (section.kind === 'pairs') {
      if (section.pairs.length === 0) continue;
      heading(section.title);
      const labelWidth = width * 0.35;
      for (const [label, value] of section.pairs) {
        const height = Math.max(
          block(label, left, labelWidth - 8, y, 9, { draw: false }),
          block(value, left + labelWidth, width - labelWidth, y, 9, { draw: false }),
        );
        ensure(height);
        doc.fillColor('#555555');
        block(label, left, labelWidth - 8, y, 9);
        doc.fillColor('#111111');
        block(value, left + labelWidth, width - labelWidth, y, 9);
        y += height + 2;
      }
    } else if (section.kind === 'parties') {
      if (section.parties.length === 0) continue;
      heading(section.title);
      const columns = 2;
      const gap = 12;
      const w = (width - gap * (columns - 1)) / columns;
      for (let i = 0; i < section.parties.length; i += columns) {
        const row = section.parties.slice(i, i + columns);
        const measure = (p: (typeof row)[number]) =>
          block(p.role, left, w, y, 8, { bold: true, draw: false }) +
          p.lines.reduce((h, l) => h + block(l, left, w, y, 9, { draw: false }), 0);
        const height = Math.max(...row.map(measure));
        ensure(height);
        row.forEach((p, j) => {
          const x = left + j * (w + gap);
          let py = y;
          doc.fillColor('#555555');
          py += block(p.role, x, w, py, 8, { bold: true });
          doc.fillColor('#111111');
          for (const l of p.lines) py += block(l, x, w, py, 9);
        });
        y += height + 8;
      }
    } else {
      heading(section.title);
      if (section.rows.length === 0) {
        y += block(section.empty, left, width, y, 9);
        continue;
      }
      const sum = section.widths.reduce((a, b) => a + b, 0);
      const widths = section.widths.map((w) => (w / sum) * width);
      const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
      const pad = 3;
      const row = (cells: string[], bold: boolean, draw: boolean, top: number) =>
        Math.max(
          ...cells.map((cell, i) =>
            block(cell, xs[i]! + pad, widths[i]! - 2 * pad, top, 8, {
              bold,
              draw,
              align: section.endAligned[i] ? 'end' : 'start',
            }),
          ),
        );
      const header = () => {
        const height = row(section.headers, true, false, y);
        doc.fillColor('#555555');
        row(section.headers, true, true, y);
        doc.fillColor('#111111');
        y += height + 2;
        doc.moveTo(left, y).lineTo(right, y).lineWidth(0.3).strokeColor('#bbbbbb').stroke();
        y += 2;
      };
      ensure(40);
      header();
      for (const cells of section.rows) {
        const height = row(cells, false, false, y);
        if (y + height > bottom) {
          newPage();
          header();
        }
        row(cells, false, true, y);
        y += height + 2;
      }
    }
  }

  if (model.ksef) {
    // KOD I: the QR code of the verification link with the KSeF number centred under it (KSeF's visualisation), at
    // the start of the line; the link itself beside them.
    const { title, ksefNumber, url } = model.ksef;
    const side = 100;
    const quiet = 8;
    const numberHeight = lineHeight(8) + 4;
    doc.font('latin-bold').fontSize(8);
    const box = Math.max(side, doc.widthOfString(ksefNumber));
    // The heading, the code and the number on one page.
    ensure(40 + (url ? side + 2 * quiet : 0) + numberHeight);
    heading(title);
    if (url) {
      const top = y + quiet;
      const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
      const cells = qr.modules.size;
      const cell = side / cells;
      const x0 = xOf(left + (box - side) / 2, side);
      for (let row = 0; row < cells; row++) {
        for (let column = 0; column < cells; column++) {
          if (qr.modules.get(row, column)) doc.rect(x0 + column * cell, top + row * cell, cell, cell);
        }
      }
      doc.fill('#000000');
      doc.fillColor('#111111');
      block(url, left + box + 16, width - box - 16, top, 8);
      y = top + side + quiet / 2;
    }
    doc.fillColor('#111111');
    // Latin digits and hyphens: no direction to mind.
    doc.font('latin-bold').fontSize(8);
    doc.text(ksefNumber, xOf(left, box), y, { width: box, align: url ? 'center' : 'left', lineBreak: false });
    y += numberHeight;
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const text = model.pageOf.replace('{{page}}', String(i + 1)).replace('{{pages}}', String(range.count));
    doc.fillColor('#777777');
    // Below the bottom margin: PDFKit would otherwise start a new page for it.
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    block(text, left, width, doc.page.height - saved + 8, 8, { align: 'end' });
    doc.page.margins.bottom = saved;
  }
  doc.end();
  await done;
  const bytes = Buffer.concat(chunks);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
