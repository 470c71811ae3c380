/**
 * In-process tests of the course, module and lesson commands (local mode, demo store):
 * each command's success path and the errors a user really hits, with exit codes and
 * the exact text on stdout/stderr. Blocks, assignments and submissions are in
 * content-commands-2.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_NOW, scriptedPrompter } from '../helpers/cli.js';
import { cliStore, DEMO_DATASET, demoStore, expectError, expectFileError, fields, interactive, rows } from '../helpers/cli-store.js';

const demo = JSON.parse(readFileSync(DEMO_DATASET, 'utf8')) as { courses: Record<string, unknown>[] };
const DATA101 = demo.courses[0]!;

const FORBIDDEN_WRITE = "error (forbidden): Only the course's instructors and admins may do this.\n";
const MISSING_COURSE =
  "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n";

// --- courses ---------------------------------------------------------------------------

describe('courses list', () => {
  const cb = demoStore();

  it('prints one TSV row per course with no header; a student sees only their own courses', async () => {
    await cb.ok(['courses', 'create', '--id', 'crs_other', '--title', 'Other course']);
    const admin = await cb.run(['courses', 'list']);
    expect(admin.code).toBe(0);
    expect(admin.stderr).toBe('');
    expect(rows(admin.stdout)).toEqual([
      ['crs_data101', 'Data Literacy 101', 'draft', '2026-08-01T09:00:00.000Z'],
      ['crs_other', 'Other course', 'draft', CLI_NOW],
    ]);
    const student = await cb.run(['--as', 'usr_s01', 'courses', 'list']);
    expect(student).toEqual({ code: 0, stdout: 'crs_data101\tData Literacy 101\tdraft\t2026-08-01T09:00:00.000Z\n', stderr: '' });
  });

  it('on a terminal prints a table with a header row', async () => {
    const res = await cb.run(['--as', 'usr_s01', 'courses', 'list'], { tty: { stdout: true } });
    expect(res.code).toBe(0);
    // A terminal reads timestamps relative to now (CLI_NOW, 2026-11-22T08:30Z): 113 days earlier.
    expect(res.stdout).toBe('ID           TITLE              STATUS  UPDATED\ncrs_data101  Data Literacy 101  draft   3 months ago\n');
  });

  it('a user enrolled nowhere gets an empty list, not an error', async () => {
    expect(await cb.run(['--as', 'usr_manager', 'courses', 'list'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('--as naming a user who does not exist is unauthenticated (exit 4)', async () => {
    expectError(
      await cb.run(['--as', 'usr_ghost', 'courses', 'list']),
      4,
      'error (unauthenticated): --as names a user that does not exist in this store: "usr_ghost"\n',
    );
  });
});

describe('courses show', () => {
  const cb = demoStore();

  it('prints the course as piped key/value lines', async () => {
    const res = await cb.run(['courses', 'show', 'crs_data101']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(fields(res.stdout)).toEqual({
      id: 'crs_data101',
      title: 'Data Literacy 101',
      description: DATA101.description,
      status: 'draft',
      publishedAt: '',
      objectives: '["Clean a small real data set","Summarise data with the right statistic","Present a finding with an honest chart"]',
      rubricId: 'course-essentials',
      templateId: '',
      accessFloor: '',
      tutorDefaults: '{"lesson":"off","assignment":"off"}',
      createdAt: '2026-08-01T09:00:00.000Z',
      updatedAt: '2026-08-01T09:00:00.000Z',
    });
  });

  it('--json prints the API JSON byte for byte', async () => {
    const res = await cb.run(['--json', 'courses', 'show', 'crs_data101']);
    expect(res.code).toBe(0);
    const expected = {
      id: 'crs_data101',
      title: 'Data Literacy 101',
      description: DATA101.description,
      status: 'draft',
      publishedAt: null,
      objectives: DATA101.objectives,
      rubricId: 'course-essentials',
      templateId: null,
      accessFloor: null,
      tutorDefaults: { lesson: 'off', assignment: 'off' },
      createdAt: '2026-08-01T09:00:00.000Z',
      updatedAt: '2026-08-01T09:00:00.000Z',
    };
    expect(res.stdout).toBe(`${JSON.stringify(expected)}\n`);
  });

  it('an unknown course is not-found (exit 5), as text or as the JSON envelope', async () => {
    expectError(await cb.run(['courses', 'show', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
    expectError(
      await cb.run(['--json', 'courses', 'show', 'crs_nope']),
      5,
      '{"error":{"code":"not-found","message":"Course \\"crs_nope\\" was not found."}}\n',
    );
  });

  it('a user not enrolled in the course gets not-found too (exit 5), so ids cannot be probed', async () => {
    expectError(await cb.run(['--as', 'usr_manager', 'courses', 'show', 'crs_data101']), 5, 'error (not-found): Course "crs_data101" was not found.\n');
  });
});

describe('courses create', () => {
  const cb = demoStore();

  it('creates a draft course from flags', async () => {
    const res = await cb.run([
      'courses',
      'create',
      '--id',
      'crs_stats2',
      '--title',
      'Statistics 2',
      '--description',
      'More statistics.',
      '--objective',
      'Fit a line',
      'Read a p-value',
    ]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    // Piped, a create prints the new id alone.
    expect(res.stdout).toBe('crs_stats2\n');
    expect(fields(await cb.ok(['courses', 'show', 'crs_stats2']))).toEqual({
      id: 'crs_stats2',
      title: 'Statistics 2',
      description: 'More statistics.',
      status: 'draft',
      publishedAt: '',
      objectives: '["Fit a line","Read a p-value"]',
      rubricId: 'course-essentials',
      templateId: '',
      accessFloor: '',
      tutorDefaults: '{"lesson":"off","assignment":"off"}',
      createdAt: CLI_NOW,
      updatedAt: CLI_NOW,
    });
    expect(fields(await cb.ok(['courses', 'show', 'crs_stats2'])).title).toBe('Statistics 2');
  });

  it('on a terminal prompts for a missing title', async () => {
    const { prompter, options } = interactive(['Intro to Charts']);
    const res = await cb.run(['courses', 'create', '--id', 'crs_charts'], options);
    expect(prompter.asked).toEqual(['Course title?']);
    expect(res.code).toBe(0);
    // On a terminal, one line naming what was created.
    expect(res.stdout).toBe('Created course crs_charts "Intro to Charts"\n');
    expect(JSON.parse(await cb.ok(['--json', 'courses', 'show', 'crs_charts']))).toMatchObject({ title: 'Intro to Charts', status: 'draft' });
  });

  it('without a terminal a missing --title is a usage error (exit 2); --no-input never prompts', async () => {
    expectError(await cb.run(['courses', 'create', '--id', 'crs_untitled']), 2, 'error: missing --title\n');
    const { prompter, options } = interactive(['never asked']);
    expectError(await cb.run(['--no-input', 'courses', 'create', '--id', 'crs_untitled'], options), 2, 'error: missing --title\n');
    expect(prompter.asked).toEqual([]);
    expectError(await cb.run(['courses', 'show', 'crs_untitled']), 5, 'error (not-found): Course "crs_untitled" was not found.\n');
  });

  it('a cancelled prompt (Ctrl-C) exits 2 with "cancelled" and creates nothing', async () => {
    const cancelled = Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' });
    const prompter = { ...scriptedPrompter([]), input: async () => Promise.reject(cancelled) };
    expectError(await cb.run(['courses', 'create', '--id', 'crs_cancel'], { tty: { stdin: true, stdout: true }, env: { CI: '' }, prompter }), 2, 'cancelled\n');
    expect((await cb.run(['courses', 'show', 'crs_cancel'])).code).toBe(5);
  });

  it('a title over 200 characters is invalid (exit 3, naming title)', async () => {
    expectError(await cb.run(['courses', 'create', '--title', 'x'.repeat(201)]), 3, /^error \(invalid\): --title: /);
  });

  it('an id that is already taken is a conflict (exit 6)', async () => {
    expectError(await cb.run(['courses', 'create', '--id', 'crs_data101', '--title', 'Again']), 6, 'error (conflict): Course "crs_data101" already exists.\n');
  });

  it('only admins may create courses: an instructor or a student is forbidden (exit 4)', async () => {
    expectError(await cb.run(['--as', 'usr_instructor', 'courses', 'create', '--title', 'Mine']), 4, 'error (forbidden): Only admins may do this.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'courses', 'create', '--title', 'Mine']), 4, 'error (forbidden): Only admins may do this.\n');
  });
});

describe('courses update', () => {
  const cb = demoStore();

  it('changes only the given fields and stamps updatedAt', async () => {
    const res = await cb.run(['courses', 'update', 'crs_data101', '--title', 'Data Literacy 102', '--objective', 'Read a chart', 'Clean a table']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({
      id: 'crs_data101',
      title: 'Data Literacy 102',
      description: DATA101.description,
      objectives: '["Read a chart","Clean a table"]',
      createdAt: '2026-08-01T09:00:00.000Z',
      updatedAt: CLI_NOW,
    });
  });

  it('an instructor of the course may update it', async () => {
    const res = await cb.run(['--as', 'usr_instructor', '--json', 'courses', 'update', 'crs_data101', '--description', 'Short.']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: 'crs_data101', description: 'Short.' });
  });

  it('no field to change is a usage error (exit 2) naming the flags', async () => {
    expectError(await cb.run(['courses', 'update', 'crs_data101']), 2, 'error: nothing to change: give --title, --description, --objective or --rubric\n');
  });

  it('an unknown --rubric is invalid (exit 3, naming rubricId)', async () => {
    expectError(
      await cb.run(['courses', 'update', 'crs_data101', '--rubric', 'rb_nope']),
      3,
      'error (invalid): --rubric: no rubric "rb_nope" is installed (see coursebook rubrics list)\n',
    );
  });

  it('an empty --title is invalid (exit 3, naming title)', async () => {
    expectError(await cb.run(['courses', 'update', 'crs_data101', '--title', '']), 3, 'error (invalid): --title: must not be empty\n');
  });

  it('an unknown course is not-found (exit 5)', async () => {
    expectError(await cb.run(['courses', 'update', 'crs_nope', '--title', 'X']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
  });

  it('a student or a reviewer may not change the course (exit 4)', async () => {
    expectError(await cb.run(['--as', 'usr_s01', 'courses', 'update', 'crs_data101', '--title', 'Mine']), 4, FORBIDDEN_WRITE);
    expectError(await cb.run(['--as', 'usr_reviewer', 'courses', 'update', 'crs_data101', '--title', 'Mine']), 4, FORBIDDEN_WRITE);
  });
});

const COURSE_FILE = {
  coursebookCourse: 1,
  course: { id: 'crs_imported', title: 'Imported course' },
  modules: [
    { id: 'mod_imp', title: 'Only module', lessons: [{ id: 'les_imp', title: 'Only lesson', minutes: 10, blocks: [{ type: 'paragraph', text: 'Hello.' }] }] },
  ],
};

describe('courses import', () => {
  const cb = demoStore();

  it('creates a course from a course file on stdin and prints the counts', async () => {
    const res = await cb.run(['courses', 'import', '-'], { input: JSON.stringify(COURSE_FILE) });
    expect(res).toEqual({ code: 0, stdout: 'courseId\tcrs_imported\nmodules\t1\nlessons\t1\nblocks\t1\nassignments\t0\n', stderr: '' });
    expect(rows(await cb.ok(['lessons', 'list', '--module', 'mod_imp']))).toEqual([['0', 'les_imp', 'Only lesson', '10', 'draft']]);
  });

  it('reads a course file from a path (docs/examples/course.json)', async () => {
    const res = await cb.run(['--json', 'courses', 'import', 'docs/examples/course.json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      courseId: 'crs_stats_intro',
      modules: 2,
      lessons: expect.any(Number),
      blocks: expect.any(Number),
      assignments: expect.any(Number),
    });
    expect(fields(await cb.ok(['courses', 'show', 'crs_stats_intro'])).title).toBe('Statistics for Everyone');
  });

  it('text that is not JSON is a usage error (exit 2) naming the source', async () => {
    expectError(await cb.run(['courses', 'import', '-'], { input: '{not json' }), 3, /^error \(invalid\): standard input: not valid JSON: /);
  });

  it('an invalid course file is refused whole (exit 3) with every problem and its path', async () => {
    const bad = { coursebookCourse: 1, course: { id: 'crs_bad', title: '' }, modules: [{ title: 'M', lessons: [{ title: 'L', minutes: 999 }] }] };
    expectError(
      await cb.run(['courses', 'import', '-'], { input: JSON.stringify(bad) }),
      3,
      'error (invalid): The course file has 2 problems; nothing was imported.\n  course.title: must not be empty\n  modules[0].lessons[0].minutes: must be <= 240\n',
    );
    expect((await cb.run(['courses', 'show', 'crs_bad'])).code).toBe(5);
  });

  it('ids that already exist are a conflict (exit 6) and nothing is imported', async () => {
    const again = { ...COURSE_FILE, course: { id: 'crs_data101', title: 'Clash' }, modules: [] };
    expectError(
      await cb.run(['courses', 'import', '-'], { input: JSON.stringify(again) }),
      6,
      "error (conflict): 1 record of this course file is already in the store, course crs_data101 among them; nothing was imported. Importing a course file only creates a course; to update crs_data101 from the file, PUT it to /api/v1/courses/crs_data101/content (coursebook api PUT /courses/crs_data101/content --file FILE; coursebook courses push crs_data101 --to PROFILE sends a store's copy to another store); to import another copy, leave the file's ids out (and import with --as-new, asNew=true).\n  course: crs_data101 already exists in the store\n",
    );
    expect(fields(await cb.ok(['courses', 'show', 'crs_data101'])).title).toBe('Data Literacy 101');
  });

  it('only admins may import (exit 4); the file argument is required (exit 2)', async () => {
    expectError(
      await cb.run(['--as', 'usr_instructor', 'courses', 'import', '-'], { input: JSON.stringify({ ...COURSE_FILE, course: { id: 'crs_x', title: 'X' } }) }),
      4,
      'error (forbidden): Only admins may do this.\n',
    );
    const missing = await cb.run(['courses', 'import']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: missing required argument 'file'\n/);
  });

  it('a file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['courses', 'import', '/nonexistent/course.json']), '/nonexistent/course.json');
  });
});

describe('courses export', () => {
  const cb = demoStore();

  it('prints the course as one nested course file (pretty JSON)', async () => {
    const res = await cb.run(['courses', 'export', 'crs_data101']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('{\n  "coursebookCourse": 1,\n  "course": {\n    "id": "crs_data101",\n')).toBe(true);
    const file = JSON.parse(res.stdout);
    expect(file.course).toMatchObject({ id: 'crs_data101', title: 'Data Literacy 101', status: 'draft' });
    expect(file.modules.map((m: { id: string }) => m.id)).toEqual(['mod_01', 'mod_02', 'mod_03']);
    expect(file.modules[0].lessons.map((l: { id: string }) => l.id)).toEqual(['les_01', 'les_02']);
    expect(file.modules[0].lessons[0].blocks[0]).toEqual({ id: 'blk_001', type: 'heading', level: 1, text: 'Welcome to Data Literacy 101' });
    expect(file.gradebookSetup.mode).toBe('weighted');
    // --json prints the API's own (compact) text: the same document.
    const json = await cb.run(['--json', 'courses', 'export', 'crs_data101']);
    expect(json.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(json.stdout)).toEqual(file);
  });

  it('--out writes the file, prints nothing on stdout and notes the path on stderr', async () => {
    const out = join(cb.dir, 'data101.json');
    expect(await cb.run(['courses', 'export', 'crs_data101', '--out', out])).toEqual({ code: 0, stdout: '', stderr: `wrote ${out}\n` });
    expect(JSON.parse(readFileSync(out, 'utf8')).course.id).toBe('crs_data101');
  });

  it('the exported file imports into an empty store as the same course', async () => {
    const exported = await cb.ok(['courses', 'export', 'crs_data101']);
    const empty = await cliStore('empty');
    try {
      expect(await empty.run(['courses', 'import', '-'], { input: exported })).toEqual({
        code: 0,
        stdout: 'courseId\tcrs_data101\nmodules\t3\nlessons\t5\nblocks\t20\nassignments\t7\n',
        // The first command on a store file that does not exist yet says it makes one.
        stderr: '',
      });
      expect(await empty.ok(['courses', 'export', 'crs_data101'])).toBe(exported);
    } finally {
      empty.cleanup();
    }
  });

  it('after a block update (its old content kept in previous), export -> import -> export gives the same bytes, and so does blocks show', async () => {
    const cb = await cliStore();
    const empty = await cliStore('empty');
    try {
      await cb.ok(['blocks', 'update', 'blk_002', '--type', 'heading', '--level', '2', '--text', 'Retitled']);
      const shown = await cb.ok(['--json', 'blocks', 'show', 'blk_002']);
      // The old content in its canonical order, type first, as an import stores it.
      expect(shown).toContain('"previous":{"type":"paragraph","text":');
      const exported = await cb.ok(['courses', 'export', 'crs_data101']);
      const block = JSON.parse(exported).modules[0].lessons[0].blocks[1];
      expect(Object.keys(block.previous)).toEqual(['type', 'text']);
      await empty.ok(['courses', 'import', '-'], { input: exported });
      expect(await empty.ok(['courses', 'export', 'crs_data101'])).toBe(exported);
      // Both stores run on the same fixed clock, so the two copies show the same bytes.
      expect(await empty.ok(['--json', 'blocks', 'show', 'blk_002'])).toBe(shown);
    } finally {
      cb.cleanup();
      empty.cleanup();
    }
  });

  it('an unknown course is not-found (exit 5)', async () => {
    expectError(await cb.run(['courses', 'export', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
  });

  it('a student or a reviewer may not export (exit 4)', async () => {
    expectError(await cb.run(['--as', 'usr_s01', 'courses', 'export', 'crs_data101']), 4, FORBIDDEN_WRITE);
    expectError(await cb.run(['--as', 'usr_reviewer', 'courses', 'export', 'crs_data101']), 4, FORBIDDEN_WRITE);
  });

  it('--out into a folder that does not exist is a usage error naming the file (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['courses', 'export', 'crs_data101', '--out', '/nonexistent/dir/course.json']), '/nonexistent/dir/course.json');
  });
});

describe('courses publish', () => {
  const cb = demoStore();

  it('publishes a course once readiness no longer blocks it; publishing again changes nothing', async () => {
    await cb.ok(['courses', 'create', '--id', 'crs_ready', '--title', 'Ready course']);
    for (const item of ['1.2', '4.1', '7.1']) await cb.ok(['readiness', 'attest', '--course', 'crs_ready', '--item', item, '--note', 'checked by hand']);
    // A new course's default category holds no assignment yet, so 3.1 (no open setup checks) needs the check dismissed.
    await cb.ok(['gradebook', 'dismiss', '--course', 'crs_ready', '--code', 'category-empty', '--target', 'assignments']);
    const res = await cb.run(['courses', 'publish', 'crs_ready']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(fields(res.stdout)).toMatchObject({ id: 'crs_ready', status: 'published', publishedAt: CLI_NOW });
    const again = await cb.run(['--json', 'courses', 'publish', 'crs_ready'], { clock: { now: () => '2027-01-01T00:00:00.000Z' } });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'published', publishedAt: CLI_NOW });
  });

  it('is not-ready (exit 6) while essential items are unmet, naming them', async () => {
    expectError(
      await cb.run(['courses', 'publish', 'crs_data101']),
      6,
      'error (not-ready): The course is not ready to publish: essential items 2.2, 3.1, 4.1, 6.1, 7.1 are not met.\n',
    );
    const json = await cb.run(['--json', 'courses', 'publish', 'crs_data101']);
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        code: 'not-ready',
        message: 'The course is not ready to publish: essential items 2.2, 3.1, 4.1, 6.1, 7.1 are not met.',
        details: { blocking: ['2.2', '3.1', '4.1', '6.1', '7.1'] },
      },
    });
    expect(fields(await cb.ok(['courses', 'show', 'crs_data101'])).status).toBe('draft');
  });

  it('an unknown course is not-found (exit 5)', async () => {
    expectError(await cb.run(['courses', 'publish', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
  });

  it('a student may not publish (exit 4)', async () => {
    expectError(await cb.run(['--as', 'usr_s01', 'courses', 'publish', 'crs_data101']), 4, FORBIDDEN_WRITE);
  });
});

// --- modules ---------------------------------------------------------------------------

const DEMO_MODULES = [
  ['0', 'mod_01', 'Finding and cleaning data', 'Identify and fix the five most common problems in a raw data table.'],
  ['1', 'mod_02', 'Summarising data', 'Choose and compute the mean, median or mode that fits a question.'],
  ['2', 'mod_03', 'Telling the story', 'Build a chart that answers one question without misleading.'],
];

describe('modules list', () => {
  const cb = demoStore();

  it("prints the course's modules in order as TSV (students see the published ones)", async () => {
    const res = await cb.run(['modules', 'list', '--course', 'crs_data101']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(rows(res.stdout)).toEqual(DEMO_MODULES);
    // #14: a draft module (mod_03) and everything in it are hidden from students.
    expect(rows(await cb.ok(['--as', 'usr_s01', 'modules', 'list', '--course', 'crs_data101']))).toEqual(DEMO_MODULES.filter((r) => r[1] !== 'mod_03'));
  });

  it('an unknown course, or one the user is not enrolled in, is not-found (exit 5)', async () => {
    expectError(await cb.run(['modules', 'list', '--course', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
    expectError(
      await cb.run(['--as', 'usr_manager', 'modules', 'list', '--course', 'crs_data101']),
      5,
      'error (not-found): Course "crs_data101" was not found.\n',
    );
  });
});

describe('modules show', () => {
  const cb = demoStore();

  it('prints the module as key/value lines', async () => {
    const res = await cb.run(['modules', 'show', 'mod_02']);
    expect(res).toEqual({
      code: 0,
      stdout:
        'id\tmod_02\ncourseId\tcrs_data101\ntitle\tSummarising data\nobjective\tChoose and compute the mean, median or mode that fits a question.\nposition\t1\nstatus\tpublished\n',
      stderr: '',
    });
  });

  it('an unknown module is not-found (exit 5)', async () => {
    expectError(await cb.run(['modules', 'show', 'mod_nope']), 5, 'error (not-found): Module "mod_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_manager', 'modules', 'show', 'mod_01']), 5, 'error (not-found): Module "mod_01" was not found.\n');
  });
});

describe('modules create', () => {
  const cb = demoStore();

  it('adds a draft module last, or at --position with later modules shifting down', async () => {
    const lastId = (await cb.ok(['modules', 'create', '--course', 'crs_data101', '--title', 'Wrap-up', '--objective', 'Reflect on the course.'])).trim();
    const last = fields(await cb.ok(['modules', 'show', lastId]));
    expect(last).toMatchObject({ courseId: 'crs_data101', title: 'Wrap-up', objective: 'Reflect on the course.', status: 'draft', position: '3' });
    expect(last.id).toMatch(/^mod_/);
    const first = JSON.parse(await cb.ok(['--json', 'modules', 'create', '--course', 'crs_data101', '--title', 'Start here', '--position', '0']));
    expect(first).toMatchObject({ title: 'Start here', objective: '', position: 0 });
    expect(rows(await cb.ok(['modules', 'list', '--course', 'crs_data101'])).map((r) => r[1])).toEqual([first.id, 'mod_01', 'mod_02', 'mod_03', last.id]);
  });

  it('on a terminal offers the courses, then asks for the title', async () => {
    const { prompter, options } = interactive(['crs_data101', 'Extras']);
    const res = await cb.run(['modules', 'create'], options);
    expect(prompter.asked).toEqual(['Which course?', 'Module title?']);
    expect(prompter.offered).toEqual([['Data Literacy 101 (crs_data101, draft)']]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Created module mod_[a-z0-9]+ "Extras"\n$/);
  });

  it('a missing --course or --title is a usage error (exit 2) naming the flag', async () => {
    expectError(await cb.run(['modules', 'create', '--title', 'X']), 2, MISSING_COURSE);
    expectError(await cb.run(['modules', 'create', '--course', 'crs_data101']), 2, 'error: missing --title\n');
  });

  it('a --position that is not a number is a usage error (exit 2); out of range is invalid (exit 3)', async () => {
    expectError(
      await cb.run(['modules', 'create', '--course', 'crs_data101', '--title', 'X', '--position', 'first']),
      2,
      'error: --position must be a number (got "first")\n',
    );
    expectError(
      await cb.run(['modules', 'create', '--course', 'crs_data101', '--title', 'X', '--position', '-1']),
      3,
      'error (invalid): --position: must be >= 0\n',
    );
    expectError(
      await cb.run(['modules', 'create', '--course', 'crs_data101', '--title', 'X', '--position', '1.5']),
      3,
      'error (invalid): --position: must be an integer\n',
    );
    expectError(
      await cb.run(['modules', 'create', '--course', 'crs_data101', '--title', 'X', '--position', '99']),
      3,
      /^error \(invalid\): --position: must be between 0 and \d+\n$/,
    );
  });

  it('an unknown course is not-found (exit 5); a student may not add modules (exit 4)', async () => {
    expectError(await cb.run(['modules', 'create', '--course', 'crs_nope', '--title', 'X']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'modules', 'create', '--course', 'crs_data101', '--title', 'X']), 4, FORBIDDEN_WRITE);
  });
});

describe('modules update', () => {
  const cb = demoStore();

  it('changes the given fields; a new --position shifts its siblings', async () => {
    const res = await cb.run(['--as', 'usr_instructor', 'modules', 'update', 'mod_03', '--title', 'Charts', '--position', '0']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toEqual({
      id: 'mod_03',
      courseId: 'crs_data101',
      title: 'Charts',
      objective: 'Build a chart that answers one question without misleading.',
      position: '0',
      status: 'draft',
    });
    expect(rows(await cb.ok(['modules', 'list', '--course', 'crs_data101'])).map((r) => r.slice(0, 2))).toEqual([
      ['0', 'mod_03'],
      ['1', 'mod_01'],
      ['2', 'mod_02'],
    ]);
  });

  it('no field to change is a usage error (exit 2) naming the flags', async () => {
    expectError(await cb.run(['modules', 'update', 'mod_01']), 2, 'error: nothing to change: give --title, --objective or --position\n');
  });

  it('an empty title or a position past the end is invalid (exit 3)', async () => {
    expectError(await cb.run(['modules', 'update', 'mod_01', '--title', '']), 3, 'error (invalid): --title: must not be empty\n');
    expectError(await cb.run(['modules', 'update', 'mod_01', '--position', '3']), 3, 'error (invalid): --position: must be between 0 and 2\n');
  });

  it('an unknown module is not-found (exit 5); a reviewer may not change it (exit 4)', async () => {
    expectError(await cb.run(['modules', 'update', 'mod_nope', '--title', 'X']), 5, 'error (not-found): Module "mod_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_reviewer', 'modules', 'update', 'mod_01', '--title', 'X']), 4, FORBIDDEN_WRITE);
  });
});

// --- lessons ---------------------------------------------------------------------------

describe('lessons create', () => {
  const cb = demoStore();

  it('creates a draft lesson at the end of the module', async () => {
    const res = await cb.run(['lessons', 'create', '--module', 'mod_03', '--title', 'Honest axes', '--minutes', '20']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^les_[a-z0-9]+\n$/);
    const lesson = fields(await cb.ok(['lessons', 'show', res.stdout.trim()]));
    expect(lesson).toMatchObject({
      moduleId: 'mod_03',
      courseId: 'crs_data101',
      title: 'Honest axes',
      minutes: '20',
      status: 'draft',
      publishedAt: '',
      position: '1',
    });
    expect(rows(await cb.ok(['lessons', 'list', '--module', 'mod_03'])).map((r) => r[1])).toEqual(['les_05', lesson.id]);
  });

  it('on a terminal picks the course and module from lists, then asks for the title and minutes', async () => {
    const { prompter, options } = interactive(['crs_data101', 'mod_01', 'Tidy data', '25']);
    const res = await cb.run(['lessons', 'create'], options);
    expect(prompter.asked).toEqual(['Which course?', 'Which module?', 'Lesson title?', 'Minutes (1-240)?']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Created lesson les_[a-z0-9]+ "Tidy data"\n$/);
  });

  it('on a terminal the offered modules are those of the picked course, and minutes are checked as typed', async () => {
    const offered: unknown[] = [];
    const picks = ['crs_data101', 'mod_02'];
    const prompter = {
      ...scriptedPrompter([]),
      select: async <T extends string>(_message: string, choices: { name: string; value: T }[]) => {
        offered.push(choices);
        return picks.shift()! as T;
      },
      input: async (message: string, opts?: { validate?: (v: string) => true | string }) => {
        if (message !== 'Minutes (1-240)?') return 'Checked';
        // What a person would see while typing: each wrong answer is refused with the API's words.
        expect(['0', '241', '2.5', 'ten', ''].map((v) => opts!.validate!(v))).toEqual([
          'must be >= 1',
          'must be <= 240',
          'must be an integer',
          'must be a number',
          'a value is required',
        ]);
        expect(opts!.validate!('240')).toBe(true);
        return '45';
      },
    };
    const res = await cb.run(['lessons', 'create'], { tty: { stdin: true, stdout: true }, env: { CI: '' }, prompter });
    expect(res.code).toBe(0);
    expect(offered).toEqual([
      [{ name: 'Data Literacy 101 (crs_data101, draft)', value: 'crs_data101' }],
      [
        { name: '1. Finding and cleaning data (mod_01)', value: 'mod_01' },
        { name: '2. Summarising data (mod_02)', value: 'mod_02' },
        { name: '3. Telling the story (mod_03)', value: 'mod_03' },
      ],
    ]);
    expect(JSON.parse(await cb.ok(['--json', 'lessons', 'show', res.stdout.match(/les_[a-z0-9]+/)![0]]))).toMatchObject({ moduleId: 'mod_02', minutes: 45 });
  });

  it('a missing --module or --minutes is a usage error (exit 2) naming the flag', async () => {
    expectError(await cb.run(['lessons', 'create', '--title', 'X', '--minutes', '5']), 2, 'error: missing --module\n');
    expectError(await cb.run(['lessons', 'create', '--module', 'mod_03', '--title', 'X']), 2, 'error: missing --minutes\n');
  });

  it('--minutes must be a whole number from 1 to 240 (exit 2 for text, exit 3 out of range)', async () => {
    const base = ['lessons', 'create', '--module', 'mod_03', '--title', 'X'];
    expectError(await cb.run([...base, '--minutes', 'ten']), 2, 'error: --minutes must be a number (got "ten")\n');
    expectError(await cb.run([...base, '--minutes', '0']), 3, 'error (invalid): --minutes: must be >= 1\n');
    expectError(await cb.run([...base, '--minutes', '241']), 3, 'error (invalid): --minutes: must be <= 240\n');
    expectError(await cb.run([...base, '--minutes', '1.5']), 3, 'error (invalid): --minutes: must be an integer\n');
  });

  it('an unknown module is not-found (exit 5); a student may not add lessons (exit 4)', async () => {
    expectError(
      await cb.run(['lessons', 'create', '--module', 'mod_nope', '--title', 'X', '--minutes', '5']),
      5,
      'error (not-found): Module "mod_nope" was not found.\n',
    );
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'create', '--module', 'mod_01', '--title', 'X', '--minutes', '5']), 4, FORBIDDEN_WRITE);
  });
});

describe('lessons list', () => {
  const cb = demoStore();

  it("prints the module's lessons in order; students see published lessons only", async () => {
    expect(await cb.run(['lessons', 'list', '--module', 'mod_01'])).toEqual({
      code: 0,
      stdout: '0\tles_01\tWelcome and how this course works\t15\tpublished\n1\tles_02\tSpotting dirty data\t30\tpublished\n',
      stderr: '',
    });
    expect(rows(await cb.ok(['lessons', 'list', '--module', 'mod_03']))).toEqual([['0', 'les_05', 'Charts that do not lie', '35', 'draft']]);
    // #14: mod_03 is a draft module, so students see neither it nor its lessons.
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'list', '--module', 'mod_03']), 5, 'error (not-found): Module "mod_03" was not found.\n');
  });

  it('an unknown module is not-found (exit 5)', async () => {
    expectError(await cb.run(['lessons', 'list', '--module', 'mod_nope']), 5, 'error (not-found): Module "mod_nope" was not found.\n');
  });
});

describe('lessons show', () => {
  const cb = demoStore();

  it('prints the lesson as key/value lines', async () => {
    expect(await cb.run(['lessons', 'show', 'les_02'])).toEqual({
      code: 0,
      stdout:
        'id\tles_02\nmoduleId\tmod_01\ncourseId\tcrs_data101\ntitle\tSpotting dirty data\nminutes\t30\nposition\t1\nstatus\tpublished\npublishedAt\t2026-08-03T09:00:00.000Z\n',
      stderr: '',
    });
  });

  it('an unknown lesson is not-found (exit 5); a draft lesson is not-found to a student', async () => {
    expectError(await cb.run(['lessons', 'show', 'les_nope']), 5, 'error (not-found): Lesson "les_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'show', 'les_05']), 5, 'error (not-found): Lesson "les_05" was not found.\n');
  });
});

describe('lessons update', () => {
  const cb = demoStore();

  it('changes the given fields; --position reorders the module', async () => {
    const res = await cb.run(['lessons', 'update', 'les_02', '--title', 'Dirty data', '--minutes', '40', '--position', '0']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: 'les_02', title: 'Dirty data', minutes: '40', position: '0', status: 'published' });
    expect(rows(await cb.ok(['lessons', 'list', '--module', 'mod_01'])).map((r) => r[1])).toEqual(['les_02', 'les_01']);
  });

  it('no field to change is a usage error (exit 2) naming the flags', async () => {
    expectError(await cb.run(['lessons', 'update', 'les_01']), 2, 'error: nothing to change: give --title, --minutes or --position\n');
  });

  it('invalid values: --minutes 300 (exit 3), --position x (exit 2), an empty title (exit 3)', async () => {
    expectError(await cb.run(['lessons', 'update', 'les_01', '--minutes', '300']), 3, 'error (invalid): --minutes: must be <= 240\n');
    expectError(await cb.run(['lessons', 'update', 'les_01', '--position', 'x']), 2, 'error: --position must be a number (got "x")\n');
    expectError(await cb.run(['lessons', 'update', 'les_01', '--title', '']), 3, 'error (invalid): --title: must not be empty\n');
  });

  it('an unknown lesson is not-found (exit 5); a student may not change it (exit 4)', async () => {
    expectError(await cb.run(['lessons', 'update', 'les_nope', '--title', 'X']), 5, 'error (not-found): Lesson "les_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'update', 'les_01', '--title', 'X']), 4, FORBIDDEN_WRITE);
  });
});

describe('lessons publish', () => {
  const cb = demoStore();

  it('publishes a draft lesson (publishedAt set once); students can then see it', async () => {
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'show', 'les_05']), 5, 'error (not-found): Lesson "les_05" was not found.\n');
    const res = await cb.run(['lessons', 'publish', 'les_05']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: 'les_05', status: 'published', publishedAt: CLI_NOW });
    const again = await cb.run(['--json', 'lessons', 'publish', 'les_05'], { clock: { now: () => '2027-01-01T00:00:00.000Z' } });
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'published', publishedAt: CLI_NOW });
    // #14: les_05 sits in the draft module mod_03; students see it once the module is published too.
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'show', 'les_05']), 5, 'error (not-found): Lesson "les_05" was not found.\n');
    await cb.ok(['modules', 'publish', 'mod_03']);
    expect(fields(await cb.ok(['--as', 'usr_s01', 'lessons', 'show', 'les_05'])).status).toBe('published');
  });

  it('an unknown lesson is not-found (exit 5)', async () => {
    expectError(await cb.run(['lessons', 'publish', 'les_nope']), 5, 'error (not-found): Lesson "les_nope" was not found.\n');
  });

  it('a student or a reviewer may not publish (exit 4)', async () => {
    expectError(await cb.run(['--as', 'usr_s01', 'lessons', 'publish', 'les_01']), 4, FORBIDDEN_WRITE);
    expectError(await cb.run(['--as', 'usr_reviewer', 'lessons', 'publish', 'les_01']), 4, FORBIDDEN_WRITE);
  });
});
