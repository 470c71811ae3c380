/**
 * In-process tests of gradebook categories list|add|update|remove and of moving several
 * assignments with `assignments update --category` (issue #13), in local mode against the
 * demo store: crs_data101 has cat_quiz (position 0, weight 30, asg_01 03 04 06), cat_project
 * (1, 40, asg_02 05) and cat_final (2, 30, asg_07), at setup version 1. Each describe that
 * writes has a store of its own, so versions are exact.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/command.js';
import { type CliResult, scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";

const COURSE = 'crs_data101';
const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const FORBIDDEN = "error (forbidden): Only the course's instructors and admins may do this.\n";

const stores: CliStore[] = [];
async function newStore(): Promise<CliStore> {
  const s = await cliStore();
  stores.push(s);
  return s;
}
afterAll(() => stores.forEach((s) => s.cleanup()));

interface SetupDoc {
  version: number;
  mode: string;
  categories: { id: string; name: string; position: number; weight: number; drop: Record<string, number>; lateApplies: boolean }[];
  studentNotes: unknown[];
}
const setupOf = async (s: CliStore): Promise<SetupDoc> => JSON.parse(await s.ok(['--json', 'gradebook', 'setup', 'show', '--course', COURSE])) as SetupDoc;
const categoryOf = async (s: CliStore, id: string) =>
  (JSON.parse(await s.ok(['--json', 'assignments', 'show', id])) as { categoryId: string | null }).categoryId;
const rows = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));

function expectError(res: CliResult, code: number, stderr: string): void {
  expect(res.stderr).toBe(stderr);
  expect(res.code).toBe(code);
  expect(res.stdout).toBe('');
}

/** A prompter that, when first asked, lets another user save the setup (a concurrent edit), then answers. */
function racing(s: CliStore, answers: unknown[]): Prompter & { asked: string[] } {
  const prompter = scriptedPrompter(answers);
  let raced = false;
  const race = async () => {
    if (raced) return;
    raced = true;
    await s.ok(['--as', 'usr_instructor', 'gradebook', 'setup', 'late', '--course', COURSE, '--grace', '30']);
  };
  return {
    ...prompter,
    input: async (m, o) => (await race(), prompter.input(m, o)),
    select: async (m, c) => (await race(), prompter.select(m, c)),
  };
}

const CONFLICT_1_2 =
  'error (conflict): The gradebook setup changed while you worked: it is at version 2 now, this change was made on version 1. ' +
  'Nothing was saved; run the command again to apply it to the current setup.\n';

describe('gradebook categories list', () => {
  it('piped: one row per category in position order, with drops, late and the number of assignments', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'list', '--course', COURSE]);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(rows(res.stdout)).toEqual([
      ['cat_quiz', 'Quizzes', '0', '30', 'drop lowest 1, highest 0, keep >= 1', 'applies', '4'],
      ['cat_project', 'Projects', '1', '40', 'drop lowest 0, highest 0, keep >= 1', 'applies', '2'],
      ['cat_final', 'Final', '2', '30', 'drop lowest 0, highest 0, keep >= 1', 'no', '1'],
    ]);
  });

  it('on a terminal: a table with headers; --json prints the setup exactly as the API sends it', async () => {
    const s = await newStore();
    const tty = await s.run(['gradebook', 'categories', 'list', '--course', COURSE], { tty: { stdout: true } });
    expect(tty.stdout.split('\n')[0]).toMatch(/^ID +NAME +POSITION +WEIGHT +DROPS +LATE +ASSIGNMENTS$/);
    const json = await s.run(['--json', 'gradebook', 'categories', 'list', '--course', COURSE]);
    expect(json.stdout).toBe((await s.run(['--json', 'api', 'GET', `/courses/${COURSE}/gradebook/setup`])).stdout);
  });

  it('a new course (courses create, templates use, courses import) has the Assignments category; assignments land in it', async () => {
    const s = await newStore();
    await s.ok(['courses', 'create', '--id', 'crs_new', '--title', 'New']);
    const module = (JSON.parse(await s.ok(['--json', 'modules', 'create', '--course', 'crs_new', '--title', 'Week 1'])) as { id: string }).id;
    const created = JSON.parse(await s.ok(['--json', 'assignments', 'create', '--module', module, '--title', 'Essay', '--points', '10'])) as {
      categoryId: string;
    };
    expect(created.categoryId).toBe('assignments');
    expect(rows(await s.ok(['gradebook', 'categories', 'list', '--course', 'crs_new']))).toEqual([
      ['assignments', 'Assignments', '0', '100', 'drop lowest 0, highest 0, keep >= 1', 'applies', '1'],
    ]);
    await s.ok(['templates', 'use', 'tpl_standard', '--title', 'From template', '--id', 'crs_tpl']);
    const file = {
      coursebookCourse: 1,
      course: { id: 'crs_file', title: 'From a file' },
      modules: [{ title: 'M', assignments: [{ title: 'Quiz', points: 5 }] }],
    };
    await s.ok(['courses', 'import', '-'], { input: JSON.stringify(file) });
    for (const course of ['crs_tpl', 'crs_file']) {
      expect(rows(await s.ok(['gradebook', 'categories', 'list', '--course', course])).map((r) => r.slice(0, 4))).toEqual([
        ['assignments', 'Assignments', '0', '100'],
      ]);
    }
    expect(rows(await s.ok(['gradebook', 'categories', 'list', '--course', 'crs_file']))[0]![6]).toBe('1');
  });

  it('no course: exit 2; an unknown course: exit 5; a student: exit 4', async () => {
    const s = await newStore();
    expectError(await s.run(['gradebook', 'categories', 'list']), 2, MISSING_COURSE);
    expectError(await s.run(['gradebook', 'categories', 'list', '--course', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
    expectError(await s.run(['--as', 'usr_s01', 'gradebook', 'categories', 'list', '--course', COURSE]), 4, FORBIDDEN);
  });
});

describe('gradebook categories create', () => {
  it('adds a category last, its id made from the name, with the given weight and drops (one setup version)', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Labs & Practice', '--drop-lowest', '2', '--no-late']);
    expect(res.code).toBe(0);
    // Weighted mode, weights still sum to 100 (a new category weighs 0): no note.
    expect(res.stderr).toBe('');
    expect(rows(res.stdout).at(-1)).toEqual(['labs-practice', 'Labs & Practice', '3', '0', 'drop lowest 2, highest 0, keep >= 1', 'no']);
    const setup = await setupOf(s);
    expect(setup.version).toBe(2);
    expect(setup.categories.at(-1)).toEqual({
      id: 'labs-practice',
      courseId: COURSE,
      name: 'Labs & Practice',
      position: 3,
      weight: 0,
      drop: { lowest: 2, highest: 0, keepAtLeast: 1 },
      lateApplies: false,
    });
  });

  it('--position puts it there and renumbers the others; a weight sum off 100 is noted on stderr', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Labs', '--id', 'lab', '--weight', '10', '--position', '1']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('note: category weights now sum to 110, not 100 (weighted mode); see gradebook checks\n');
    expect((await setupOf(s)).categories.map((c) => [c.id, c.position])).toEqual([
      ['cat_quiz', 0],
      ['lab', 1],
      ['cat_project', 2],
      ['cat_final', 3],
    ]);
  });

  it('on a terminal asks for the name; --json prints the saved setup', async () => {
    const s = await newStore();
    const prompter = scriptedPrompter(['Participation']);
    const res = await s.run(['--json', 'gradebook', 'categories', 'create', '--course', COURSE, '--weight', '0'], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Category name?']);
    expect(JSON.parse(res.stdout)).toMatchObject({ version: 2, categories: expect.arrayContaining([expect.objectContaining({ id: 'participation' })]) });
  });

  it('values out of range are invalid, named by their flags (exit 3), and nothing is saved', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Bad', '--weight', '120', '--keep-at-least', '0']);
    expectError(res, 3, 'error (invalid): 2 problems: --weight, --keep-at-least\n  --weight: must be <= 100\n  --keep-at-least: must be >= 1\n');
    expect((await setupOf(s)).version).toBe(1);
    // --json prints the API's envelope as it is: the setup's field paths, for programs.
    const json = await s.run(['--json', 'gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Bad', '--weight', '120']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr).error.details).toEqual([{ path: 'categories[3].weight', message: 'must be <= 100' }]);
  });

  it('an id already used, a missing --name or a non-number are usage errors (exit 2)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Quizzes', '--id', 'cat_quiz']),
      2,
      'error: the setup already has a category with id "cat_quiz" (Quizzes); give another --id\n',
    );
    expectError(await s.run(['gradebook', 'categories', 'create', '--course', COURSE]), 2, 'error: missing --name\n');
    expectError(
      await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'X', '--weight', 'lots']),
      2,
      'error: --weight must be a number (got "lots")\n',
    );
  });

  it('a concurrent save is a conflict with a clear message (exit 6); nothing is lost', async () => {
    const s = await newStore();
    // The setup is read, then someone saves while the name is asked.
    const res = await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--weight', '0'], { ...TERMINAL, prompter: racing(s, ['Labs']) });
    expectError(res, 6, CONFLICT_1_2);
    const setup = (await setupOf(s)) as SetupDoc & { late: { graceMinutes: number } };
    expect(setup).toMatchObject({ version: 2, late: { graceMinutes: 30 } });
    expect(setup.categories.map((c) => c.id)).toEqual(['cat_quiz', 'cat_project', 'cat_final']);
    // Run again: applied to the current setup.
    expect((await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Labs'])).code).toBe(0);
    expect((await setupOf(s)).version).toBe(3);
  });

  it('--expected-version that is not the current one is the same conflict', async () => {
    const s = await newStore();
    await s.ok(['gradebook', 'setup', 'late', '--course', COURSE, '--grace', '30']);
    expectError(await s.run(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Labs', '--expected-version', '1']), 6, CONFLICT_1_2);
  });
});

describe('gradebook categories update', () => {
  it('changes only the given fields; --position moves it and renumbers', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'update', 'cat_final', '--course', COURSE, '--name', 'Final project', '--late', '--position', '0']);
    expect(res.code).toBe(0);
    expect(rows(res.stdout)[0]).toEqual(['cat_final', 'Final project', '0', '30', 'drop lowest 0, highest 0, keep >= 1', 'applies']);
    const setup = await setupOf(s);
    expect(setup.categories.map((c) => [c.id, c.position])).toEqual([
      ['cat_final', 0],
      ['cat_quiz', 1],
      ['cat_project', 2],
    ]);
    expect(setup.version).toBe(2);
  });

  it('weights can be rebalanced one category at a time, each noted until they sum to 100', async () => {
    const s = await newStore();
    const first = await s.run(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--weight', '20']);
    expect(first.stderr).toBe('note: category weights now sum to 90, not 100 (weighted mode); see gradebook checks\n');
    const second = await s.run(['gradebook', 'categories', 'update', 'cat_project', '--course', COURSE, '--weight', '50', '--drop-highest', '1']);
    expect(second).toMatchObject({ code: 0, stderr: '' });
  });

  it('nothing to change is a usage error (exit 2); an unknown category is not-found (exit 5), as for delete', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE]),
      2,
      'error: nothing to change: give at least one of --name, --weight, --drop-lowest, --drop-highest, --keep-at-least, --late/--no-late, --position\n',
    );
    expectError(
      await s.run(['gradebook', 'categories', 'update', 'cat_nope', '--course', COURSE, '--weight', '5']),
      5,
      'error (not-found): Category "cat_nope" is not in the gradebook setup of course "crs_data101" (its categories: cat_quiz, cat_project, cat_final).\n',
    );
  });

  it('an invalid value names its flag (exit 3); a stale --expected-version is a conflict (exit 6)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--drop-lowest', '1.5']),
      3,
      'error (invalid): --drop-lowest: must be an integer\n',
    );
    expectError(
      await s.run(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--name', '']),
      3,
      'error (invalid): --name: must not be empty\n',
    );
    await s.ok(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--name', 'Quick quizzes']);
    expectError(
      await s.run(['gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--weight', '25', '--expected-version', '1']),
      6,
      CONFLICT_1_2,
    );
  });

  it('a reviewer may not change categories (exit 4)', async () => {
    const s = await newStore();
    expectError(await s.run(['--as', 'usr_reviewer', 'gradebook', 'categories', 'update', 'cat_quiz', '--course', COURSE, '--weight', '25']), 4, FORBIDDEN);
  });
});

describe('gradebook categories delete', () => {
  it('a category that holds assignments is refused without --move-to when not interactive (exit 6), and nothing changes', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'categories', 'delete', 'cat_project', '--course', COURSE]),
      6,
      'error (conflict): cat_project holds 2 assignments: give --move-to CATEGORY (cat_quiz, cat_final) to move them there; nothing changed.\n',
    );
    expect((await setupOf(s)).categories).toHaveLength(3);
    expect(await categoryOf(s, 'asg_02')).toBe('cat_project');
  });

  it('--move-to moves its assignments, then removes it, in one step (one setup version)', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'delete', 'cat_project', '--course', COURSE, '--move-to', 'cat_final', '--yes']);
    expect(res).toMatchObject({
      code: 0,
      stderr: 'moved 2 assignments to cat_final\nnote: category weights now sum to 60, not 100 (weighted mode); see gradebook checks\n',
    });
    expect(rows(res.stdout).map((r) => r[0])).toEqual(['cat_quiz', 'cat_final']);
    expect([await categoryOf(s, 'asg_02'), await categoryOf(s, 'asg_05')]).toEqual(['cat_final', 'cat_final']);
    expect((await setupOf(s)).version).toBe(2);
  });

  it('on a terminal asks where the assignments go (the other categories, or cancel)', async () => {
    const s = await newStore();
    const offered: string[][] = [];
    const prompter = scriptedPrompter(['cat_quiz']);
    const select = prompter.select;
    prompter.select = async (message, choices) => (offered.push(choices.map((c) => c.name)), select(message, choices));
    const res = await s.run(['gradebook', 'categories', 'delete', 'cat_final', '--course', COURSE], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['cat_final holds 1 assignment. Move it to which category?']);
    expect(offered).toEqual([['cat_quiz (Quizzes)', 'cat_project (Projects)', 'cancel: remove nothing']]);
    expect(await categoryOf(s, 'asg_07')).toBe('cat_quiz');
  });

  it('cancel at the question removes nothing', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'delete', 'cat_final', '--course', COURSE], {
      ...TERMINAL,
      prompter: scriptedPrompter(['\u0000cancel']),
    });
    expect(res).toEqual({ code: 0, stdout: '', stderr: 'nothing changed\n' });
    expect((await setupOf(s)).version).toBe(1);
  });

  it('a removal that would go ahead asks first on a terminal; no is nothing changed', async () => {
    const s = await newStore();
    await s.ok(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Spare']);
    const prompter = scriptedPrompter([false]);
    expect(await s.run(['gradebook', 'categories', 'delete', 'spare', '--course', COURSE], { ...TERMINAL, prompter })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'nothing changed\n',
    });
    expect(prompter.asked).toEqual(['Remove category spare?']);
    const moving = scriptedPrompter([true]);
    const res = await s.run(['gradebook', 'categories', 'delete', 'cat_project', '--course', COURSE, '--move-to', 'cat_final'], {
      ...TERMINAL,
      prompter: moving,
    });
    expect(res.code).toBe(0);
    expect(moving.asked).toEqual(['Remove category cat_project (its 2 assignments move to cat_final)?']);
    expect((await setupOf(s)).categories.map((c) => c.id)).toEqual(['cat_quiz', 'cat_final', 'spare']);
  });

  it('off a terminal a removal needs --yes (exit 2, nothing removed); with it the empty category goes', async () => {
    const s = await newStore();
    await s.ok(['gradebook', 'categories', 'create', '--course', COURSE, '--name', 'Spare']);
    expectError(
      await s.run(['gradebook', 'categories', 'delete', 'spare', '--course', COURSE]),
      2,
      'error: removing a category needs --yes when not interactive\n',
    );
    expect((await setupOf(s)).categories).toHaveLength(4);
    expect((await s.run(['gradebook', 'categories', 'delete', 'spare', '--course', COURSE, '--yes'])).code).toBe(0);
    expect((await setupOf(s)).categories.map((c) => c.id)).toEqual(['cat_quiz', 'cat_project', 'cat_final']);
  });

  it('a concurrent save while it asks is a conflict (exit 6): nothing moves, nothing is removed', async () => {
    const s = await newStore();
    const res = await s.run(['gradebook', 'categories', 'delete', 'cat_final', '--course', COURSE], { ...TERMINAL, prompter: racing(s, ['cat_quiz']) });
    expectError(res, 6, CONFLICT_1_2);
    expect(await categoryOf(s, 'asg_07')).toBe('cat_final');
    expect((await setupOf(s)).categories).toHaveLength(3);
  });

  it('--move-to naming no category is invalid, named by the flag (exit 3); an unknown category is not-found (exit 5)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['gradebook', 'categories', 'delete', 'cat_final', '--course', COURSE, '--move-to', 'cat_exams', '--yes']),
      3,
      `error (invalid): --move-to: "cat_exams" is not a category of the course's gradebook setup (its categories: cat_quiz, cat_project, cat_final)\n`,
    );
    expectError(
      await s.run(['gradebook', 'categories', 'delete', 'cat_nope', '--course', COURSE]),
      5,
      'error (not-found): Category "cat_nope" is not in the gradebook setup of course "crs_data101".\n',
    );
  });
});

describe('assignments update', () => {
  it('several ids with --category move together in one request', async () => {
    const s = await newStore();
    const res = await s.run(['assignments', 'update', 'asg_01', 'asg_07', '--category', 'cat_project']);
    expect(res.code).toBe(0);
    expect(rows(res.stdout).map((r) => [r[0], r[5]])).toEqual([
      ['asg_01', 'cat_project'],
      ['asg_07', 'cat_project'],
    ]);
  });

  it('--all-in-module moves every assignment of a module (drafts too); --category none takes them out', async () => {
    const s = await newStore();
    const module = (JSON.parse(await s.ok(['--json', 'assignments', 'show', 'asg_01'])) as { moduleId: string }).moduleId;
    const res = await s.run(['--json', 'assignments', 'update', '--all-in-module', module, '--category', 'cat_final']);
    expect(res.code).toBe(0);
    const moved = JSON.parse(res.stdout) as { id: string; moduleId: string; categoryId: string }[];
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((a) => a.moduleId === module && a.categoryId === 'cat_final')).toBe(true);
    await s.ok(['assignments', 'update', 'asg_01', 'asg_03', '--category', 'none']);
    expect(await categoryOf(s, 'asg_03')).toBeNull();
  });

  it('all or nothing: an unknown id or category is listed (exit 3) and nothing moves', async () => {
    const s = await newStore();
    const res = await s.run(['assignments', 'update', 'asg_01', 'asg_nope', '--category', 'cat_final']);
    expectError(res, 3, 'error (invalid): assignmentIds[1]: no assignment "asg_nope" in course "crs_data101"\n');
    expect(await categoryOf(s, 'asg_01')).toBe('cat_quiz');
    expectError(
      await s.run(['assignments', 'update', 'asg_01', 'asg_02', '--category', 'cat_x']),
      3,
      `error (invalid): --category: "cat_x" is not a category of the course's gradebook setup (its categories: cat_quiz, cat_project, cat_final)\n`,
    );
  });

  it('several assignments take only --category; ids and --all-in-module exclude each other (exit 2)', async () => {
    const s = await newStore();
    expectError(
      await s.run(['assignments', 'update', 'asg_01', 'asg_02', '--points', '5']),
      2,
      'error: several assignments at once take only --category (change other fields one assignment at a time)\n',
    );
    expectError(
      await s.run(['assignments', 'update', 'asg_01', '--all-in-module', 'mod_x', '--category', 'cat_quiz']),
      2,
      'error: give assignment ids or --all-in-module, not both\n',
    );
    expectError(await s.run(['assignments', 'update', '--category', 'cat_quiz']), 2, 'error: missing assignment id (or --all-in-module MODULE)\n');
  });
});
