import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import {
  buildContrl,
  createMapLevel,
  createSpecificationLevel,
  downloadDirectory,
  importDirectory,
  importDirectoryZip,
  isZip,
  loadGuides,
  openDirectoryStore,
  validate,
  type DirectoryStore,
  type ValidationLevelPlugin,
  type ValidationResult,
} from '@portal/edifact/node';
import {
  EDIFACT_MAX_FINDINGS_RETURNED,
  type EdifactDirectoryInfo,
  type ValidateEdifactResponse,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';

export type EdifactService = Awaited<ReturnType<typeof createEdifactService>>;

/**
 * Validation of pasted EDIFACT against the imported UN/EDIFACT directories (specification) and the EANCOM guides
 * (map), plus the directory store the admin area manages.
 */
export async function createEdifactService(deps: {
  storePath: string;
  log: FastifyBaseLogger;
  downloadBaseUrl?: string | undefined;
}) {
  const store: DirectoryStore = openDirectoryStore(deps.storePath);
  const guides = await loadGuides();
  const levels: ValidationLevelPlugin[] = [
    createSpecificationLevel({ directories: store }),
    createMapLevel({ guides, directories: store }),
  ];

  const run = (content: string, strict: boolean): Promise<ValidationResult> => validate(content, { strict, levels });

  return {
    async validate(content: string, strict = false): Promise<ValidateEdifactResponse> {
      const result = await run(content, strict);
      let errors = 0;
      let warnings = 0;
      let mapErrors = 0;
      for (const f of result.findings) {
        if (f.severity === 'error') {
          errors++;
          if (f.level === 'map') mapErrors++;
        } else if (f.severity === 'warning') warnings++;
      }
      // Syntax errors are reported with the specification notification: the screen names two kinds of failure.
      const errorLevel = errors === 0 ? null : errors > mapErrors ? 'specification' : 'map';
      const findings = result.findings.slice(0, EDIFACT_MAX_FINDINGS_RETURNED).map((f) => ({ ...f }));
      return {
        ok: result.ok,
        messages: result.messages,
        findings,
        summary: { errors, warnings, errorLevel, truncated: result.findings.length > findings.length },
      };
    },

    /** The CONTRL a partner's system would send back for this input. */
    async contrl(content: string, strict = false): Promise<string> {
      return buildContrl(await run(content, strict), { lineBreak: '\n' });
    },

    async listDirectories(): Promise<EdifactDirectoryInfo[]> {
      return store.list();
    },

    async importZip(bytes: Uint8Array, source: string): Promise<EdifactDirectoryInfo> {
      if (!isZip(bytes))
        throw new AppError('validation.failed', 400, { details: [{ field: 'file', code: 'zipRequired' }] });
      try {
        return await importDirectoryZip(bytes, store, source);
      } catch (error) {
        deps.log.warn({ err: error }, 'directory import failed');
        throw new AppError('validation.failed', 400, {
          details: [{ field: 'file', code: 'directoryUnreadable' }],
          message: error instanceof Error ? error.message : 'unreadable directory',
        });
      }
    },

    async download(name: string): Promise<EdifactDirectoryInfo> {
      try {
        return await downloadDirectory(name.toUpperCase(), {
          store,
          ...(deps.downloadBaseUrl ? { baseUrl: deps.downloadBaseUrl } : {}),
        });
      } catch (error) {
        deps.log.warn({ err: error, name }, 'directory download failed');
        throw new AppError('server.unavailable', 502, {
          message: error instanceof Error ? error.message : 'download failed',
        });
      }
    },

    /** EDIFACT_DIRECTORIES_IMPORT: each source whose directory is not in the store yet is imported once. */
    async importAtStart(sources: readonly string[]): Promise<void> {
      if (!sources.length) return;
      const have = new Set((await store.list()).map((d) => d.name));
      for (const source of sources) {
        const guess = basename(source)
          .toUpperCase()
          .match(/D\d\d[A-Z]/)?.[0];
        if (guess && have.has(guess)) continue;
        if (!existsSync(source)) {
          deps.log.warn({ source }, 'EDIFACT_DIRECTORIES_IMPORT: no such file or folder');
          continue;
        }
        try {
          const info = await importDirectory(source, store);
          have.add(info.name);
          deps.log.info({ directory: info.name, source }, 'UN/EDIFACT directory imported');
        } catch (error) {
          deps.log.error({ err: error, source }, 'UN/EDIFACT directory import failed');
        }
      }
    },
  };
}
