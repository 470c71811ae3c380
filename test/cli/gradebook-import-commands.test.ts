/**
 * In-process tests of `gradebook import FILE --course C` (issue #13) against the demo
 * store: the export edited as a spreadsheet would (csv-parse, then csv-stringify), read
 * back, planned, confirmed and applied all or nothing.
 *
 * Demo facts used (crs_data101; late -10% of possible per day, grace 15 min, at most 5):
 * usr_s01 scored 10 on asg_01 three days late, so the export prints 7; their asg_05
 * (Summary report, 40) is submitted but not graded (blank); they never did asg_06 (the
 * bonus, 0 points, due 2026-10-12: blank). usr_s02 has 35.5 on asg_02 and 9 on asg_03.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/command.js';
import { startServer } from '../../src/serve/server.js';
import { type CliResult, runCli, scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, cliStore, DEMO_DATASET } from '../helpers/cli-store.js';
import { inProcessServeOptions } from '../helpers/serve.js';

const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";

const COURSE = 'crs_data101';
const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };

const stores: CliStore[] = [];
async function newStore(): Promise<CliStore> {
  const s = await cliStore();
  stores.push(s);
  return s;
}
afterAll(() => stores.forEach((s) => s.cleanup()));

function expectError(res: CliResult, code: number, stderr: string): void {
  expect(res.stderr).toBe(stderr);
  expect(res.code).toBe(code);
  expect(res.stdout).toBe('');
}

/** The export with some cells changed, saved again the way a spreadsheet program does. */
function edited(csv: string, edits: [studentId: string, itemId: string, value: string][]): string {
  const records = parse(csv) as string[][];
  const header = records[0]!;
  for (const [student, item, value] of edits) {
    const row = records.find((r) => r[1] === student)!;
    const column = header.findIndex((h) => h.endsWith(`(${item})`));
    row[column] = value;
  }
  return stringify(records, { record_delimiter: 'windows' });
}

async function exportTo(s: CliStore, name: string, edits: [string, string, string][] = []): Promise<string> {
  const csv = await s.ok(['gradebook', 'export', '--course', COURSE]);
  writeFileSync(join(s.dir, name), edited(csv, edits));
  return name;
}

const cell = async (s: CliStore, student: string, item: string): Promise<string> => {
  const records = parse(await s.ok(['gradebook', 'export', '--course', COURSE])) as string[][];
  const column = records[0]!.findIndex((h) => h.endsWith(`(${item})`));
  return records.find((r) => r[1] === student)![column]!;
};

const EDITS: [string, string, string][] = [
  ['usr_s01', 'asg_01', '9'], // 7 printed (10, three days late): stored 9, prints 6
  ['usr_s01', 'asg_05', '36'], // blank (submitted, ungraded): graded 36
  ['usr_s01', 'asg_06', '2'], // blank (never submitted): a new graded submission
  ['usr_s02', 'asg_02', '35.50'], // the same number written differently: unchanged
  ['usr_s02', 'asg_03', ''], // cleared: blank cells change nothing
];

const PLAN_TSV = [
  '3\tAmara Okafor (usr_s01)\tQuiz: kinds of dirty data (asg_01)\t7\t9\tlate 3 periods: 9 is before the deduction, the export will show 6',
  '3\tAmara Okafor (usr_s01)\tBonus: find a misleading average in the news (asg_06)\t\t2\tnew submission, graded',
  '3\tAmara Okafor (usr_s01)\tSummary report (asg_05)\t\t36\tgrades the submission',
  '',
].join('\n');

describe('gradebook import', () => {
  it('an export imported unedited changes nothing (late deductions included)', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'grades.csv');
    const res = await s.run(['gradebook', 'import', file, '--course', COURSE, '--yes'], { cwd: s.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^nothing to import: 0 scores would change, \d+ unchanged, \d+ blank\n$/);
  });

  it('--dry-run shows the plan (old -> new, what each change does) and writes nothing', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    const res = await s.run(['gradebook', 'import', file, '--course', COURSE, '--dry-run'], { cwd: s.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(PLAN_TSV);
    expect(res.stderr).toMatch(/^3 scores would change \(1 new submission\), \d+ unchanged, \d+ blank; nothing was written \(dry run\)\n$/);
    expect(await cell(s, 'usr_s01', 'asg_01')).toBe('7');
  });

  it('--yes applies the plan: stored as entered, the export shows it after the late deduction', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    const res = await s.run(['gradebook', 'import', file, '--course', COURSE, '--yes'], { cwd: s.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(PLAN_TSV);
    expect(res.stderr).toMatch(/^3 scores changed \(1 new submission\), \d+ unchanged, \d+ blank\n$/);
    expect([await cell(s, 'usr_s01', 'asg_01'), await cell(s, 'usr_s01', 'asg_05'), await cell(s, 'usr_s01', 'asg_06')]).toEqual(['6', '36', '2']);
    expect([await cell(s, 'usr_s02', 'asg_02'), await cell(s, 'usr_s02', 'asg_03')]).toEqual(['35.5', '9']);
    // Importing the new export changes nothing: 6 is what it prints.
    const again = await s.run(['gradebook', 'import', await exportTo(s, 'again.csv'), '--course', COURSE, '--yes'], { cwd: s.dir });
    expect(again.stderr).toMatch(/^nothing to import/);
  });

  it('on a terminal: the plan as a table, then a confirmation; no leaves everything as it was', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    const no = scriptedPrompter([false]);
    const declined = await s.run(['gradebook', 'import', file, '--course', COURSE], { ...TERMINAL, cwd: s.dir, prompter: no });
    expect(declined.code).toBe(0);
    expect(no.asked).toEqual(['Apply 3 changes to crs_data101?']);
    expect(declined.stderr).toContain('ROW  STUDENT                 ITEM');
    expect(declined.stderr).toContain('late 3 periods: 9 is before the deduction, the export will show 6');
    expect(declined.stderr.endsWith('nothing changed\n')).toBe(true);
    expect(await cell(s, 'usr_s01', 'asg_01')).toBe('7');
    const yes = await s.run(['gradebook', 'import', file, '--course', COURSE], { ...TERMINAL, cwd: s.dir, prompter: scriptedPrompter([true]) });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('');
    expect(yes.stderr).toMatch(/3 scores changed \(1 new submission\)/);
    expect(await cell(s, 'usr_s01', 'asg_01')).toBe('6');
  });

  it('--json prints the API answer of the apply exactly', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    const res = await s.run(['--json', 'gradebook', 'import', file, '--course', COURSE, '--yes'], { cwd: s.dir });
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({
      dryRun: false,
      changes: [{ itemId: 'asg_01', from: 7, to: 9, after: 6, action: 'regrade', late: { periods: 3, deduction: 3 } }, {}, {}],
    });
  });

  it('every bad cell is listed with its row and column (exit 3), and nothing is written', async () => {
    const s = await newStore();
    const csv = edited(await s.ok(['gradebook', 'export', '--course', COURSE]), [
      ['usr_s01', 'asg_01', '9'],
      ['usr_s01', 'asg_03', 'ten'],
      ['usr_s02', 'asg_04', '-2'],
      ['usr_s03', 'asg_02', '8,5'],
    ]);
    const records = parse(csv) as string[][];
    records[0]![4] = 'Quiz: spread (asg_99)'; // an item that does not exist
    records.push(['Ghost', 'usr_ghost', '5', '', '', '', '', '', '']);
    records.push(['Ines', 'usr_instructor', '5', '', '', '', '', '', '']);
    writeFileSync(join(s.dir, 'bad.csv'), stringify(records, { record_delimiter: 'windows' }));
    const res = await s.run(['gradebook', 'import', 'bad.csv', '--course', COURSE, '--yes'], { cwd: s.dir });
    expectError(
      res,
      3,
      [
        'error (invalid): 6 problems in bad.csv; nothing was written.',
        '  items[2].itemId: column E (asg_99): no assignment "asg_99"',
        '  rows[0].scores[1]: row 3, column D: "ten" is not a number (leave it blank to keep the score as it is)',
        '  rows[1].scores[2]: row 4, column E: -2 is negative; a score is 0 or more',
        '  rows[2].scores[4]: row 5, column G: "8,5" is not a number (leave it blank to keep the score as it is)',
        '  rows[25].studentId: row 28: no user "usr_ghost"',
        '  rows[26].studentId: row 29: "usr_instructor" is not a student of course "crs_data101"',
        '',
      ].join('\n'),
    );
    expect(await cell(s, 'usr_s01', 'asg_01')).toBe('7');
  });

  it('a Points Possible cell changed in the spreadsheet is refused at its place, with the points and the fix (exit 3); nothing is written', async () => {
    const s = await newStore();
    const records = parse(edited(await s.ok(['gradebook', 'export', '--course', COURSE]), [['usr_s01', 'asg_01', '9']])) as string[][];
    expect(records[1]![0]).toBe('Points Possible');
    const column = records[0]!.findIndex((h) => h.endsWith('(asg_02)'));
    records[1]![column] = '50'; // the project, worth 40, "made" 50 in the spreadsheet
    writeFileSync(join(s.dir, 'points.csv'), stringify(records, { record_delimiter: 'windows' }));
    expectError(
      await s.run(['gradebook', 'import', 'points.csv', '--course', COURSE, '--yes'], { cwd: s.dir }),
      3,
      [
        'error (invalid): 1 problem in points.csv; nothing was written.',
        '  items[4]: row 2, column G: Points Possible says 50, but asg_02 is worth 40; the import changes scores, not points. Put 40 back, or change the points first (coursebook assignments update asg_02 --points N) and export again',
        '',
      ].join('\n'),
    );
    expect(await cell(s, 'usr_s01', 'asg_01')).toBe('7');
  });

  it('a token scoped to the gradebook alone (no content:read) still imports: the Points Possible row goes unchecked, with a note', async () => {
    const demo = JSON.parse(readFileSync(DEMO_DATASET, 'utf8')) as { tokens: object[] };
    demo.tokens.push({
      id: 'tok_grades_only',
      token: 'grades-only-token',
      userId: 'usr_instructor',
      scopes: ['gradebook:read', 'gradebook:write'],
      name: 'grades',
    });
    const server = await startServer(inProcessServeOptions({ seed: { name: 'grades-only.json', text: JSON.stringify(demo) } }));
    try {
      const s = await newStore();
      const remote = ['--base-url', server.url, '--token', 'grades-only-token'];
      // The local store holds the same demo data: its export is the service's.
      writeFileSync(join(s.dir, 'scoped.csv'), edited(await s.ok(['gradebook', 'export', '--course', COURSE]), [['usr_s01', 'asg_05', '36']]));
      const res = await runCli([...remote, 'gradebook', 'import', 'scoped.csv', '--course', COURSE, '--yes'], { cwd: s.dir });
      expect(res.code).toBe(0);
      expect(res.stderr).toMatch(
        /^note: the Points Possible row was not checked \(.+\); it is not imported either way\n1 score changed, \d+ unchanged, \d+ blank\n$/,
      );
    } finally {
      await server.close();
    }
  });

  it('a negative score is listed at its place; --json prints the envelope', async () => {
    const s = await newStore();
    writeFileSync(join(s.dir, 'neg.csv'), edited(await s.ok(['gradebook', 'export', '--course', COURSE]), [['usr_s02', 'asg_04', '-2']]));
    const res = await s.run(['--json', 'gradebook', 'import', 'neg.csv', '--course', COURSE, '--yes'], { cwd: s.dir });
    expect(res.code).toBe(3);
    expect(JSON.parse(res.stderr)).toEqual({
      error: {
        code: 'invalid',
        message: '1 problem in neg.csv; nothing was written.',
        details: [{ path: 'rows[1].scores[2]', message: 'row 4, column E: -2 is negative; a score is 0 or more' }],
      },
    });
  });

  it('not interactive without --yes, no --course, a missing file or one without item columns: usage errors (exit 2)', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    const piped = await s.run(['gradebook', 'import', file, '--course', COURSE], { cwd: s.dir });
    expect(piped).toMatchObject({ code: 2, stdout: '' });
    expect(piped.stderr).toMatch(
      /^error: importing grades needs --yes when not interactive \(3 scores would change \(1 new submission\), \d+ unchanged, \d+ blank; see --dry-run\)\n$/,
    );
    expectError(await s.run(['gradebook', 'import', file], { cwd: s.dir }), 2, MISSING_COURSE);
    expectError(
      await s.run(['gradebook', 'import', 'nope.csv', '--course', COURSE], { cwd: s.dir }),
      2,
      'error: cannot read nope.csv: no such file or folder\n',
    );
    writeFileSync(join(s.dir, 'registrar.csv'), await s.ok(['gradebook', 'export', '--course', COURSE, '--layout', 'registrar']));
    expectError(
      await s.run(['gradebook', 'import', 'registrar.csv', '--course', COURSE], { cwd: s.dir }),
      2,
      'error: registrar.csv has no item columns: the export heads them "<title> (<id>)", e.g. "Quiz 1 (asg_01)"\n',
    );
  });

  it('a student may not import (exit 4); an unknown course is not-found (exit 5)', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    expectError(
      await s.run(['--as', 'usr_s01', 'gradebook', 'import', file, '--course', COURSE, '--yes'], { cwd: s.dir }),
      4,
      "error (forbidden): Only the course's instructors and admins may do this.\n",
    );
    expectError(
      await s.run(['gradebook', 'import', file, '--course', 'crs_nope', '--yes'], { cwd: s.dir }),
      5,
      'error (not-found): Course "crs_nope" was not found.\n',
    );
  });

  it('a grade saved while the plan is on the screen: the apply is refused (exit 6), nothing written', async () => {
    const s = await newStore();
    const file = await exportTo(s, 'edited.csv', EDITS);
    const prompter = scriptedPrompter([true]);
    const confirm = prompter.confirm;
    const racing: Prompter = {
      ...prompter,
      confirm: async (m, d) => {
        // usr_s01's asg_05 gets graded by someone else meanwhile.
        const subs = JSON.parse(await s.ok(['--json', 'submissions', 'list', '--assignment', 'asg_05'])) as { id: string; studentId: string }[];
        await s.ok(['submissions', 'grade', subs.find((x) => x.studentId === 'usr_s01')!.id, '--score', '30']);
        return confirm(m, d);
      },
    };
    const res = await s.run(['gradebook', 'import', file, '--course', COURSE], { ...TERMINAL, cwd: s.dir, prompter: racing });
    expect(res.code).toBe(6);
    expect(res.stderr).toContain(
      'error (conflict): The gradebook changed since this import was planned (it would now make 3 changes); nothing was written. Plan it again.\n',
    );
    expect([await cell(s, 'usr_s01', 'asg_01'), await cell(s, 'usr_s01', 'asg_05')]).toEqual(['7', '30']);
  });
});
