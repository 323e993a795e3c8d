/** The shipped schemas are the Ministry's files unmodified: their SHA-256 is the one schemas/PROVENANCE.md records. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const PINNED: Record<string, string> = {
  'schemat_FA(3)_v1-0E.xsd': 'b646b6b525f51adf1bb2545f111fc8ca6e7aa6dd2f98948f1667d3695c06d958',
  'bazowe/ElementarneTypyDanych_v10-0E.xsd': '8daf4d3771de200b26b697294cc906a2add3de9acfbbd97f4b1bd4fc0e5ecb2f',
  'bazowe/KodyKrajow_v10-0E.xsd': '48be2a9f181d7ff80f185c62491ba12604c5cacbbe21af8e2aaaf2c585bbd214',
  'bazowe/StrukturyDanych_v10-0E.xsd': 'cb08348374598e1e716e086c40d740390fb9e1bfa3aba1f4ec4cba0e1ef6d60f',
  'upo-v4-3.xsd': '1e5ff386a29324021a9e0126319680aec0b1e0d4f4a18add30b2f5d12ce6fa86',
};

describe('shipped schemas', () => {
  it.each(Object.entries(PINNED))('%s is unmodified', (name, sha256) => {
    const bytes = readFileSync(new URL(`../schemas/${name}`, import.meta.url));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
  });
});
