/**
 * Every task the CPU pool runs, by name: one explicit list, as app.ts lists the features. Runs on a worker thread:
 * tasks receive plain data and return plain data (structured clone), and report a user's mistake as a value, not by
 * throwing, so the error keeps its code across the thread boundary.
 */
import {
  contrlTask,
  importZipTask,
  validateTask,
  type ContrlTask,
  type ImportZipTask,
  type ValidateTask,
} from '../features/edifact/edifact.tasks.ts';
import { parseCsvTask, type ParseCsvTask } from '../features/address-book/address-book.tasks.ts';
import { envelopeTask, ingestTask, type EnvelopeTask, type IngestTask } from '../features/documents/documents.tasks.ts';
import { xlsxTask, type XlsxTask } from '../features/documents/document-actions.tasks.ts';
import {
  describeTask,
  encodeTask,
  pdfTask,
  type DescribeTask,
  type EncodeTask,
  type PdfTask,
} from '../features/documents/document-view.tasks.ts';

const TASKS = {
  'edifact.validate': validateTask,
  'edifact.contrl': contrlTask,
  'edifact.importZip': importZipTask,
  'addressBook.parseCsv': parseCsvTask,
  'documents.envelope': envelopeTask,
  'documents.ingest': ingestTask,
  'documents.xlsx': xlsxTask,
  'documents.describe': describeTask,
  'documents.encode': encodeTask,
  'documents.pdf': pdfTask,
};

export type CpuTaskName = keyof typeof TASKS;
export type CpuTask =
  | ({ name: 'edifact.validate' } & ValidateTask)
  | ({ name: 'edifact.contrl' } & ContrlTask)
  | ({ name: 'edifact.importZip' } & ImportZipTask)
  | ({ name: 'addressBook.parseCsv' } & ParseCsvTask)
  | ({ name: 'documents.envelope' } & EnvelopeTask)
  | ({ name: 'documents.ingest' } & IngestTask)
  | ({ name: 'documents.xlsx' } & XlsxTask)
  | ({ name: 'documents.describe' } & DescribeTask)
  | ({ name: 'documents.encode' } & EncodeTask)
  | ({ name: 'documents.pdf' } & PdfTask);
export type CpuTaskResult<N extends CpuTaskName> = Awaited<ReturnType<(typeof TASKS)[N]>>;

export async function runCpuTask(task: CpuTask): Promise<unknown> {
  const { name, ...input } = task;
  const run = TASKS[name] as (input: unknown) => Promise<unknown>;
  return run(input);
}
