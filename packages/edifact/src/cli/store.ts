/**
 * Which directory store `edifact validate` reads, and the levels it runs over it. The default is the server's own
 * store, so that the CLI checks what the portal checks: `$DATA_DIR/edifact`, `DATA_DIR` defaulting to `./data`
 * relative to the working directory, as `apps/server/src/config.ts` reads it (`EDIFACT_DIRECTORIES` overrides it,
 * as for `edifact directories`). Node only.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ValidationLevelPlugin } from '../levels.ts';
import type { GuideIndex } from '../map/guide.ts';
import { createMapLevel } from '../map/map-level.ts';
import { loadGuides } from '../map/node/load-guides.ts';
import { createSpecificationLevel } from '../spec/specification.ts';
import { shippedDirectoryZips } from '../directory/node/shipped.ts';
import { importDirectory, openDirectoryStore, type DirectoryStore } from '../directory/node/store.ts';

/** Where the store comes from, for the messages that name it. */
export type StoreOrigin = 'option' | 'EDIFACT_DIRECTORIES' | 'DATA_DIR' | 'default';

/** The store folder: `--store`, else `$EDIFACT_DIRECTORIES`, else `$DATA_DIR/edifact`, else `./data/edifact`. */
export const resolveStorePath = (
  option: string | undefined,
  env: NodeJS.ProcessEnv,
): { path: string; origin: StoreOrigin } => {
  // An empty variable counts as unset, as the server's configuration reads it.
  if (option !== undefined) return { path: resolve(option), origin: 'option' };
  if (env.EDIFACT_DIRECTORIES) return { path: resolve(env.EDIFACT_DIRECTORIES), origin: 'EDIFACT_DIRECTORIES' };
  if (env.DATA_DIR) return { path: resolve(env.DATA_DIR, 'edifact'), origin: 'DATA_DIR' };
  return { path: resolve('data', 'edifact'), origin: 'default' };
};

/** The store, its directories' names, the guides, and the specification and map levels (none without a directory). */
export type CliStore = {
  store: DirectoryStore;
  origin: StoreOrigin;
  /** Names of the directories the store holds, sorted (e.g. `['D01B', 'D96A']`). */
  directories: string[];
  guides: GuideIndex | undefined;
  levels: ValidationLevelPlugin[];
};

/**
 * Opens the store for `edifact validate`. The default store (no `--store`, no `EDIFACT_DIRECTORIES`) that lacks
 * D96A or D01B gets them imported from the shipped zips on first use, as `npm start` does for the server, with a
 * note on stderr; a store given explicitly is only read.
 */
export const openCliStore = async (
  option: string | undefined,
  env: NodeJS.ProcessEnv,
  note: (text: string) => void,
): Promise<CliStore> => {
  const { path, origin } = resolveStorePath(option, env);
  const store = openDirectoryStore(path);
  let directories = (await store.list()).map((info) => info.name);
  if (origin === 'DATA_DIR' || origin === 'default') {
    // The UNECE originals shipped with the package (directories/, unchanged, with their licence).
    for (const [name, zip] of Object.entries(shippedDirectoryZips)) {
      if (directories.includes(name) || !existsSync(zip)) continue;
      note(`edifact validate: importing ${name} from ${zip} into ${path} (first use of this store)\n`);
      try {
        await importDirectory(zip, store);
      } catch (error) {
        note(`edifact validate: could not import ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    directories = (await store.list()).map((info) => info.name);
  }
  if (directories.length === 0) return { store, origin, directories, guides: undefined, levels: [] };
  const guides = await loadGuides();
  const levels = [createSpecificationLevel({ directories: store }), createMapLevel({ guides, directories: store })];
  return { store, origin, directories, guides, levels };
};

/** How a message line names the store, e.g. `data/edifact (DATA_DIR)`. */
export const describeStore = (cli: Pick<CliStore, 'store' | 'origin'>): string =>
  cli.origin === 'option'
    ? cli.store.path
    : `${cli.store.path} (${cli.origin === 'default' ? './data/edifact' : `$${cli.origin}`})`;
