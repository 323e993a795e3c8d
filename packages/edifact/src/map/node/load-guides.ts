/**
 * Loads guide files (`*.json`, any depth) from folders: the EANCOM guides shipped in `packages/edifact/guides/`
 * and any folder of one's own. Node only.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexGuides, parseGuide, type Guide, type GuideIndex } from '../guide.ts';

/** The folder of the guides shipped with the package. */
export const builtInGuidesPath = (): string => fileURLToPath(new URL('../../../guides/', import.meta.url));

/** Reads every guide of a folder; a file that is not a valid guide is reported in `problems`, not thrown. */
export const readGuideFolder = async (folder: string): Promise<{ guides: Guide[]; problems: string[] }> => {
  const guides: Guide[] = [];
  const problems: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.json')) {
        try {
          const result = parseGuide(JSON.parse(await readFile(path, 'utf8')) as unknown);
          if ('guide' in result) guides.push(result.guide);
          else problems.push(`${path}: ${result.problems.join('; ')}`);
        } catch (error) {
          problems.push(`${path}: ${(error as Error).message}`);
        }
      }
    }
  };
  await walk(folder);
  return { guides, problems };
};

/** The shipped guides plus those of `extraFolders` (later ones override earlier ones for the same key). */
export const loadGuides = async (extraFolders: readonly string[] = []): Promise<GuideIndex> => {
  const all: Guide[] = [];
  for (const folder of [builtInGuidesPath(), ...extraFolders]) all.push(...(await readGuideFolder(folder)).guides);
  return indexGuides(all);
};
