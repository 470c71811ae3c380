/**
 * In-process tests of the gradebook setup commands (setup show|set|edit, checks, dismiss,
 * undismiss) in local mode, against the demo store: course crs_data101 has a weighted
 * setup at version 1 (cat_quiz 30, cat_project 40, cat_final 30) and two setup checks:
 * category-empty on cat_final (its one item, asg_07, sits in the draft module mod_03, so
 * it is not in the gradebook) and item-zero-points on asg_06. Each describe that saves the setup has a store of its own,
 * so versions are exact; read-only tests share one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, storesForThisFile } from '../helpers/cli-store.js';

const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";

const COURSE = 'crs_data101';
const EMPTY_LINE = 'category-empty\tcat_final\topen\tCategory "Final" has no published items.\n';
const CHECK_LINE = 'item-zero-points\tasg_06\topen\t"Bonus: find a misleading average in the news" is worth 0 points, so it counts as extra credit.\n';
/** stdin and stdout terminals with CI unset: the CLI may prompt and open the editor. */
const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const FORBIDDEN_STAFF = "error (forbidden): Only the course's instructors and admins may do this.\n";

const choosing = scriptedPrompter;

interface SetupDoc {
  version: number;
  mode: string;
  categories: { id: string; weight: number }[];
  late: { graceMinutes: number; percentPerPeriod: number };
  dismissedChecks: unknown[];
  [key: string]: unknown;
}

const newStore = storesForThisFile();

const setupOf = async (s: CliStore): Promise<SetupDoc> => JSON.parse(await s.ok(['--json', 'gradebook', 'setup', 'show', '--course', COURSE])) as SetupDoc;

let shared: CliStore;
beforeAll(async () => {
  shared = await newStore();
});

describe('gradebook setup show', () => {
  it('piped: prints the setup document as indented JSON', async () => {
    const res = await shared.run(['gradebook', 'setup', 'show', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^\{\n {2}"courseId": "crs_data101",\n {2}"mode": "weighted",/);
    const doc = JSON.parse(res.stdout) as SetupDoc;
    expect(doc.version).toBe(1);
    expect(doc.categories.map((c) => [c.id, c.weight])).toEqual([
      ['cat_quiz', 30],
      ['cat_project', 40],
      ['cat_final', 30],
    ]);
  });

  it('on a terminal: a readable summary; --course works like the argument', async () => {
    const res = await shared.run(['gradebook', 'setup', 'show', '--course', COURSE], { tty: { stdout: true } });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('mode      weighted   (version 1, updated 2026-08-01T09:00:00.000Z by usr_instructor)\n');
    expect(res.stdout).toContain('\n  cat_quiz       Quizzes              30%    drop lowest 1, highest 0, keep >= 1\n');
    expect(res.stdout).toContain('\n  cat_final      Final                30%    drop lowest 0, highest 0, keep >= 1, no late penalty\n');
    expect(res.stdout).toContain('late      10% of possible off per day, at most 5 (then hold-at-max), grace 15 min\n');
    expect(res.stdout).toContain('letters   Standard letters: A 93, A- 90, B+ 87,');
  });

  it('--json prints the API body exactly', async () => {
    const cli = await shared.run(['--json', 'gradebook', 'setup', 'show', '--course', COURSE]);
    const api = await shared.run(['--json', 'api', 'GET', `/courses/${COURSE}/gradebook/setup`]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(api.stdout);
  });

  it('without a course: a usage error naming --course (exit 2)', async () => {
    const res = await shared.run(['gradebook', 'setup', 'show']);
    expect(res).toMatchObject({ code: 2, stdout: '', stderr: MISSING_COURSE });
  });

  it('an unknown course is not-found (exit 5)', async () => {
    const res = await shared.run(['gradebook', 'setup', 'show', '--course', 'crs_nope']);
    expect(res).toMatchObject({ code: 5, stdout: '', stderr: 'error (not-found): Course "crs_nope" was not found.\n' });
    const json = await shared.run(['--json', 'gradebook', 'setup', 'show', '--course', 'crs_nope']);
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'not-found', message: 'Course "crs_nope" was not found.' } });
  });

  it('a student may not read the setup (exit 4)', async () => {
    const res = await shared.run(['--as', 'usr_s01', 'gradebook', 'setup', 'show', '--course', COURSE]);
    expect(res).toMatchObject({ code: 4, stdout: '', stderr: FORBIDDEN_STAFF });
  });
});

describe('gradebook setup set', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('replaces the setup from stdin and from a file, one version each', async () => {
    const doc = await setupOf(s);
    doc.late.percentPerPeriod = 5;
    const res = await s.run(['gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: JSON.stringify(doc) });
    expect(res).toMatchObject({ code: 0, stdout: '2\tweighted\n', stderr: '' });
    const saved = await setupOf(s);
    expect(saved).toMatchObject({ version: 2, late: { percentPerPeriod: 5 }, updatedBy: 'usr_admin', updatedAt: '2026-11-22T08:30:00.000Z' });

    saved.late.graceMinutes = 0;
    writeFileSync(join(s.dir, 'setup.json'), JSON.stringify(saved));
    const fromFile = await s.run(['--json', 'gradebook', 'setup', 'set', '--course', COURSE, '--file', 'setup.json'], { cwd: s.dir });
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ version: 3, late: { graceMinutes: 0, percentPerPeriod: 5 } });
  });

  it('a document at an old version is a conflict (exit 6) and changes nothing', async () => {
    const doc = await setupOf(s);
    const stale = { ...doc, version: doc.version - 1, mode: 'points' };
    const res = await s.run(['gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: JSON.stringify(stale) });
    expect(res.code).toBe(6);
    expect(res.stderr).toBe(`error (conflict): The setup is at version ${doc.version}, not ${doc.version - 1}; read it again and reapply your change.\n`);
    expect((await setupOf(s)).mode).toBe('weighted');
  });

  it('an invalid value is refused naming the field (exit 3)', async () => {
    const doc = await setupOf(s);
    doc.categories[0]!.weight = 130;
    const res = await s.run(['gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: JSON.stringify(doc) });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error \(invalid\): categories\[0\]\.weight: must be <= 100\n/);
    const empty = await s.run(['gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: '{}' });
    expect(empty.code).toBe(3);
    expect(empty.stderr).toContain('  mode: is required\n');
    expect((await setupOf(s)).categories[0]!.weight).toBe(30);
  });

  it('missing --file is a usage error (exit 2); text that is not JSON is invalid (exit 3)', async () => {
    expect(await s.run(['gradebook', 'setup', 'set', '--course', COURSE])).toMatchObject({ code: 2, stderr: 'error: missing --file\n' });
    const bad = await s.run(['gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: '{"version": ' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^error \(invalid\): standard input: not valid JSON: /);
  });

  it('a student may not replace the setup (exit 4)', async () => {
    const doc = await setupOf(s);
    const res = await s.run(['--as', 'usr_s02', 'gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: JSON.stringify(doc) });
    expect(res).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
  });

  it('a --file that does not exist is a usage error naming it (exit 2)', async () => {
    const res = await s.run(['gradebook', 'setup', 'set', '--course', COURSE, '--file', 'no-such-setup.json'], { cwd: s.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no-such-setup.json');
    expect(res.stderr).not.toMatch(/unexpected failure|\n {4}at /);
  });
});

describe('gradebook setup edit', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('opens the setup in the editor and saves the changed document', async () => {
    const seen: { fileName?: string; initial?: string } = {};
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], {
      ...TERMINAL,
      edit: async (initial, fileName) => {
        Object.assign(seen, { initial, fileName });
        return { text: initial.replace('"graceMinutes": 15', '"graceMinutes": 45') };
      },
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('version\n2\n');
    expect(seen.fileName).toBe('crs_data101-setup.json');
    expect(JSON.parse(seen.initial!)).toMatchObject({ version: 1, late: { graceMinutes: 15 } });
    expect(await setupOf(s)).toMatchObject({ version: 2, late: { graceMinutes: 45 } });
  });

  it('an editor that fails saves nothing (exit 2)', async () => {
    const before = await setupOf(s);
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], { ...TERMINAL, edit: async () => ({ failed: 'vi exited with 1' }) });
    expect(res).toMatchObject({ code: 2, stdout: '', stderr: 'error: vi exited with 1; nothing saved\n' });
    expect(await setupOf(s)).toEqual(before);
  });

  it('saving the text unchanged saves nothing', async () => {
    const before = await setupOf(s);
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], { ...TERMINAL, edit: async (initial) => ({ text: initial }) });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: 'no changes\n' });
    expect((await setupOf(s)).version).toBe(before.version);
  });

  /** An editor that plays the given turns in order and records what it was shown each time. */
  const editor = (...turns: ((shown: string) => string)[]) => {
    const shown: string[] = [];
    return {
      shown,
      edit: async (text: string) => {
        shown.push(text);
        const turn = turns.shift();
        if (!turn) throw new Error('the editor opened once more than the test expected');
        return { text: turn(text) };
      },
    };
  };
  const COMMENTS = /^(\/\/.*\n)+/;

  it('a value the service refuses reopens the editor on the edited text with the errors as comments; fixing it saves', async () => {
    const before = await setupOf(s);
    const ed = editor(
      (initial) => initial.replace('"mode": "weighted"', '"mode": "curved"').replace('"graceMinutes": 45', '"graceMinutes": 50'),
      (reopened) => reopened.replace('"mode": "curved"', '"mode": "weighted"'),
    );
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], { ...TERMINAL, edit: ed.edit });
    expect(res).toMatchObject({ code: 0, stdout: `version\n${before.version + 1}\n`, stderr: '' });
    expect(ed.shown).toHaveLength(2);
    expect(ed.shown[1]!.match(COMMENTS)![0]).toBe(
      [
        '// error (invalid): mode: must be one of "weighted", "points"',
        '// Saving failed. Fix the document below and save to try again; save it unchanged, or empty it, to give up.',
        '// These comment lines are removed before saving.',
        '',
      ].join('\n'),
    );
    // The user's other change survived the round trip.
    expect(ed.shown[1]).toContain('"graceMinutes": 50');
    expect(await setupOf(s)).toMatchObject({ version: before.version + 1, mode: 'weighted', late: { graceMinutes: 50 } });
  });

  it('text that is not JSON reopens too; saving the reopened file unchanged gives up (exit 3) and keeps the text in a file', async () => {
    const before = await setupOf(s);
    const ed = editor(
      (initial) => initial.replace('"graceMinutes": 50', '"graceMinutes": 55').slice(0, -3),
      (reopened) => reopened,
    );
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], { ...TERMINAL, edit: ed.edit, draftDir: s.dir });
    expect(res.code).toBe(3);
    const kept = join(s.dir, 'crs_data101-setup.json');
    expect(res.stderr).toMatch(
      new RegExp(`^your changes are kept in ${kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nerror \\(invalid\\): crs_data101-setup.json: not valid JSON: `),
    );
    expect(ed.shown[1]).toMatch(/^\/\/ error \(invalid\): crs_data101-setup\.json: not valid JSON: /);
    expect(readFileSync(kept, 'utf8')).toContain('"graceMinutes": 55');
    expect(readFileSync(kept, 'utf8')).not.toContain('//');
    expect(await setupOf(s)).toEqual(before);
  });

  it('emptying the reopened file cancels: nothing saved (exit 0)', async () => {
    const before = await setupOf(s);
    const ed = editor(
      (initial) => initial.replace('"mode": "weighted"', '"mode": "curved"'),
      () => '',
    );
    expect(await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], { ...TERMINAL, edit: ed.edit })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'the file was empty: edit cancelled, nothing saved\n',
    });
    expect(await setupOf(s)).toEqual(before);
  });

  it('someone saving while the editor is open makes the save a conflict: reopened with their version named; giving up exits 6', async () => {
    const before = await setupOf(s);
    const ed = editor(
      (initial) => {
        // Another user saves a change meanwhile (synchronously enough for the test: awaited below).
        return initial.replace(/"graceMinutes": \d+/, '"graceMinutes": 10');
      },
      (reopened) => reopened,
    );
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], {
      ...TERMINAL,
      draftDir: s.dir,
      edit: async (text) => {
        if (ed.shown.length === 0) {
          const other = { ...before, missing: { treatAs: 'exclude-until-graded', droppable: false } };
          await s.ok(['--as', 'usr_instructor', 'gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: JSON.stringify(other) });
        }
        return ed.edit(text);
      },
    });
    expect(res.code).toBe(6);
    expect(res.stderr).toBe(
      `your changes are kept in ${join(s.dir, 'crs_data101-setup.json')}\nerror (conflict): The setup is at version ${before.version + 1}, not ${before.version}; read it again and reapply your change.\n`,
    );
    expect(ed.shown[1]).toContain(`// Someone saved version ${before.version + 1} meanwhile: set "version" to it to replace their change with yours.\n`);
    expect(await setupOf(s)).toMatchObject({ version: before.version + 1, late: { graceMinutes: before.late.graceMinutes }, updatedBy: 'usr_instructor' });
  });

  it('after a conflict, taking the new version in the reopened file saves over it', async () => {
    const before = await setupOf(s);
    let first = true;
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], {
      ...TERMINAL,
      edit: async (text) => {
        if (first) {
          first = false;
          await s.ok(['--as', 'usr_instructor', 'gradebook', 'setup', 'set', '--course', COURSE, '--file', '-'], { input: JSON.stringify(before) });
          return { text: text.replace(/"graceMinutes": \d+/, '"graceMinutes": 12') };
        }
        return { text: text.replace(`"version": ${before.version}`, `"version": ${before.version + 1}`) };
      },
    });
    expect(res).toMatchObject({ code: 0, stdout: `version\n${before.version + 2}\n` });
    expect(await setupOf(s)).toMatchObject({ version: before.version + 2, late: { graceMinutes: 12 } });
  });

  it('not on a terminal: a usage error pointing to setup set (exit 2)', async () => {
    let opened = false;
    const res = await s.run(['gradebook', 'setup', 'edit', '--course', COURSE], { edit: async (initial) => ((opened = true), { text: initial }) });
    expect(res).toMatchObject({ code: 2, stderr: 'error: gradebook setup edit needs a terminal; use gradebook setup set --file instead\n' });
    expect(opened).toBe(false);
  });

  it('a student may not edit the setup (exit 4) and no editor opens', async () => {
    let opened = false;
    const res = await s.run(['--as', 'usr_s03', 'gradebook', 'setup', 'edit', '--course', COURSE], {
      ...TERMINAL,
      edit: async (initial) => ((opened = true), { text: initial }),
    });
    expect(res).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
    expect(opened).toBe(false);
  });
});

describe('gradebook checks', () => {
  it('lists the checks that fire as TSV: code, target, state, message', async () => {
    const res = await shared.run(['gradebook', 'checks', '--course', COURSE]);
    expect(res).toMatchObject({ code: 0, stdout: EMPTY_LINE + CHECK_LINE, stderr: '' });
  });

  it('--json prints the API array', async () => {
    const res = await shared.run(['--json', 'gradebook', 'checks', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([
      { code: 'category-empty', target: 'cat_final', message: 'Category "Final" has no published items.', dismissed: false },
      {
        code: 'item-zero-points',
        target: 'asg_06',
        message: '"Bonus: find a misleading average in the news" is worth 0 points, so it counts as extra credit.',
        dismissed: false,
      },
    ]);
  });

  it('an unknown course exits 5; no course exits 2; a student exits 4', async () => {
    expect(await shared.run(['gradebook', 'checks', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await shared.run(['gradebook', 'checks'])).toMatchObject({ code: 2, stderr: MISSING_COURSE });
    expect(await shared.run(['--as', 'usr_s01', 'gradebook', 'checks', '--course', COURSE])).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
  });
});

describe('gradebook dismiss', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('with --code and --target: dismisses it, bumps the version, and checks --open hides it', async () => {
    const res = await s.run(['gradebook', 'dismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
    expect(res).toMatchObject({ code: 0, stdout: 'item-zero-points (asg_06)\t2\n', stderr: '' });
    expect(await s.ok(['gradebook', 'checks', '--course', COURSE])).toBe(EMPTY_LINE + CHECK_LINE.replace('\topen\t', '\tdismissed\t'));
    expect(await s.ok(['gradebook', 'checks', '--open', COURSE])).toBe(EMPTY_LINE);
    // --open filters the JSON (and --query) as well: only open checks, in the API's own layout.
    expect(JSON.parse(await s.ok(['--json', 'gradebook', 'checks', '--open', COURSE]))).toMatchObject([{ code: 'category-empty', dismissed: false }]);
    expect(JSON.parse(await s.ok(['--json', 'gradebook', 'checks', '--course', COURSE]))).toMatchObject([
      { code: 'category-empty', dismissed: false },
      { code: 'item-zero-points', dismissed: true },
    ]);
    expect(await s.ok(['gradebook', 'checks', '--open', COURSE, '--query', 'length(@)'])).toBe('1\n');
    expect((await setupOf(s)).dismissedChecks).toHaveLength(1);
    await s.ok(['gradebook', 'undismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
  });

  it('on a terminal without --code: picks from the open checks', async () => {
    const { version } = await setupOf(s);
    const prompter = choosing(['1']);
    const res = await s.run(['gradebook', 'dismiss', '--course', COURSE], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Dismiss which check?']);
    expect(prompter.offered).toEqual([
      [
        'category-empty (cat_final): Category "Final" has no published items.',
        'item-zero-points (asg_06): "Bonus: find a misleading average in the news" is worth 0 points, so it counts as extra credit.',
      ],
    ]);
    expect(res.stdout).toMatch(new RegExp(`^dismissed +version\\nitem-zero-points \\(asg_06\\) +${version + 1}\\n$`));
    expect(await s.ok(['gradebook', 'checks', '--open', COURSE])).toBe(EMPTY_LINE);
    await s.ok(['gradebook', 'dismiss', '--course', COURSE, '--code', 'category-empty', '--target', 'cat_final']);
  });

  it('on a terminal with no open checks: says so and asks nothing', async () => {
    const prompter = scriptedPrompter([]);
    const res = await s.run(['gradebook', 'dismiss', '--course', COURSE], { ...TERMINAL, prompter });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: 'no open checks\n' });
    expect(prompter.asked).toEqual([]);
  });

  it('not interactive: a missing --code or --target is a usage error naming it (exit 2)', async () => {
    expect(await s.run(['gradebook', 'dismiss', '--course', COURSE])).toMatchObject({ code: 2, stderr: 'error: missing --code\n' });
    expect(await s.run(['gradebook', 'dismiss', '--course', COURSE, '--code', 'item-zero-points'])).toMatchObject({
      code: 2,
      stderr: 'error: missing --target\n',
    });
    expect(await s.run(['--no-input', 'gradebook', 'dismiss', '--course', COURSE], TERMINAL)).toMatchObject({ code: 2, stderr: 'error: missing --code\n' });
  });

  it('an unknown check code is invalid naming the field (exit 3)', async () => {
    const res = await s.run(['gradebook', 'dismiss', '--course', COURSE, '--code', 'too-hard', '--target', 'course']);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error \(invalid\): --code: must be one of "weights-not-100", /);
  });

  it('a student may not dismiss a check (exit 4)', async () => {
    const res = await s.run(['--as', 'usr_s01', 'gradebook', 'dismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
    expect(res).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
  });
});

describe('gradebook undismiss', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
    await s.ok(['gradebook', 'dismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
  });

  it('undoes a dismissal: the check is open again and the version goes up', async () => {
    const res = await s.run(['gradebook', 'undismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
    expect(res).toMatchObject({ code: 0, stdout: 'item-zero-points (asg_06)\t3\n', stderr: '' });
    expect(await s.ok(['gradebook', 'checks', '--open', COURSE])).toBe(EMPTY_LINE + CHECK_LINE);
  });

  it('a check that is not dismissed is not-found (exit 5)', async () => {
    const res = await s.run(['gradebook', 'undismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_01']);
    expect(res).toMatchObject({ code: 5, stderr: 'error (not-found): The check item-zero-points for "asg_01" is not dismissed.\n' });
  });

  it('missing --code or --target is a usage error naming it (exit 2); an unknown code exits 3', async () => {
    expect(await s.run(['gradebook', 'undismiss', '--course', COURSE, '--target', 'asg_06'])).toMatchObject({ code: 2, stderr: 'error: missing --code\n' });
    expect(await s.run(['gradebook', 'undismiss', '--course', COURSE, '--code', 'item-zero-points'])).toMatchObject({
      code: 2,
      stderr: 'error: missing --target\n',
    });
    const bad = await s.run(['gradebook', 'undismiss', '--course', COURSE, '--code', 'too-hard', '--target', 'course']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^error \(invalid\): --code: must be one of /);
  });

  it('a student may not undo a dismissal (exit 4)', async () => {
    await s.ok(['gradebook', 'dismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
    const res = await s.run(['--as', 'usr_s04', 'gradebook', 'undismiss', '--course', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
    expect(res).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
    expect(await s.ok(['gradebook', 'checks', '--open', COURSE])).toBe(EMPTY_LINE);
  });
});
