/**
 * The EDIFACT work the CPU pool runs on its threads (src/cpu): validation, the CONTRL report and directory zip
 * imports. Each thread opens the process's directory cache (a folder in the engine's store layout, kept in step with
 * the BlobStore by directory-cache.ts) and the EANCOM guides once, and keeps them until the cache's generation
 * changes.
 */
import {
  buildContrlStream,
  createMapLevel,
  createSpecificationLevel,
  IncompleteDirectoryError,
  importDirectoryZip,
  loadGuides,
  openDirectoryStore,
  validate,
  validateStream,
  ZipLimitError,
  type DirectoryStore,
  type ValidationLevelPlugin,
  type ValidationResult,
} from '@portal/edifact/node';
import {
  EDIFACT_MAX_FINDINGS_RETURNED,
  type EdifactDirectoryInfo,
  type ValidateEdifactResponse,
} from '@portal/contracts';
import { importToBundle } from './directory-bundle.ts';

/** Which directory store a thread reads, and its generation (a new one makes the thread reload it). */
export type StoreRef = { storePath: string; generation: number };
export type ValidateTask = StoreRef & { content: string; strict: boolean };
export type ContrlTask = ValidateTask;
export type ImportZipTask = { bytes: Uint8Array; source: string };
export type ImportZipResult =
  | { ok: true; info: EdifactDirectoryInfo; bundle: Uint8Array }
  | { ok: false; code: 'zipTooLarge' | 'directoryIncomplete' | 'directoryUnreadable'; message: string };

let opened: { key: string; store: DirectoryStore; levels: Promise<ValidationLevelPlugin[]> } | undefined;

function openedFor({ storePath, generation }: StoreRef): NonNullable<typeof opened> {
  const key = `${generation}:${storePath}`;
  if (opened?.key !== key) {
    const store = openDirectoryStore(storePath);
    opened = {
      key,
      store,
      levels: loadGuides().then((guides) => [
        createSpecificationLevel({ directories: store }),
        createMapLevel({ guides, directories: store }),
      ]),
    };
  }
  return opened;
}

/** The validation levels past syntax (directory and EANCOM guides) of a store, opened once per thread. */
export const levelsFor = (ref: StoreRef): Promise<ValidationLevelPlugin[]> => openedFor(ref).levels;

/** The directory store of a thread (each directory read once per generation), for tasks that name codes. */
export const storeFor = (ref: StoreRef): DirectoryStore => openedFor(ref).store;

const run = async (task: ValidateTask): Promise<ValidationResult> =>
  validate(task.content, { strict: task.strict, levels: await levelsFor(task) });

/** What the Document validation screen shows: the findings (at most EDIFACT_MAX_FINDINGS_RETURNED) and counts. */
export async function validateTask(task: ValidateTask): Promise<ValidateEdifactResponse> {
  const result = await run(task);
  let errors = 0;
  let warnings = 0;
  let mapErrors = 0;
  for (const f of result.findings) {
    if (f.severity === 'error') {
      errors++;
      if (f.level === 'map') mapErrors++;
    } else if (f.severity === 'warning') warnings++;
  }
  // Findings past the engine's caps are counted, not listed; they still count here.
  const omitted = result.omitted ?? { errors: 0, warnings: 0, infos: 0 };
  errors += omitted.errors;
  warnings += omitted.warnings;
  // Syntax errors are reported with the specification notification: the screen names two kinds of failure.
  const errorLevel = errors === 0 ? null : errors > mapErrors ? 'specification' : 'map';
  const findings = result.findings.slice(0, EDIFACT_MAX_FINDINGS_RETURNED).map((f) => ({ ...f }));
  return {
    ok: result.ok,
    messages: result.messages,
    findings,
    summary: {
      errors,
      warnings,
      errorLevel,
      truncated: result.findings.length > findings.length || omitted.errors + omitted.warnings > 0,
    },
  };
}

/**
 * The CONTRL a partner's system would send back for this input: read as a stream, so that memory holds the report
 * and one message, not every segment of the input.
 */
export async function contrlTask(task: ContrlTask): Promise<string> {
  const events = validateStream([task.content], { strict: task.strict, levels: await levelsFor(task) });
  return buildContrlStream(events, { lineBreak: '\n' });
}

/**
 * Reads a UNECE zip into the engine's stored form and packs it as the bundle the BlobStore keeps (the service writes
 * it); an archive over its limits or not a whole directory gives no bundle.
 */
export async function importZipTask(task: ImportZipTask): Promise<ImportZipResult> {
  try {
    const { info, bundle } = await importToBundle((store) => importDirectoryZip(task.bytes, store, task.source));
    return { ok: true, info, bundle };
  } catch (error) {
    const message = error instanceof Error ? error.message : 'unreadable directory';
    if (error instanceof ZipLimitError) return { ok: false, code: 'zipTooLarge', message };
    if (error instanceof IncompleteDirectoryError) return { ok: false, code: 'directoryIncomplete', message };
    return { ok: false, code: 'directoryUnreadable', message };
  }
}
