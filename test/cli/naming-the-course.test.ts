/**
 * Naming the course (docs/cli.md): -c/--course on every command that works inside a
 * course, its defaults (COURSEBOOK_COURSE, then the profile's course; flag > env >
 * profile), the positional ids of 0.1 with their one deprecation note, the old verbs kept
 * as aliases, and prompts on a terminal: pick lists of the ids the caller can see and
 * answers checked as they are typed; never a prompt when stdin is not a terminal.
 */
import { describe, expect, it } from 'vitest';
import { commandOptions } from '../../src/cli/global-options.js';
import { COMMANDS } from '../../src/commands/index.js';
import { runCli, scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, demoStore, rows, storesForThisFile } from '../helpers/cli-store.js';

const COURSE = 'crs_data101';
const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";
const NOT_FOUND = 'error (not-found): Course "crs_nope" was not found.\n';
const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const LETTERS = ['A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F'];
const STUDENTS = Array.from({ length: 25 }, (_, i) => `usr_s${String(i + 1).padStart(2, '0')}`);

/** A scripted prompter that also records what each input prompt says to these typed answers. */
function probing(answers: unknown[], probes: Record<string, string[]>) {
  const prompter = scriptedPrompter(answers);
  const verdicts: Record<string, (true | string)[]> = {};
  const input = prompter.input;
  prompter.input = async (message, options) => {
    const typed = probes[message];
    if (typed) verdicts[message] = typed.map((answer) => options?.validate?.(answer) ?? true);
    return input(message, options);
  };
  return Object.assign(prompter, { verdicts });
}

/** The commands where the course is the object itself: they keep their course id argument. */
const COURSE_IS_THE_OBJECT = [
  'courses show',
  'courses update',
  'courses export',
  'courses publish',
  'courses unpublish',
  'courses push',
  'courses pull',
  'courses diff',
];

describe('-c/--course', () => {
  const demo = demoStore();

  it('every command inside a course takes -c/--course; only commands about the course itself take its id as an argument', () => {
    const withArgument = COMMANDS.filter((def) => (def.args ?? []).some((a) => /courseId/.test(a.name))).map((def) => def.name);
    expect(withArgument.sort()).toEqual([...COURSE_IS_THE_OBJECT].sort());
    const inCourse = COMMANDS.filter((def) => def.parents?.some((p) => p.kind === 'course'));
    expect(inCourse.length).toBeGreaterThan(30);
    for (const def of inCourse) expect(commandOptions(def)[0]!.flags).toBe('-c, --course <courseId>');
    // No command spells the course another way.
    const otherSpellings = COMMANDS.filter((def) => (def.options ?? []).some((o) => /--course </.test(o.flags)));
    expect(otherSpellings.map((def) => def.name)).toEqual([]);
  });

  it('-c and --course name the course alike, and a positional id answers the same JSON bytes', async () => {
    const long = await demo.run(['--json', 'gradebook', 'setup', 'show', '--course', COURSE]);
    expect(long.code).toBe(0);
    expect(long.stderr).toBe('');
    expect(await demo.run(['--json', 'gradebook', 'setup', 'show', '-c', COURSE])).toEqual(long);
    const positional = await demo.run(['--json', 'gradebook', 'setup', 'show', COURSE]);
    expect(positional.stdout).toBe(long.stdout);
    expect(positional.code).toBe(0);
  });

  it('an unknown course is not-found (exit 5) whichever way it is named', async () => {
    expect(await demo.run(['modules', 'list', '-c', 'crs_nope'])).toEqual({ code: 5, stdout: '', stderr: NOT_FOUND });
    expect(await demo.run(['modules', 'list'], { env: { COURSEBOOK_COURSE: 'crs_nope' } })).toEqual({ code: 5, stdout: '', stderr: NOT_FOUND });
  });
});

describe('COURSEBOOK_COURSE and the profile course', () => {
  const newStore = storesForThisFile();
  /** Runs without --db: the back end is the profile's (its db), as a user's configured shell would. */
  const bare = (s: CliStore, args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...s.env, ...env } });

  it('COURSEBOOK_COURSE names the course when no flag does', async () => {
    const s = await newStore();
    const flagged = await s.ok(['--json', 'assignments', 'list', '--course', COURSE]);
    expect(await s.run(['--json', 'assignments', 'list'], { env: { COURSEBOOK_COURSE: COURSE } })).toEqual({ code: 0, stdout: flagged, stderr: '' });
    // An empty variable is no course.
    expect(await s.run(['assignments', 'list'], { env: { COURSEBOOK_COURSE: '' } })).toEqual({ code: 2, stdout: '', stderr: MISSING_COURSE });
  });

  it("the profile's course names it when neither the flag nor the variable does (config set course)", async () => {
    const s = await newStore();
    expect(await bare(s, ['config', 'set', 'db', s.db, '--name', 'work'])).toMatchObject({ code: 0 });
    expect(await bare(s, ['config', 'set', 'course', COURSE, '--name', 'work'])).toEqual({ code: 0, stdout: '', stderr: `set work.course = ${COURSE}\n` });
    expect((await bare(s, ['config', 'get', 'course', '--name', 'work'])).stdout).toBe(`${COURSE}\n`);
    const expected = await s.ok(['modules', 'list', '--course', COURSE]);
    expect(await bare(s, ['--profile', 'work', 'modules', 'list'])).toEqual({ code: 0, stdout: expected, stderr: '' });
    expect(await bare(s, ['modules', 'list'], { COURSEBOOK_PROFILE: 'work' })).toEqual({ code: 0, stdout: expected, stderr: '' });
    await bare(s, ['config', 'use', 'work']);
    expect(await bare(s, ['modules', 'list'])).toEqual({ code: 0, stdout: expected, stderr: '' });
  });

  it('flag > COURSEBOOK_COURSE > profile: each names the course only when the ones before it do not', async () => {
    const s = await newStore();
    await bare(s, ['config', 'set', 'db', s.db, '--name', 'p']);
    await bare(s, ['config', 'set', 'course', 'crs_nope', '--name', 'p']);
    const expected = await s.ok(['enrollments', 'list', '--course', COURSE]);
    const profile = ['--profile', 'p', 'enrollments', 'list'];
    // The profile alone: its (unknown) course is used.
    expect(await bare(s, profile)).toEqual({ code: 5, stdout: '', stderr: NOT_FOUND });
    // The variable beats the profile; the flag beats both.
    expect(await bare(s, profile, { COURSEBOOK_COURSE: COURSE })).toEqual({ code: 0, stdout: expected, stderr: '' });
    expect(await bare(s, [...profile, '-c', COURSE], { COURSEBOOK_COURSE: 'crs_nope' })).toEqual({ code: 0, stdout: expected, stderr: '' });
    // An old positional id is a flag too.
    const positional = await bare(s, [...profile, COURSE], { COURSEBOOK_COURSE: 'crs_nope' });
    expect(positional.stdout).toBe(expected);
    expect(positional.code).toBe(0);
  });

  it('a back-end flag without --profile sets the default profile aside, its course too', async () => {
    const s = await newStore();
    await bare(s, ['config', 'set', 'course', COURSE]);
    // s.run adds --db: the default profile (which names the course) does not apply.
    expect(await s.run(['modules', 'list'])).toEqual({ code: 2, stdout: '', stderr: MISSING_COURSE });
    expect((await s.run(['--profile', 'default', 'modules', 'list'])).code).toBe(0);
  });

  it('a filter is not a parent: certificates list shows every course even with COURSEBOOK_COURSE set', async () => {
    const s = await newStore();
    const all = await s.ok(['certificates', 'list']);
    expect(rows(all)).toHaveLength(1);
    expect(await s.run(['certificates', 'list'], { env: { COURSEBOOK_COURSE: 'crs_nope' } })).toEqual({ code: 0, stdout: all, stderr: '' });
    expect(await s.run(['certificates', 'list', '-c', 'crs_nope'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('positional parent ids (deprecated)', () => {
  const demo = demoStore();
  const newStore = storesForThisFile();

  it('still work, with one note on stderr naming the flag form; the JSON on stdout is unchanged', async () => {
    const flagged = await demo.run(['--json', 'gradebook', 'final', 'history', '--course', COURSE, '--user', 'usr_s07']);
    expect(flagged.stderr).toBe('');
    expect(await demo.run(['--json', 'gradebook', 'final', 'history', COURSE, 'usr_s07'])).toEqual({
      code: 0,
      stdout: flagged.stdout,
      stderr:
        'coursebook: warning: "gradebook final history crs_data101 usr_s07" is deprecated; ' +
        'use "gradebook final history --course crs_data101 --user usr_s07" (positional course and user ids go away in 0.3)\n',
    });
  });

  it("the note keeps the command's own arguments and the old verb that was typed", async () => {
    const s = await newStore();
    expect(await s.run(['gradebook', 'setup', 'mode', 'points', COURSE])).toMatchObject({
      code: 0,
      stderr:
        'coursebook: warning: "gradebook setup mode points crs_data101" is deprecated; ' +
        'use "gradebook setup mode points --course crs_data101" (positional course ids go away in 0.3)\n',
    });
    const added = await s.run(['blocks', 'add', 'les_01', '--type', 'divider']);
    expect(added.stdout).toMatch(/^blk_[a-z0-9]+\n$/);
    expect(added.stderr).toBe(
      'coursebook: warning: "blocks add les_01" is deprecated; use "blocks create --lesson les_01" (positional lesson ids go away in 0.3)\n',
    );
  });

  it('a flag and a positional id naming different courses, or too many arguments, are usage errors (exit 2)', async () => {
    expect(await demo.run(['modules', 'list', '-c', COURSE, 'crs_other'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: the course is given twice (--course crs_data101 and crs_other): give --course once\n',
    });
    // The same course both ways is only a note.
    expect((await demo.run(['modules', 'list', '-c', COURSE, COURSE])).code).toBe(0);
    expect(await demo.run(['modules', 'list', COURSE, 'extra'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: too many arguments for modules list: expected at most 1, got 2\n',
    });
  });

  it('commands that never took a positional course refuse one as before', async () => {
    const res = await demo.run(['modules', 'create', COURSE, '--title', 'X']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: too many arguments for 'create'/);
  });
});

describe('no course named anywhere', () => {
  const demo = demoStore();

  it('is a usage error (exit 2) naming --course and COURSEBOOK_COURSE, for every kind of command', async () => {
    for (const args of [
      ['gradebook', 'grades'],
      ['modules', 'list'],
      ['readiness', 'show'],
      ['gradebook', 'categories', 'create', '--name', 'Labs'],
      ['gradebook', 'import', 'grades.csv'],
      ['certificates', 'issue', '--user', 'usr_s01'],
    ]) {
      expect(await demo.run(args)).toEqual({ code: 2, stdout: '', stderr: MISSING_COURSE });
    }
  });

  it('never prompts unless stdin and stdout are terminals, CI is unset and --no-input is not given', async () => {
    // A prompter with no answers: any prompt would fail the command with exit 1.
    const noAnswers = scriptedPrompter([]);
    const tries = [
      { tty: { stdin: false, stdout: true }, env: { CI: '' } },
      { tty: { stdin: true, stdout: false }, env: { CI: '' } },
      { tty: { stdin: true, stdout: true }, env: { CI: '1' } },
    ];
    for (const options of tries)
      expect(await demo.run(['gradebook', 'grades'], { ...options, prompter: noAnswers })).toEqual({ code: 2, stdout: '', stderr: MISSING_COURSE });
    expect(await demo.run(['--no-input', 'gradebook', 'grades'], { ...TERMINAL, prompter: noAnswers })).toEqual({
      code: 2,
      stdout: '',
      stderr: MISSING_COURSE,
    });
    expect(noAnswers.asked).toEqual([]);
  });
});

describe('old verbs', () => {
  const newStore = storesForThisFile();

  it('blocks add, enrollments add|remove, gradebook categories add|remove, reporting-lines add|remove still work', async () => {
    const s = await newStore();
    expect((await s.run(['blocks', 'add', '--lesson', 'les_01', '--type', 'divider'])).stdout).toMatch(/^blk_[a-z0-9]+\n$/);
    expect(await s.run(['enrollments', 'add', '-c', COURSE, '--user', 'usr_manager'])).toEqual({
      code: 0,
      stdout: `courseId\t${COURSE}\nuserId\tusr_manager\nrole\tstudent\n`,
      stderr: '',
    });
    expect(await s.run(['enrollments', 'remove', '-c', COURSE, '--user', 'usr_manager'])).toEqual({ code: 0, stdout: 'ok\ttrue\n', stderr: '' });
    expect((await s.run(['gradebook', 'categories', 'add', '-c', COURSE, '--name', 'Labs'])).code).toBe(0);
    expect((await s.run(['gradebook', 'categories', 'remove', 'labs', '-c', COURSE, '--yes'])).code).toBe(0);
    expect((await s.run(['reporting-lines', 'add', 'usr_manager', 'usr_s03'])).code).toBe(0);
    expect(await s.run(['reporting-lines', 'remove', 'usr_manager', 'usr_s03'])).toEqual({ code: 0, stdout: 'ok\ttrue\n', stderr: '' });
  });

  it('help and completion lead with the new name; an old name is followed, never offered', async () => {
    const s = await newStore();
    const group = (await s.run(['blocks', '--help'])).stdout;
    expect(group).toMatch(/\n {2}create\|add \[options\] +Add a block/);
    expect((await s.run(['blocks', 'add', '--help'])).stdout).toMatch(/^Usage: coursebook blocks create\|add \[options\]\n/);
    const words = async (...args: string[]) => (await runCli(['__complete', ...args], { env: s.env })).stdout.split('\n').map((l) => l.split('\t')[0]);
    expect(await words('enrollments', '')).toEqual(['list', 'create', 'delete', '']);
    expect(await words('blocks', 'add', '--less')).toEqual(['--lesson', '']);
    expect(await words('--db', s.db, 'gradebook', 'grades', '-c', '')).toEqual([COURSE, '']);
  });

  it('an unknown verb is still an error (exit 2)', async () => {
    const s = await newStore();
    const res = await s.run(['blocks', 'append', '--lesson', 'les_01']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown command 'append'/);
  });
});

describe('pick lists on a terminal', () => {
  const demo = demoStore();
  const newStore = storesForThisFile();

  it('a missing course is picked from the courses the caller can see', async () => {
    const prompter = scriptedPrompter([COURSE]);
    const res = await demo.run(['--json', 'gradebook', 'checks'], { ...TERMINAL, prompter });
    expect(prompter.asked).toEqual(['Which course?']);
    expect(prompter.offered).toEqual([['Data Literacy 101 (crs_data101, draft)']]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe((await demo.run(['--json', 'gradebook', 'checks', '-c', COURSE], TERMINAL)).stdout);
  });

  it('COURSEBOOK_COURSE spares the course pick: lessons create asks for the module only', async () => {
    const s = await newStore();
    const prompter = scriptedPrompter(['mod_02', 'Outliers', '20']);
    const res = await s.run(['lessons', 'create'], { ...TERMINAL, env: { CI: '', COURSEBOOK_COURSE: COURSE }, prompter });
    expect(prompter.asked).toEqual(['Which module?', 'Lesson title?', 'Minutes (1-240)?']);
    expect(res.code).toBe(0);
  });

  it("a lesson is picked from the picked module's lessons, an assignment from the course's", async () => {
    const lessons = scriptedPrompter([COURSE, 'mod_02', 'les_04']);
    const blocks = await demo.run(['blocks', 'list'], { ...TERMINAL, prompter: lessons });
    expect(lessons.asked).toEqual(['Which course?', 'Which module?', 'Which lesson?']);
    expect(lessons.offered[2]).toEqual(['1. Mean, median and mode (les_03, published)', '2. Spread and variation (les_04, published)']);
    expect(blocks.stdout).toBe((await demo.run(['blocks', 'list', '--lesson', 'les_04'], TERMINAL)).stdout);
    // The course of an assignment's pick list comes from COURSEBOOK_COURSE here.
    const assignments = scriptedPrompter(['asg_02']);
    expect(await demo.run(['submissions', 'list'], { ...TERMINAL, env: { CI: '', COURSEBOOK_COURSE: COURSE }, prompter: assignments })).toMatchObject({
      code: 0,
    });
    expect(assignments.asked).toEqual(['Which assignment?']);
    expect(assignments.offered[0]).toHaveLength(7);
    expect(assignments.offered[0]![1]).toBe('Clean the survey table (asg_02, published)');
  });

  it("gradebook final set offers the course's students, then the scheme's letters", async () => {
    const s = await newStore();
    const prompter = scriptedPrompter(['usr_s04', 'B', 'Appeal upheld']);
    const res = await s.run(['gradebook', 'final', 'set', '-c', COURSE], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Which student?', 'Final grade for usr_s04?', 'Reason?']);
    expect(prompter.offered[0]).toEqual(STUDENTS);
    expect(prompter.offered[1]!.map((name) => name.split(' ')[0])).toEqual([...LETTERS, 'a']);
    expect(await s.ok(['gradebook', 'final', 'history', '-c', COURSE, '--user', 'usr_s04'])).toMatch(/\tB\tAppeal upheld\n$/);
  });

  it('enrollments create offers every user; enrollments delete the members of the course, with their roles', async () => {
    const s = await newStore();
    const enrol = scriptedPrompter(['usr_manager']);
    expect((await s.run(['enrollments', 'create', '-c', COURSE, '--role', 'reviewer'], { ...TERMINAL, prompter: enrol })).code).toBe(0);
    expect(enrol.offered[0]).toHaveLength(29);
    expect(enrol.offered[0]).toContain('Mona Manager (usr_manager)');
    const remove = scriptedPrompter(['usr_manager']);
    expect((await s.run(['enrollments', 'delete', '-c', COURSE], { ...TERMINAL, prompter: remove })).code).toBe(0);
    expect(remove.offered[0]).toContain('usr_manager (reviewer)');
    expect(remove.offered[0]).toContain('usr_s01 (student)');
  });

  it('gradebook undismiss offers the dismissed checks', async () => {
    const s = await newStore();
    await s.ok(['gradebook', 'dismiss', '-c', COURSE, '--code', 'item-zero-points', '--target', 'asg_06']);
    const prompter = scriptedPrompter(['0']);
    const res = await s.run(['gradebook', 'undismiss', '-c', COURSE], { ...TERMINAL, prompter });
    expect(prompter.offered).toEqual([['item-zero-points (asg_06), dismissed by usr_admin']]);
    expect(res).toMatchObject({ code: 0, stdout: expect.stringContaining('item-zero-points (asg_06)') });
    // Nothing dismissed: nothing to offer.
    expect(await s.run(['gradebook', 'undismiss', '-c', COURSE], { ...TERMINAL, prompter: scriptedPrompter([]) })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no dismissed checks\n',
    });
  });

  it('a pick list with nothing to pick is a usage error (exit 2)', async () => {
    const s = await newStore('empty');
    expect(await s.run(['modules', 'list'], { ...TERMINAL, prompter: scriptedPrompter([]) })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: there is no course you can pick\n',
    });
  });
});

describe('answers checked as they are typed', () => {
  const newStore = storesForThisFile();

  it("a final percent, and the override's reason, with the API's own words", async () => {
    const s = await newStore();
    const prompter = probing(['\u0000percent', '87.5', 'Regraded'], {
      'Final percent?': ['-5', 'ninety', '', '87.5', '130'],
      'Reason?': ['', 'x'.repeat(1001), 'Regraded'],
    });
    expect((await s.run(['gradebook', 'final', 'set', '-c', COURSE, '--user', 'usr_s05'], { ...TERMINAL, prompter })).code).toBe(0);
    expect(prompter.verdicts).toEqual({
      'Final percent?': ['must be >= 0', 'must be a number', 'a value is required', true, true],
      'Reason?': ['a value is required', 'must be at most 1000 characters', true],
    });
  });

  it('a block asked for on a terminal: the type from a list, a URL checked as it is typed', async () => {
    const s = await newStore();
    const prompter = probing(['link', 'https://example.org/tidy', 'The tidy data paper'], {
      'Link URL (http or https)?': ['ftp://example.org', 'example.org', 'https://example.org/tidy'],
      'Link text?': ['   ', 'The tidy data paper'],
    });
    const res = await s.run(['--json', 'blocks', 'create', '--lesson', 'les_02'], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Block type?', 'Link URL (http or https)?', 'Link text?']);
    expect(prompter.offered[0]).toEqual(['heading', 'paragraph', 'list', 'image', 'video', 'link', 'code', 'quote', 'callout', 'embed', 'divider']);
    expect(prompter.verdicts).toEqual({
      'Link URL (http or https)?': ['must be an http or https URL', 'must be an http or https URL', true],
      'Link text?': ['must not be blank', true],
    });
    expect(JSON.parse(res.stdout)).toMatchObject({ type: 'link', url: 'https://example.org/tidy', text: 'The tidy data paper', lessonId: 'les_02' });
  });

  it('a list block: items until an empty answer; a heading level from a list', async () => {
    const s = await newStore();
    const list = scriptedPrompter(['list', 'Zero', 'Scale', '']);
    const made = await s.run(['--json', 'blocks', 'create', '--lesson', 'les_02'], { ...TERMINAL, prompter: list });
    expect(list.asked).toEqual(['Block type?', 'Item 1?', 'Item 2 (empty to finish)?', 'Item 3 (empty to finish)?']);
    expect(JSON.parse(made.stdout)).toMatchObject({ type: 'list', items: ['Zero', 'Scale'], ordered: false });
    const heading = scriptedPrompter(['heading', '2', 'Why tidy?']);
    const res = await s.run(['--json', 'blocks', 'create', '--lesson', 'les_02'], { ...TERMINAL, prompter: heading });
    expect(heading.offered[1]).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(JSON.parse(res.stdout)).toMatchObject({ type: 'heading', level: 2, text: 'Why tidy?' });
  });

  it('submissions create asks for what the assignment takes: a link, checked as a URL', async () => {
    const s = await newStore();
    const prompter = probing(['https://sheets.example/clean'], { 'Link to your work (http or https)?': ['ftp://x.example', 'https://sheets.example/clean'] });
    const res = await s.run(['--as', 'usr_s09', '--json', 'submissions', 'create', '--assignment', 'asg_02'], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.verdicts).toEqual({ 'Link to your work (http or https)?': ['must be an http or https URL', true] });
    expect(JSON.parse(res.stdout)).toMatchObject({ link: 'https://sheets.example/clean', assignmentId: 'asg_02' });
  });

  it('assignment points and a category name are checked as typed', async () => {
    const s = await newStore();
    const points = probing(['Quiz: outliers', '10'], { 'Points?': ['-1', 'ten', '10'] });
    expect((await s.run(['assignments', 'create', '--module', 'mod_02'], { ...TERMINAL, prompter: points })).code).toBe(0);
    expect(points.verdicts).toEqual({ 'Points?': ['must be >= 0', 'must be a number', true] });
    const name = probing(['Labs'], { 'Category name?': ['', 'x'.repeat(121), 'Labs'] });
    expect((await s.run(['gradebook', 'categories', 'create', '-c', COURSE], { ...TERMINAL, prompter: name })).code).toBe(0);
    expect(name.verdicts).toEqual({ 'Category name?': ['a value is required', 'must be at most 120 characters', true] });
  });
});
