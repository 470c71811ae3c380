/**
 * The content lifecycle commands (#14) in-process on the demo store: crs_data101 with
 * mod_01 and mod_02 published (their assignments have submissions) and mod_03 a draft
 * holding les_05 (three blocks) and asg_07 (no submissions).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type CliResult, scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

let stores: CliStore[] = [];
afterEach(() => {
  for (const s of stores) s.cleanup();
  stores = [];
});

async function demo(dataset?: Record<string, unknown>): Promise<CliStore> {
  const s = await cliStore(dataset ?? 'demo');
  stores.push(s);
  return s;
}

const FORBIDDEN_WRITE = "error (forbidden): Only the course's instructors and admins may do this.\n";
const TTY = { tty: { stdin: true, stdout: true }, env: { CI: '' } };

function expectError(res: CliResult, code: number, stderr: string): void {
  expect(res).toEqual({ code, stdout: '', stderr });
}

const fields = (out: string): Record<string, string> =>
  Object.fromEntries(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)]),
  );

describe('courses unpublish', () => {
  it('returns a published course to draft (publishedAt cleared); a draft stays a draft', async () => {
    const s = await demo({
      coursebook: 1,
      users: [{ id: 'boss', name: 'Boss', admin: true }],
      courses: [{ id: 'crs_live', title: 'Live course', status: 'published', publishedAt: '2026-10-01T00:00:00Z' }],
    });
    expect(fields(await s.ok(['courses', 'unpublish', 'crs_live']))).toMatchObject({ id: 'crs_live', status: 'draft', publishedAt: '' });
    expect(JSON.parse(await s.ok(['--json', 'courses', 'unpublish', 'crs_live']))).toMatchObject({ status: 'draft', publishedAt: null });
  });

  it('students may not (exit 4); an unknown course is not-found (exit 5)', async () => {
    const s = await demo();
    expectError(await s.run(['--as', 'usr_s01', 'courses', 'unpublish', 'crs_data101']), 4, FORBIDDEN_WRITE);
    expectError(await s.run(['courses', 'unpublish', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
  });
});

describe('modules publish', () => {
  it('publishes a draft module: students then see it in the course', async () => {
    const s = await demo();
    const listed = async () => (await s.ok(['--as', 'usr_s01', 'modules', 'list', '--course', 'crs_data101'])).split('\n').filter(Boolean).length;
    expect(await listed()).toBe(2);
    expect(fields(await s.ok(['modules', 'publish', 'mod_03']))).toMatchObject({ id: 'mod_03', status: 'published' });
    expect(await listed()).toBe(3);
  });

  it('a student may not (exit 4); an unknown module is not-found (exit 5)', async () => {
    const s = await demo();
    expectError(await s.run(['--as', 'usr_s01', 'modules', 'publish', 'mod_01']), 4, FORBIDDEN_WRITE);
    expectError(await s.run(['modules', 'publish', 'mod_nope']), 5, 'error (not-found): Module "mod_nope" was not found.\n');
  });
});

describe('modules unpublish', () => {
  it('returns a module without student work to draft', async () => {
    const s = await demo();
    await s.ok(['modules', 'publish', 'mod_03']);
    expect(fields(await s.ok(['--as', 'usr_instructor', 'modules', 'unpublish', 'mod_03']))).toMatchObject({ id: 'mod_03', status: 'draft' });
  });

  it('refuses a module whose assignments have submissions, naming them (exit 6)', async () => {
    const s = await demo();
    expectError(
      await s.run(['modules', 'unpublish', 'mod_01']),
      6,
      'error (conflict): Student work would be lost: asg_01 ("Quiz: kinds of dirty data", 25 submissions) would be hidden in a draft module; asg_02 ("Clean the survey table", 25 submissions) would be hidden in a draft module. Nothing was changed.\n',
    );
  });
});

describe('modules delete', () => {
  it('says what goes and asks on a terminal; --yes deletes the module with its lessons and assignment', async () => {
    const s = await demo();
    const no = scriptedPrompter([false]);
    expect(await s.run(['modules', 'delete', 'mod_03'], { ...TTY, prompter: no })).toEqual({ code: 0, stdout: '', stderr: 'nothing deleted\n' });
    expect(no.asked).toEqual(['Delete module mod_03 "Telling the story" with 1 lesson and 1 assignment?']);
    expect(await s.run(['modules', 'delete', 'mod_03', '--yes'])).toEqual({ code: 0, stdout: 'ok\ttrue\nid\tmod_03\n', stderr: '' });
    expectError(await s.run(['lessons', 'show', 'les_05']), 5, 'error (not-found): Lesson "les_05" was not found.\n');
    expectError(await s.run(['assignments', 'show', 'asg_07']), 5, 'error (not-found): Assignment "asg_07" was not found.\n');
  });

  it('needs --yes off a terminal (exit 2); refuses a module with student work (exit 6)', async () => {
    const s = await demo();
    expectError(await s.run(['modules', 'delete', 'mod_03']), 2, 'error: deleting needs --yes when not interactive\n');
    const res = await s.run(['modules', 'delete', 'mod_02', '--yes']);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(/^error \(conflict\): Student work would be lost: asg_03 \("Quiz: averages", 23 submissions\) would be deleted; /);
    expect((await s.run(['modules', 'show', 'mod_02'])).code).toBe(0);
  });
});

describe('lessons unpublish', () => {
  it('returns a lesson to draft: students no longer see it', async () => {
    const s = await demo();
    expect(fields(await s.ok(['lessons', 'unpublish', 'les_02']))).toMatchObject({ id: 'les_02', status: 'draft', publishedAt: '' });
    expectError(await s.run(['--as', 'usr_s01', 'lessons', 'show', 'les_02']), 5, 'error (not-found): Lesson "les_02" was not found.\n');
  });

  it('a reviewer may not (exit 4); an unknown lesson is not-found (exit 5)', async () => {
    const s = await demo();
    expectError(await s.run(['--as', 'usr_reviewer', 'lessons', 'unpublish', 'les_01']), 4, FORBIDDEN_WRITE);
    expectError(await s.run(['lessons', 'unpublish', 'les_nope']), 5, 'error (not-found): Lesson "les_nope" was not found.\n');
  });
});

describe('lessons delete', () => {
  it('asks on a terminal naming its blocks; --yes deletes it and the later lessons close the gap', async () => {
    const s = await demo();
    const yes = scriptedPrompter([true]);
    expect((await s.run(['lessons', 'delete', 'les_01'], { ...TTY, prompter: yes })).code).toBe(0);
    expect(yes.asked).toEqual([expect.stringMatching(/^Delete lesson les_01 ".+" with \d+ blocks\?$/)]);
    expect(fields(await s.ok(['lessons', 'show', 'les_02'])).position).toBe('0');
    expect(await s.run(['lessons', 'delete', 'les_05', '--yes'])).toEqual({ code: 0, stdout: 'ok\ttrue\nid\tles_05\n', stderr: '' });
  });

  it('needs --yes off a terminal (exit 2); a student may not (exit 4)', async () => {
    const s = await demo();
    expectError(await s.run(['lessons', 'delete', 'les_05']), 2, 'error: deleting needs --yes when not interactive\n');
    expectError(await s.run(['--as', 'usr_s01', 'lessons', 'delete', 'les_01', '--yes']), 4, FORBIDDEN_WRITE);
  });
});

describe('assignments delete', () => {
  it('deletes an assignment without submissions (asking first on a terminal)', async () => {
    const s = await demo();
    const yes = scriptedPrompter([true]);
    // On a terminal the answer is a field list.
    expect(await s.run(['assignments', 'delete', 'asg_07'], { ...TTY, prompter: yes })).toEqual({ code: 0, stdout: 'ok  true\nid  asg_07\n', stderr: '' });
    expect(yes.asked).toEqual(['Delete assignment asg_07 "Final chart"?']);
    expectError(await s.run(['assignments', 'show', 'asg_07']), 5, 'error (not-found): Assignment "asg_07" was not found.\n');
  });

  it('refuses one with submissions, naming it (exit 6); needs --yes off a terminal (exit 2)', async () => {
    const s = await demo();
    expectError(
      await s.run(['assignments', 'delete', 'asg_06', '--yes']),
      6,
      'error (conflict): Student work would be lost: asg_06 ("Bonus: find a misleading average in the news", 3 submissions) would be deleted. Nothing was changed.\n',
    );
    expectError(await s.run(['assignments', 'delete', 'asg_07']), 2, 'error: deleting needs --yes when not interactive\n');
  });
});
