/**
 * In-process tests of gradebook setup late|missing|extra-credit|mode and gradebook scheme
 * set (issue #13): every part of the setup from flags, saved at the version read, invalid
 * values named by their flags. Demo store: crs_data101 is weighted at setup version 1,
 * late -10% of possible per day (at most 5, hold-at-max, grace 15), missing zero-after-due.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const COURSE = 'crs_data101';

const stores: CliStore[] = [];
async function newStore(): Promise<CliStore> {
  const s = await cliStore();
  stores.push(s);
  return s;
}
afterAll(() => stores.forEach((s) => s.cleanup()));

const setupOf = async (s: CliStore) => JSON.parse(await s.ok(['--json', 'gradebook', 'setup', 'show', '--course', COURSE])) as Record<string, any>;

function expectError(res: CliResult, code: number, stderr: string): void {
  expect(res.stderr).toBe(stderr);
  expect(res.code).toBe(code);
  expect(res.stdout).toBe('');
}

const CONFLICT_1_2 =
  'error (conflict): The gradebook setup changed while you worked: it is at version 2 now, this change was made on version 1. ' +
  'Nothing was saved; run the command again to apply it to the current setup.\n';

describe('gradebook setup late', () => {
  it('changes only the given fields of the late policy and prints the new policy', async () => {
    const s = await newStore();
    const res = await s.run([
      'gradebook',
      'setup',
      'late',
      '--course',
      COURSE,
      '--percent',
      '2.5',
      '--period',
      'hour',
      '--max-periods',
      'none',
      '--grace',
      '30',
    ]);
    expect(res).toEqual({ code: 0, stdout: '2\t2.5% of possible off per hour, no cap, grace 30 min\n', stderr: '' });
    expect((await setupOf(s)).late).toEqual({
      enabled: true,
      percentPerPeriod: 2.5,
      period: 'hour',
      basis: 'possible',
      maxPeriods: null,
      afterMax: 'hold-at-max',
      graceMinutes: 30,
    });
  });

  it('--off turns it off; --on with --basis score and --after-max missing; --json prints the saved setup', async () => {
    const s = await newStore();
    expect(await s.ok(['gradebook', 'setup', 'late', '--course', COURSE, '--off'])).toBe('2\toff (grace 15 min for missing work)\n');
    const res = await s.run([
      '--json',
      'gradebook',
      'setup',
      'late',
      '--course',
      COURSE,
      '--on',
      '--basis',
      'score',
      '--max-periods',
      '3',
      '--after-max',
      'missing',
    ]);
    expect(JSON.parse(res.stdout)).toMatchObject({
      version: 3,
      late: { enabled: true, basis: 'score', maxPeriods: 3, afterMax: 'missing', percentPerPeriod: 10 },
    });
  });

  it('values out of range or not allowed are invalid, named by the flag (exit 3)', async () => {
    const s = await newStore();
    expectError(await s.run(['gradebook', 'setup', 'late', '--course', COURSE, '--percent', '150']), 3, 'error (invalid): --percent: must be <= 100\n');
    expectError(
      await s.run(['gradebook', 'setup', 'late', '--course', COURSE, '--period', 'week', '--grace', '600000']),
      3,
      'error (invalid): 2 problems: --period, --grace\n  --period: must be one of "day", "hour"\n  --grace: must be <= 525600\n',
    );
    expect((await setupOf(s)).version).toBe(1);
  });

  it('nothing given, --on with --off, or a non-number is a usage error (exit 2); a stale --expected-version is a conflict (exit 6)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'setup', 'late', '--course', COURSE]),
      2,
      'error: nothing to change: give at least one of --on, --off, --percent, --period, --basis, --max-periods, --after-max, --grace\n',
    );
    expectError(await s.run(['gradebook', 'setup', 'late', '--course', COURSE, '--on', '--off']), 2, 'error: give --on or --off, not both\n');
    expectError(
      await s.run(['gradebook', 'setup', 'late', '--course', COURSE, '--max-periods', 'many']),
      2,
      'error: --max-periods must be a number (got "many")\n',
    );
    await s.ok(['gradebook', 'setup', 'late', '--course', COURSE, '--grace', '0']);
    expectError(await s.run(['gradebook', 'setup', 'late', '--course', COURSE, '--grace', '5', '--expected-version', '1']), 6, CONFLICT_1_2);
  });
});

describe('gradebook setup missing', () => {
  it('sets what missing work counts as, and whether missing zeros may be dropped', async () => {
    const s = await newStore();
    expect(await s.ok(['gradebook', 'setup', 'missing', '--course', COURSE, '--treat-as', 'exclude-until-graded'])).toBe('2\texclude-until-graded\n');
    expect(await s.ok(['gradebook', 'setup', 'missing', '--course', COURSE, '--droppable'])).toBe('3\texclude-until-graded, droppable\n');
    expect((await setupOf(s)).missing).toEqual({ treatAs: 'exclude-until-graded', droppable: true });
  });

  it('an unknown --treat-as is invalid naming it (exit 3); nothing given is a usage error (exit 2)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'setup', 'missing', '--course', COURSE, '--treat-as', 'zero']),
      3,
      'error (invalid): --treat-as: must be one of "zero-after-due", "exclude-until-graded"\n',
    );
    expectError(
      await s.run(['gradebook', 'setup', 'missing', '--course', COURSE]),
      2,
      'error: nothing to change: give at least one of --treat-as, --droppable, --no-droppable\n',
    );
  });
});

describe('gradebook setup extra-credit', () => {
  it('sets and clears the caps (none is no cap)', async () => {
    const s = await newStore();
    expect(await s.ok(['gradebook', 'setup', 'extra-credit', '--course', COURSE, '--category-cap', '5', '--course-cap', '2.5'])).toBe(
      '2\tcategory cap 5%, course cap 2.5 points\n',
    );
    expect(await s.ok(['gradebook', 'setup', 'extra-credit', '--course', COURSE, '--course-cap', 'none'])).toBe('3\tcategory cap 5%, course cap none\n');
    expect((await setupOf(s)).extraCredit).toEqual({ categoryCapPercent: 5, courseCapPoints: null });
  });

  it('a negative cap is invalid naming the flag (exit 3); nothing given is a usage error (exit 2)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'setup', 'extra-credit', '--course', COURSE, '--category-cap', '-1']),
      3,
      'error (invalid): --category-cap: must be >= 0\n',
    );
    expectError(
      await s.run(['gradebook', 'setup', 'extra-credit', '--course', COURSE]),
      2,
      'error: nothing to change: give at least one of --category-cap, --course-cap\n',
    );
  });
});

describe('gradebook setup mode', () => {
  it('switches between weighted and points', async () => {
    const s = await newStore();
    expect(await s.run(['gradebook', 'setup', 'mode', 'points', '--course', COURSE])).toEqual({ code: 0, stdout: '2\tpoints\n', stderr: '' });
    expect(await s.ok(['gradebook', 'setup', 'mode', 'weighted', '--course', COURSE])).toBe('3\tweighted\n');
  });

  it('back to weighted with weights off 100 says so; an unknown mode is invalid (exit 3)', async () => {
    const s = await newStore();
    await s.ok(['gradebook', 'setup', 'mode', 'points', '--course', COURSE]);
    await s.ok(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--weight', '50']);
    const back = await s.run(['gradebook', 'setup', 'mode', 'weighted', '--course', COURSE]);
    expect(back).toMatchObject({ code: 0, stderr: 'note: category weights now sum to 120, not 100 (weighted mode); see gradebook checks\n' });
    expectError(await s.run(['gradebook', 'setup', 'mode', 'curve', '--course', COURSE]), 3, 'error (invalid): <mode>: must be one of "weighted", "points"\n');
  });
});

describe('gradebook scheme set', () => {
  it('replaces the bands, kept highest first whatever the order typed; the scheme keeps its id', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'scheme', 'set', 'F=0', 'D=60', 'C=70', 'B=80', 'A=90', '--course', COURSE, '--name', 'Plain letters']);
    expect(res).toEqual({ code: 0, stdout: '2\tPlain letters: A 90, B 80, C 70, D 60, F 0\n', stderr: '' });
    const scheme = (await setupOf(s)).scheme;
    expect(scheme.bands).toEqual([
      { letter: 'A', min: 90 },
      { letter: 'B', min: 80 },
      { letter: 'C', min: 70 },
      { letter: 'D', min: 60 },
      { letter: 'F', min: 0 },
    ]);
    expect(scheme.id).toBe('standard');
    // Letters follow the new scheme: usr_s01's 92.9 is now an A.
    expect((await s.ok(['gradebook', 'grades', '--course', COURSE])).split('\n')[0]).toBe('Amara Okafor\tusr_s01\t85.0\t98.8\t\t92.9\tA\t92.9 A');
  });

  it('letters may hold = and decimals: A+=96.5', async () => {
    const s = await newStore();
    expect(await s.ok(['gradebook', 'scheme', 'set', 'A+=96.5', '=B=50', 'F=0', '--course', COURSE])).toBe('2\tStandard letters: A+ 96.5, =B 50, F 0\n');
  });

  it('a band that is not LETTER=MIN is a usage error (exit 2); a min over 100 is invalid naming the band (exit 3)', async () => {
    const s = await newStore();
    expectError(await s.run(['gradebook', 'scheme', 'set', 'A', '--course', COURSE]), 2, 'error: each band must look like LETTER=MIN, e.g. A-=90 (got "A")\n');
    expectError(await s.run(['gradebook', 'scheme', 'set', 'A=x', '--course', COURSE]), 2, 'error: band A=x must be a number (got "x")\n');
    expectError(await s.run(['gradebook', 'scheme', 'set', 'A=101', 'F=0', '--course', COURSE]), 3, 'error (invalid): A=101: must be <= 100\n');
    expectError(
      await s.run(['gradebook', 'scheme', 'set', 'TOO-LONG-LETTER=50', '--course', COURSE]),
      3,
      'error (invalid): TOO-LONG-LETTER=50: must be at most 12 characters\n',
    );
  });
});

describe('gradebook setup --help', () => {
  it('points to docs/gradebook-setup.md, as every setup command does', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'setup', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Every setup field, its meaning, limits and an example: docs/gradebook-setup.md');
    expect(res.stdout).toMatch(/late \[options\] +The late policy/);
    expect((await s.run(['gradebook', 'setup', 'late', '--help'])).stdout).toContain('docs/gradebook-setup.md');
    expect((await s.run(['gradebook', 'scheme', 'set', '--help'])).stdout).toContain('docs/gradebook-setup.md');
  });
});
