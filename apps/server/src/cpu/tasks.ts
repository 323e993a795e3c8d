/**
 * Every task the CPU pool runs, by name: one explicit list, as app.ts lists the features. Runs on a worker thread:
 * tasks receive plain data and return plain data (structured clone), and report a user's mistake as a value, not by
 * throwing, so the error keeps its code across the thread boundary.
 */
import type { ContrlTask, ImportZipTask, ValidateTask } from '../features/edifact/edifact.tasks.ts';
import type { ParseCsvTask } from '../features/address-book/address-book.tasks.ts';
import type { ParseProductsCsvTask } from '../features/products/products.tasks.ts';
import type { ContrlAnswerTask, EnvelopeTask, IngestTask } from '../features/documents/documents.tasks.ts';
import type { XlsxTask } from '../features/documents/document-actions.tasks.ts';
import type { DescribeTask, EncodeTask, PdfTask } from '../features/documents/document-view.tasks.ts';
import type { CheckDraftTask } from '../features/drafts/drafts.tasks.ts';
import type { EttnTask } from '../features/ettn/ettn.tasks.ts';
import type { BuildInvoiceTask, ReadCertificateTask, ReadExportTask } from '../features/ksef/ksef.tasks.ts';
import type { CheckInvoiceTask } from '../features/ksef-simulator/ksef-simulator.tasks.ts';

// Each task's module is loaded by the thread when it first runs one: a thread that only ingests never holds the
// PDF fonts or the spreadsheet writer (decision 0030).
const edifact = () => import('../features/edifact/edifact.tasks.ts');
const documents = () => import('../features/documents/documents.tasks.ts');
const view = () => import('../features/documents/document-view.tasks.ts');
const TASKS = {
  'edifact.validate': async () => (await edifact()).validateTask,
  'edifact.contrl': async () => (await edifact()).contrlTask,
  'edifact.importZip': async () => (await edifact()).importZipTask,
  'addressBook.parseCsv': async () => (await import('../features/address-book/address-book.tasks.ts')).parseCsvTask,
  'products.parseCsv': async () => (await import('../features/products/products.tasks.ts')).parseCsvTask,
  'documents.envelope': async () => (await documents()).envelopeTask,
  'documents.ingest': async () => (await documents()).ingestTask,
  'documents.contrl': async () => (await documents()).contrlAnswerTask,
  'documents.xlsx': async () => (await import('../features/documents/document-actions.tasks.ts')).xlsxTask,
  'documents.describe': async () => (await view()).describeTask,
  'documents.encode': async () => (await view()).encodeTask,
  'documents.pdf': async () => (await view()).pdfTask,
  'drafts.check': async () => (await import('../features/drafts/drafts.tasks.ts')).checkDraftTask,
  'ksef.readCertificate': async () => (await import('../features/ksef/ksef.tasks.ts')).readCertificateTask,
  'ksef.buildInvoice': async () => (await import('../features/ksef/ksef.tasks.ts')).buildInvoiceTask,
  'ksef.readExport': async () => (await import('../features/ksef/ksef.tasks.ts')).readExportTask,
  'ettn.run': async () => (await import('../features/ettn/ettn.tasks.ts')).ettnTask,
  'ksefSimulator.checkInvoice': async () =>
    (await import('../features/ksef-simulator/ksef-simulator.tasks.ts')).checkInvoiceTask,
  /** Nothing: sent by the pool to start a thread for tasks left waiting when one was ended (pool.ts). */
  'pool.wake': async () => async () => null,
};

export type CpuTaskName = keyof typeof TASKS;
export type CpuTask =
  | ({ name: 'edifact.validate' } & ValidateTask)
  | ({ name: 'edifact.contrl' } & ContrlTask)
  | ({ name: 'edifact.importZip' } & ImportZipTask)
  | ({ name: 'addressBook.parseCsv' } & ParseCsvTask)
  | ({ name: 'products.parseCsv' } & ParseProductsCsvTask)
  | ({ name: 'documents.envelope' } & EnvelopeTask)
  | ({ name: 'documents.ingest' } & IngestTask)
  | ({ name: 'documents.contrl' } & ContrlAnswerTask)
  | ({ name: 'documents.xlsx' } & XlsxTask)
  | ({ name: 'documents.describe' } & DescribeTask)
  | ({ name: 'documents.encode' } & EncodeTask)
  | ({ name: 'documents.pdf' } & PdfTask)
  | ({ name: 'drafts.check' } & CheckDraftTask)
  | ({ name: 'ksef.readCertificate' } & ReadCertificateTask)
  | ({ name: 'ksef.buildInvoice' } & BuildInvoiceTask)
  | ({ name: 'ksef.readExport' } & ReadExportTask)
  | ({ name: 'ksefSimulator.checkInvoice' } & CheckInvoiceTask)
  | ({ name: 'ettn.run' } & EttnTask)
  | { name: 'pool.wake' };
export type CpuTaskResult<N extends CpuTaskName> = Awaited<ReturnType<Awaited<ReturnType<(typeof TASKS)[N]>>>>;

/** The function of a task, its module loaded on the thread's first task of the kind. */
export async function loadCpuTask(name: CpuTaskName): Promise<(input: unknown) => Promise<unknown>> {
  return (await TASKS[name]()) as (input: unknown) => Promise<unknown>;
}
