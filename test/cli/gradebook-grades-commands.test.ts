/**
 * In-process tests of the gradebook's computed grades (grades, mine), final-grade overrides
 * (final set|clear|history) and the CSV export, in local mode against the demo store.
 * Students: usr_s01..usr_s25 in crs_data101; usr_s07 has the demo's override (B+, version 1).
 * Each test that writes an override uses a student of its own, so one store is shared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const STALE_0 =
  'The override is at version 1, not 0: it changed since it was read, and nothing was saved. See gradebook final history --course crs_data101 --user usr_s07, then run the command again with --expected-version 1 (or without it) to replace it.';

const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";

const COURSE = 'crs_data101';
const FORBIDDEN_STAFF = "error (forbidden): Only the course's instructors and admins may do this.\n";
const S07_REASON = 'Documented illness during the spread quiz; instructor judgement.';

let store: CliStore;
beforeAll(async () => {
  store = await cliStore();
});
afterAll(() => store.cleanup());

const gradeRow = async (student: string): Promise<string | undefined> =>
  (await store.ok(['gradebook', 'grades', '--course', COURSE])).split('\n').find((l) => l.split('\t')[1] === student);

describe('gradebook grades', () => {
  it('prints one TSV row per student: name, id, category %, course %, letter, final', async () => {
    const res = await store.run(['gradebook', 'grades', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const lines = res.stdout.split('\n');
    expect(lines).toHaveLength(25 + 1);
    expect(lines[0]).toBe('Amara Okafor\tusr_s01\t85.0\t98.8\t\t92.9\tA-\t92.9 A-');
    // The demo override: the computed D- stays, the final letter is the override's, starred.
    expect(lines[6]).toBe('Gustavo Pereira\tusr_s07\t70.0\t56.9\t\t62.5\tD-\t62.5 B+ *');
    expect(lines[24]).toBe('Yusuf Yilmaz\tusr_s25\t57.5\t38.8\t\t46.8\tF\t46.8 F');
  });

  it('on a terminal: a header with each category by name', async () => {
    const res = await store.run(['gradebook', 'grades', '--course', COURSE], { tty: { stdout: true } });
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^STUDENT +ID +Quizzes % +Projects % +Final % +COURSE % +LETTER +FINAL \(\* override\)$/);
  });

  it("a student may not see everyone's grades (exit 4)", async () => {
    expect(await store.run(['--as', 'usr_s01', 'gradebook', 'grades', '--course', COURSE])).toMatchObject({ code: 4, stdout: '', stderr: FORBIDDEN_STAFF });
  });

  it('an unknown course exits 5; no course is a usage error naming --course (exit 2)', async () => {
    expect(await store.run(['gradebook', 'grades', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await store.run(['gradebook', 'grades'])).toMatchObject({ code: 2, stderr: MISSING_COURSE });
  });
});

describe('gradebook mine', () => {
  it('a student sees their own categories and course grade', async () => {
    const res = await store.run(['--as', 'usr_s01', 'gradebook', 'mine', '--course', COURSE]);
    expect(res).toMatchObject({ code: 0, stdout: 'Quizzes\t85.0\nProjects\t98.8\nFinal\t\nCourse\t92.9 A-\n', stderr: '' });
  });

  it("--json: the API body, with each item's late deduction and drop", async () => {
    const res = await store.run(['--as', 'usr_s01', '--json', 'gradebook', 'mine', '--course', COURSE]);
    expect(res.code).toBe(0);
    const mine = JSON.parse(res.stdout);
    expect(mine).toMatchObject({ courseId: COURSE, studentId: 'usr_s01', percent: 92.9, letter: 'A-', computedAt: '2026-11-22T08:30:00.000Z' });
    expect(mine.items[0]).toEqual({
      itemId: 'asg_01',
      status: 'graded',
      score: 10,
      effectiveScore: 7,
      late: { periods: 3, deduction: 3 },
      dropped: 'lowest',
      counted: false,
    });
  });

  it('staff are not students of the course (exit 4)', async () => {
    const forbidden = 'error (forbidden): Only students enrolled in the course may do this.\n';
    expect(await store.run(['gradebook', 'mine', '--course', COURSE])).toMatchObject({ code: 4, stdout: '', stderr: forbidden });
    expect(await store.run(['--as', 'usr_instructor', 'gradebook', 'mine', '--course', COURSE])).toMatchObject({ code: 4, stderr: forbidden });
  });

  it('an unknown course exits 5; no course exits 2', async () => {
    expect(await store.run(['--as', 'usr_s01', 'gradebook', 'mine', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await store.run(['--as', 'usr_s01', 'gradebook', 'mine'])).toMatchObject({ code: 2, stderr: MISSING_COURSE });
  });
});

describe('gradebook final set', () => {
  it('sets a letter at the next version; grades shows it starred; history records it', async () => {
    const res = await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s05', '--letter', 'A-', '--reason', 'Regrade']);
    expect(res).toMatchObject({ code: 0, stdout: 'ok\ttrue\nversion\t1\n', stderr: '' });
    expect(await gradeRow('usr_s05')).toBe('Elif Demir\tusr_s05\t100.0\t98.1\t\t98.9\tA\t98.9 A- *');
    const json = await store.run([
      '--json',
      'gradebook',
      'final',
      'set',
      '--course',
      COURSE,
      '--user',
      'usr_s05',
      '--percent',
      '91.5',
      '--reason',
      'Percent instead',
    ]);
    expect(json).toMatchObject({ code: 0, stdout: '{"ok":true,"version":2}\n' });
    expect(await store.ok(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s05'])).toBe(
      '1\t2026-11-22T08:30:00.000Z\tusr_admin\t-\tA-\tRegrade\n2\t2026-11-22T08:30:00.000Z\tusr_admin\tA-\t91.5\tPercent instead\n',
    );
  });

  it('an instructor may set one, at the version they expect', async () => {
    const res = await store.run([
      '--as',
      'usr_instructor',
      'gradebook',
      'final',
      'set',
      '--course',
      COURSE,
      '--user',
      'usr_s11',
      '--letter',
      'D',
      '--reason',
      'Appeal',
      '--expected-version',
      '0',
    ]);
    expect(res).toMatchObject({ code: 0, stdout: 'ok\ttrue\nversion\t1\n' });
  });

  it('a stale --expected-version is a conflict naming the current version (exit 6)', async () => {
    const res = await store.run([
      'gradebook',
      'final',
      'set',
      '--course',
      COURSE,
      '--user',
      'usr_s07',
      '--letter',
      'A',
      '--reason',
      'x',
      '--expected-version',
      '0',
    ]);
    expect(res).toMatchObject({ code: 6, stdout: '', stderr: `error (conflict): ${STALE_0}\n` });
    const json = await store.run([
      '--json',
      'gradebook',
      'final',
      'set',
      '--course',
      COURSE,
      '--user',
      'usr_s07',
      '--letter',
      'A',
      '--reason',
      'x',
      '--expected-version',
      '0',
    ]);
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'conflict', message: STALE_0, details: { currentVersion: 1 } } });
  });

  it('a letter outside the scheme or a negative percent is invalid naming the field (exit 3)', async () => {
    expect(await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s06', '--letter', 'Q', '--reason', 'x'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --letter: "Q" is not a letter of the course\'s scheme (A, A-, B+, B, B-, C+, C, C-, D+, D, D-, F)\n',
    });
    expect(await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s06', '--percent=-5', '--reason', 'x'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --percent: must be >= 0\n',
    });
    expect(await store.ok(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s06'])).toBe('');
  });

  it('a missing --reason, no --letter/--percent, or a non-number --percent is a usage error (exit 2)', async () => {
    expect(await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s06', '--letter', 'A'])).toMatchObject({
      code: 2,
      stderr: 'error: missing --reason\n',
    });
    expect(await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s06', '--reason', 'x'])).toMatchObject({
      code: 2,
      stderr: 'error: give --letter and/or --percent (or use gradebook final clear)\n',
    });
    expect(await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s06', '--reason', 'x', '--percent', 'ninety'])).toMatchObject({
      code: 2,
      stderr: 'error: --percent must be a number (got "ninety")\n',
    });
    expect(
      await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s06', '--reason', 'x', '--letter', 'A', '--expected-version', 'latest']),
    ).toMatchObject({
      code: 2,
      stderr: 'error: --expected-version must be a number (got "latest")\n',
    });
  });

  it('a student who is not enrolled is not-found (exit 5); a student acting is forbidden (exit 4)', async () => {
    expect(await store.run(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_manager', '--letter', 'A', '--reason', 'x'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Student "usr_manager" is not enrolled in this course.\n',
    });
    expect(
      await store.run(['--as', 'usr_s01', 'gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s01', '--letter', 'A', '--reason', 'please']),
    ).toMatchObject({
      code: 4,
      stderr: FORBIDDEN_STAFF,
    });
    expect(await store.ok(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s01'])).toBe('');
  });
});

describe('gradebook final clear', () => {
  it('clears an override: the next version, "(cleared)" in the history, no star in grades', async () => {
    await store.ok(['gradebook', 'final', 'set', '--course', COURSE, '--user', 'usr_s10', '--letter', 'B', '--reason', 'Regrade']);
    const res = await store.run(['gradebook', 'final', 'clear', '--course', COURSE, '--user', 'usr_s10', '--reason', 'Entered in error']);
    expect(res).toMatchObject({ code: 0, stdout: 'ok\ttrue\nversion\t2\n', stderr: '' });
    expect((await store.ok(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s10'])).split('\n')[1]).toBe(
      '2\t2026-11-22T08:30:00.000Z\tusr_admin\tB\t(cleared)\tEntered in error',
    );
    expect(await gradeRow('usr_s10')).toBe('Jonas Berg\tusr_s10\t58.3\t86.9\t\t74.6\tC\t74.6 C');
  });

  it('a missing --reason is a usage error naming it (exit 2)', async () => {
    expect(await store.run(['gradebook', 'final', 'clear', '--course', COURSE, '--user', 'usr_s07'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: missing --reason\n',
    });
  });

  it('a stale --expected-version is a conflict (exit 6) and the override stays', async () => {
    const res = await store.run(['gradebook', 'final', 'clear', '--course', COURSE, '--user', 'usr_s07', '--reason', 'x', '--expected-version', '3']);
    expect(res).toMatchObject({ code: 6, stderr: `error (conflict): ${STALE_0.replace('not 0', 'not 3').replace('to replace it', 'to clear it')}\n` });
    // A student with no override at all is told so, not that it changed.
    const none = await store.run([
      'gradebook',
      'final',
      'set',
      '--course',
      COURSE,
      '--user',
      'usr_s06',
      '--letter',
      'B',
      '--reason',
      'x',
      '--expected-version',
      '3',
    ]);
    expect(none).toMatchObject({
      code: 6,
      stderr:
        'error (conflict): There is no override (version 0), not version 3: nothing was saved. See gradebook final history --course crs_data101 --user usr_s06, then run the command again with --expected-version 0 (or without it) to replace it.\n',
    });
    expect(await gradeRow('usr_s07')).toMatch(/\t62\.5 B\+ \*$/);
  });

  it('a student may not clear their override (exit 4); an unknown course exits 5', async () => {
    expect(await store.run(['--as', 'usr_s07', 'gradebook', 'final', 'clear', '--course', COURSE, '--user', 'usr_s07', '--reason', 'x'])).toMatchObject({
      code: 4,
      stderr: FORBIDDEN_STAFF,
    });
    expect(await store.run(['gradebook', 'final', 'clear', '--course', 'crs_nope', '--user', 'usr_s07', '--reason', 'x'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
  });
});

describe('gradebook final history', () => {
  it('lists each change as TSV: version, at, by, old, new, reason', async () => {
    const res = await store.run(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s07']);
    expect(res).toMatchObject({ code: 0, stdout: `1\t2026-11-10T10:00:00.000Z\tusr_instructor\t-\tB+\t${S07_REASON}\n`, stderr: '' });
    const json = await store.run(['--json', 'gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s07']);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        courseId: COURSE,
        studentId: 'usr_s07',
        version: 1,
        oldLetter: null,
        oldPercent: null,
        newLetter: 'B+',
        newPercent: null,
        reason: S07_REASON,
        by: 'usr_instructor',
        at: '2026-11-10T10:00:00.000Z',
      },
    ]);
  });

  it('a student with no override has an empty history', async () => {
    expect(await store.run(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s20'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a user not enrolled exits 5; a student reading it exits 4', async () => {
    expect(await store.run(['gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Student "usr_nope" is not enrolled in this course.\n',
    });
    expect(await store.run(['--as', 'usr_s07', 'gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s07'])).toMatchObject({
      code: 4,
      stderr: FORBIDDEN_STAFF,
    });
  });

  it('without --user: a usage error naming it (exit 2)', async () => {
    expect(await store.run(['gradebook', 'final', 'history', '--course', COURSE])).toEqual({ code: 2, stdout: '', stderr: 'error: missing --user\n' });
  });
});

describe('gradebook export', () => {
  it('prints RFC 4180 CSV with CRLF line ends: header, points possible, one row per student', async () => {
    const res = await store.run(['gradebook', 'export', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const csv = res.stdout;
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = csv.split('\r\n');
    expect(lines).toHaveLength(2 + 25 + 1);
    expect(lines[0]).toBe(
      'Student,Student ID,Quiz: kinds of dirty data (asg_01),Quiz: averages (asg_03),Quiz: spread (asg_04),Bonus: find a misleading average in the news (asg_06),' +
        'Clean the survey table (asg_02),Summary report (asg_05),Quizzes %,Projects %,Final (cat_final) %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter',
    );
    // asg_07 (Final chart) sits in the draft module mod_03, so it is no column; Final stays empty.
    expect(lines[1]).toBe('Points Possible,,10,10,10,0,40,40,,,,,,,,,');
    expect(lines[2]).toBe('Amara Okafor,usr_s01,7,8.5,8.5,,39.5,,85.0,98.8,,92.9,A-,,,92.9,A-');
    expect(lines.find((l) => l.includes(',usr_s07,'))).toBe('Gustavo Pereira,usr_s07,5,5,7,3,20.5,25,70.0,56.9,,62.5,D-,,B+,62.5,B+');
    expect(new Set(lines.slice(0, -1).map((l) => l.split(',').length))).toEqual(new Set([17]));
  });

  it('--out FILE writes the same bytes, prints nothing on stdout and names the file on stderr', async () => {
    const piped = await store.ok(['gradebook', 'export', '--course', COURSE]);
    const res = await store.run(['gradebook', 'export', '--course', COURSE, '--out', 'grades.csv'], { cwd: store.dir });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: 'wrote grades.csv\n' });
    expect(readFileSync(join(store.dir, 'grades.csv'), 'utf8')).toBe(piped);
  });

  it('--json prints {csv} exactly as the API sends it', async () => {
    const res = await store.run(['--json', 'gradebook', 'export', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ csv: await store.ok(['gradebook', 'export', '--course', COURSE]) });
  });

  it('a student may not export (exit 4); an unknown course exits 5; no course exits 2', async () => {
    expect(await store.run(['--as', 'usr_s01', 'gradebook', 'export', '--course', COURSE])).toMatchObject({ code: 4, stdout: '', stderr: FORBIDDEN_STAFF });
    expect(await store.run(['gradebook', 'export', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await store.run(['gradebook', 'export'])).toMatchObject({ code: 2, stderr: MISSING_COURSE });
  });

  it('--out into a missing folder is a usage error naming the file (exit 2)', async () => {
    const res = await store.run(['gradebook', 'export', '--course', COURSE, '--out', 'no/such/dir/grades.csv'], { cwd: store.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no/such/dir/grades.csv');
    expect(res.stderr).not.toMatch(/unexpected failure|\n {4}at /);
  });
});
