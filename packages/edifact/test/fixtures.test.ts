/**
 * The project's own EDIFACT fixtures (`test/fixtures/*.edi`: EANCOM 97 and 2002 messages written for these tests,
 * good and broken, described in `test/fixtures/README.md`) validated at all three levels, with the directories the
 * package ships and the EANCOM guides, and compared with the golden JSON beside each fixture.
 *
 * The golden files say what an EANCOM user expects. Where the engine differs today, the difference is listed below
 * (KNOWN_ENGINE_ISSUES, reported) instead of being written into a golden file, and a test checks that each listed
 * difference still occurs, so the list is emptied when the engine is fixed.
 *
 * `UPDATE_GOLDEN=1 npx vitest run --project edifact test/fixtures.test.ts` rewrites the golden files from the
 * engine (the known issues left out): read the diff before committing it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FindingCode } from '../src/codes.ts';
import { createMapLevel } from '../src/map/map-level.ts';
import { loadGuides } from '../src/map/node/load-guides.ts';
import type { Finding } from '../src/model.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import { validate, type MessageSummary, type ValidationResult } from '../src/validate.ts';
import { getTestStore } from './directory/helpers.ts';
import { fixturesDir, listFixtures, readFixture } from './helpers.ts';

type Compact = ReturnType<typeof compact>;
type Golden = { fixture: string; ok: boolean; messages: string[]; findings: Compact[] };

const compact = (f: Finding) => ({
  code: f.code,
  severity: f.severity,
  level: f.level,
  path: f.path,
  line: f.line,
  column: f.column,
  ...(f.fieldName === undefined ? {} : { fieldName: f.fieldName }),
  ...(f.actual === undefined ? {} : { actual: f.actual }),
  ...(f.expected === undefined ? {} : { expected: f.expected }),
  ...(f.messageReference === undefined ? {} : { messageReference: f.messageReference }),
});

/** A difference between the engine and what an EANCOM user expects. */
type KnownIssue = { fixtures: RegExp; code: FindingCode; path: RegExp; actual?: string; why: string };

// Emptied: the PCI 33E, RECADV BGM 352 and APERAK BGM 305 warnings (codes the guide allows), CONTRL D:3 as an
// unsupported message and the unchecked 102 date of desadv-d01b-bad-date are fixed (issue 17 item 3).
const KNOWN_ENGINE_ISSUES: { unexpected: KnownIssue[]; missing: KnownIssue[] } = {
  // Findings the engine gives that it should not.
  unexpected: [],
  // Findings the engine does not give yet.
  missing: [],
};

const matches = (issue: KnownIssue, fixture: string, f: Compact): boolean =>
  issue.fixtures.test(fixture) &&
  f.code === issue.code &&
  issue.path.test(f.path) &&
  (issue.actual === undefined || f.actual === issue.actual);

/** The worst severity of a message's findings, as the engine sums a message up. */
const statusOf = (findings: Compact[]): MessageSummary['status'] =>
  findings.some((f) => f.severity === 'error')
    ? 'error'
    : findings.some((f) => f.severity === 'warning')
      ? 'warning'
      : 'valid';

const describeMessage = (m: MessageSummary, status: string): string =>
  `${m.reference} ${m.type} ${m.version} ${m.association ?? '-'} ${m.documentNumber || '-'} ${status}`;

/** The golden form of a result, the known unexpected findings left out (and the statuses they caused with them). */
const goldenOf = (fixture: string, result: ValidationResult): { golden: Golden; unexpected: Compact[] } => {
  const all = result.findings.map(compact);
  const unexpected = all.filter((f) => KNOWN_ENGINE_ISSUES.unexpected.some((i) => matches(i, fixture, f)));
  const findings = all.filter((f) => !unexpected.includes(f));
  const messages = result.messages.map((m) =>
    describeMessage(
      m,
      unexpected.length === 0 ? m.status : statusOf(findings.filter((f) => f.messageReference === m.reference)),
    ),
  );
  const ok = !findings.some((f) => f.severity === 'error');
  return { golden: { fixture, ok, messages, findings }, unexpected };
};

const goldenPath = (fixture: string): URL => new URL(`${fixture.replace(/\.edi$/, '')}.json`, fixturesDir);

let levels: ValidationLevelPlugin[];
beforeAll(async () => {
  const directories = await getTestStore();
  levels = [createSpecificationLevel({ directories }), createMapLevel({ guides: await loadGuides(), directories })];
});

const run = async (fixture: string) => goldenOf(fixture, await validate(readFixture(fixture), { levels }));

const FIXTURES = listFixtures();

describe('the project’s EANCOM fixtures', () => {
  it('cover every EANCOM message the portal exchanges, in D96A and D01B, good and broken', () => {
    for (const type of ['orders', 'ordrsp', 'desadv', 'invoic', 'recadv', 'pricat', 'aperak']) {
      for (const version of ['d96a', 'd01b'])
        expect(FIXTURES, `${type}-${version}`).toContain(`${type}-${version}.edi`);
    }
    expect(FIXTURES.filter((f) => f.startsWith('contrl-'))).toHaveLength(2);
    expect(FIXTURES.length).toBeGreaterThan(30);
    // Every fixture has its golden file, and every golden file its fixture.
    const goldens = readdirSync(fixturesDir).filter((f) => f.endsWith('.json'));
    expect(goldens.sort()).toEqual(FIXTURES.map((f) => f.replace(/\.edi$/, '.json')).sort());
  });

  it.each(FIXTURES)('%s', async (fixture) => {
    const { golden } = await run(fixture);
    if (process.env.UPDATE_GOLDEN) writeFileSync(goldenPath(fixture), `${JSON.stringify(golden, null, 2)}\n`);
    expect(golden).toEqual(JSON.parse(readFileSync(goldenPath(fixture), 'utf8')) as Golden);
  });

  it('the good ones pass: no finding, every message valid', { timeout: 30_000 }, async () => {
    const good = FIXTURES.filter((f) => /^[a-z]+-d(96a|01b)\.edi$/.test(f));
    expect(good).toHaveLength(14);
    for (const fixture of good) {
      const { golden } = await run(fixture);
      expect(golden.findings, fixture).toEqual([]);
      expect(
        golden.messages.every((m) => m.endsWith(' valid')),
        fixture,
      ).toBe(true);
    }
  });

  it('the broken ones fail, each with at least one error', { timeout: 30_000 }, async () => {
    const broken = FIXTURES.filter((f) => !/^[a-z]+-d(96a|01b)\.edi$/.test(f) && !/^contrl-|-crlf\.edi$/.test(f));
    expect(broken.length).toBeGreaterThan(14);
    for (const fixture of broken) {
      const { golden } = await run(fixture);
      expect(golden.ok, fixture).toBe(false);
    }
  });
});

describe('known engine issues (reported, not expected)', () => {
  it('each unexpected finding listed still occurs in a fixture', { timeout: 30_000 }, async () => {
    const seen = new Set<KnownIssue>();
    for (const fixture of FIXTURES) {
      const { unexpected } = await run(fixture);
      for (const f of unexpected)
        for (const issue of KNOWN_ENGINE_ISSUES.unexpected) if (matches(issue, fixture, f)) seen.add(issue);
    }
    expect(KNOWN_ENGINE_ISSUES.unexpected.filter((issue) => !seen.has(issue)).map((i) => i.why)).toEqual([]);
  });

  it('each missing finding listed is still missing', { timeout: 30_000 }, async () => {
    for (const issue of KNOWN_ENGINE_ISSUES.missing) {
      const fixtures = FIXTURES.filter((f) => issue.fixtures.test(f.replace(/\.edi$/, '')));
      expect(fixtures.length, issue.why).toBeGreaterThan(0);
      for (const fixture of fixtures) {
        const { golden } = await run(fixture);
        expect(
          golden.findings.filter((f) => matches({ ...issue, fixtures: /./ }, fixture, f)),
          issue.why,
        ).toEqual([]);
      }
    }
  });

  it(
    'a message’s status is the worst severity of its findings (the rule used above to leave the issues out)',
    { timeout: 30_000 },
    async () => {
      for (const fixture of FIXTURES) {
        const result = await validate(readFixture(fixture), { levels });
        const findings = result.findings.map(compact);
        for (const m of result.messages) {
          const own = findings.filter((f) => f.messageReference === m.reference && f.line >= m.line);
          expect(m.status, `${fixture} ${m.reference}`).toBe(statusOf(own));
        }
      }
    },
  );
});
