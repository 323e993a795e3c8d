/**
 * The document view's work on the CPU pool's threads (src/cpu): naming a document's codes from its directory (each
 * thread reads a directory once per generation of the cache), converting an original to the user's file encoding,
 * and rendering the PDF. Plain data in and out.
 */
import type { DocumentCodes } from '@portal/contracts';
import { storeFor, type StoreRef } from '../edifact/edifact.tasks.ts';
import { describeCodes, type WantedCodes } from './document-codes.ts';
import { encodeOriginal, type EncodeResult } from './document-encoding.ts';
import type { FileEncoding } from '@portal/contracts';
import { renderDocumentPdf, type PdfModel } from './document-pdf.ts';

export type DescribeTask = StoreRef & { directory: string; messageType: string; wanted: WantedCodes };

/** The names of the wanted codes and the message's segments; `directory: null` when it is not imported. */
export async function describeTask(task: DescribeTask): Promise<DocumentCodes> {
  const directory = /^D\d\d[A-Z]$/.test(task.directory) ? await storeFor(task).load(task.directory) : undefined;
  if (!directory) return { directory: null, codeNames: {}, segments: {} };
  return describeCodes(directory, task.messageType, task.wanted);
}

export type EncodeTask = { bytes: Uint8Array; syntax: string; encoding: FileEncoding };

export function encodeTask(task: EncodeTask): Promise<EncodeResult> {
  return Promise.resolve(encodeOriginal(task.bytes, task.syntax, task.encoding));
}

export type PdfTask = { model: PdfModel };

export function pdfTask(task: PdfTask): Promise<Uint8Array> {
  return renderDocumentPdf(task.model);
}
