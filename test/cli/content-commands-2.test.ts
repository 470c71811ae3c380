/**
 * In-process tests of the block, assignment and submission commands (local mode, demo
 * store): each command's success path and the errors a user really hits, with exit codes
 * and the exact text on stdout/stderr. Courses, modules and lessons are in
 * content-commands.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CLI_NOW, type CliResult } from '../helpers/cli.js';
import { type CliStore, demoStore, expectError, expectFileError, fields, interactive, rows } from '../helpers/cli-store.js';

const FORBIDDEN_WRITE = "error (forbidden): Only the course's instructors and admins may do this.\n";
const MISSING_FILE = '/nonexistent/coursebook-input.json';
const PROVENANCE = { model: 'demo-model-1', task: 'draft', generatedAt: '2026-08-05T12:00:00Z', sources: [], summary: 'Drafted a tip.' };

// --- blocks ----------------------------------------------------------------------------

describe('blocks list', () => {
  const cb = demoStore();

  it("prints a lesson's blocks in order: position, id, type, content (60 chars), AI state", async () => {
    expect(await cb.run(['blocks', 'list', '--lesson', 'les_01'])).toEqual({
      code: 0,
      stdout: [
        '0\tblk_001\theading\tWelcome to Data Literacy 101\t',
        '1\tblk_002\tparagraph\tEach week has two short lessons and one assignment. Post que\t',
        '2\tblk_003\tcallout\tAll deadlines are at 23:59 UTC. Late work loses 10% per day,\t',
        '3\tblk_004\tlink\tAccessibility and technical support\t',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(rows(await cb.ok(['blocks', 'list', '--lesson', 'les_04']))).toEqual([
      ['0', 'blk_013', 'heading', 'Spread matters', ''],
      ['1', 'blk_014', 'paragraph', 'Two classes with the same mean can have very different range', ''],
      ['2', 'blk_015', 'embed', 'https://apps.demo.example/spread-explorer', ''],
      ['3', 'blk_016', 'divider', '', ''],
      ['4', 'blk_017', 'paragraph', 'Try it: drag the slider until the standard deviation doubles', 'draft'],
    ]);
  });

  it('an unknown lesson is not-found (exit 5); a draft lesson is not-found to a student', async () => {
    expectError(await cb.run(['blocks', 'list', '--lesson', 'les_nope']), 5, 'error (not-found): Lesson "les_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'list', '--lesson', 'les_05']), 5, 'error (not-found): Lesson "les_05" was not found.\n');
  });
});

describe('blocks create', () => {
  const cb = demoStore();

  it('adds a block from flags, last or at --position', async () => {
    const calloutId = (await cb.ok(['blocks', 'create', '--lesson', 'les_05', '--type', 'callout', '--tone', 'warning', '--text', 'Check the axis.'])).trim();
    const callout = fields(await cb.ok(['blocks', 'show', calloutId]));
    expect(callout).toMatchObject({
      lessonId: 'les_05',
      position: '3',
      origin: 'human',
      aiState: '',
      type: 'callout',
      tone: 'warning',
      text: 'Check the axis.',
      updatedAt: CLI_NOW,
    });
    const list = JSON.parse(
      await cb.ok(['--json', 'blocks', 'create', '--lesson', 'les_05', '--type', 'list', '--item', 'Zero', 'Scale', '--ordered', '--position', '0']),
    );
    expect(list).toMatchObject({ type: 'list', items: ['Zero', 'Scale'], ordered: true, position: 0 });
    expect(rows(await cb.ok(['blocks', 'list', '--lesson', 'les_05'])).map((r) => r.slice(0, 3))).toEqual([
      ['0', list.id, 'list'],
      ['1', 'blk_018', 'heading'],
      ['2', 'blk_019', 'paragraph'],
      ['3', 'blk_020', 'link'],
      ['4', callout.id!, 'callout'],
    ]);
  });

  it('adds a block from --file (stdin); with provenance it is an AI draft', async () => {
    const res = await cb.run(['--json', 'blocks', 'create', '--lesson', 'les_03', '--file', '-'], {
      input: JSON.stringify({ type: 'paragraph', text: 'Try the median first.', provenance: PROVENANCE }),
    });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      lessonId: 'les_03',
      position: 4,
      origin: 'ai',
      aiState: 'draft',
      type: 'paragraph',
      text: 'Try the median first.',
    });
  });

  it('a video takes its captions as a URL or as the text itself, and --duration in seconds', async () => {
    const add = (...flags: string[]) => cb.run(['blocks', 'create', '--lesson', 'les_05', '--type', 'video', '--url', 'https://video.example/axes', ...flags]);
    const byUrl = await add('--json', '--captions', 'https://video.example/axes.vtt', '--duration', '95');
    expect(byUrl.code).toBe(0);
    expect(JSON.parse(byUrl.stdout)).toMatchObject({ type: 'video', captions: 'https://video.example/axes.vtt', durationSeconds: 95 });
    const byText = await add('--json', '--captions', 'Narrator: start every bar at zero.');
    expect(JSON.parse(byText.stdout)).toMatchObject({ captions: 'Narrator: start every bar at zero.', durationSeconds: null });
    // Named by the flag typed: --duration, not durationSeconds.
    expectError(await add('--duration', '1.5'), 3, 'error (invalid): --duration: must be an integer\n');
    expectError(await add('--duration', 'long'), 2, 'error: --duration must be a number (got "long")\n');
  });

  it('neither --type nor --file is a usage error (exit 2) naming both', async () => {
    expectError(await cb.run(['blocks', 'create', '--lesson', 'les_05']), 2, 'error: give --file or --type (with its fields)\n');
  });

  it('a --level that is not a number is a usage error (exit 2); --file that is not JSON too', async () => {
    expectError(
      await cb.run(['blocks', 'create', '--lesson', 'les_05', '--type', 'heading', '--text', 'X', '--level', 'two']),
      2,
      'error: --level must be a number (got "two")\n',
    );
    expectError(
      await cb.run(['blocks', 'create', '--lesson', 'les_05', '--file', '-'], { input: 'heading: X' }),
      3,
      /^error \(invalid\): standard input: not valid JSON: /,
    );
  });

  it('content the block type does not allow is invalid (exit 3), naming the flag to fix', async () => {
    const add = (...flags: string[]) => cb.run(['blocks', 'create', '--lesson', 'les_05', ...flags]);
    expectError(await add('--type', 'heading', '--text', 'X'), 3, 'error (invalid): --level: is required\n');
    expectError(await add('--type', 'heading', '--text', 'X', '--level', '9'), 3, 'error (invalid): --level: must be <= 6\n');
    expectError(await add('--type', 'banner', '--text', 'X'), 3, 'error (invalid): --type: is not one of the allowed values\n');
    expectError(await add('--type', 'link', '--text', 'X', '--url', 'ftp://files.example'), 3, 'error (invalid): --url: must be an http or https URL\n');
    expectError(await add('--type', 'paragraph', '--text', '   '), 3, 'error (invalid): --text: must not be blank\n');
    expectError(await add('--type', 'divider', '--position', '50'), 3, /^error \(invalid\): --position: must be between 0 and \d+\n$/);
    expectError(await add('--type', 'list', '--item', 'a', '--item', ' ', '--item', 'c'), 3, 'error (invalid): --item (the 2nd): must not be blank\n');
    expectError(
      await add('--type', 'embed', '--url', 'ftp://files.example'),
      3,
      'error (invalid): 2 problems: --url, --title\n  --url: must be an http or https URL\n  --title: is required\n',
    );
    // --json prints the API's envelope as it is: paths are the body's fields, for programs.
    const json = await cb.run(['--json', 'blocks', 'create', '--lesson', 'les_05', '--type', 'heading', '--text', 'X']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'invalid', details: [{ path: 'level', message: 'is required' }] });
    // A body from --file keeps its fields' paths too.
    expectError(
      await cb.run(['blocks', 'create', '--lesson', 'les_05', '--file', '-'], { input: '{"type":"heading","text":"X"}' }),
      3,
      'error (invalid): level: is required\n',
    );
  });

  it('an unknown lesson is not-found (exit 5); a student may not add blocks (exit 4)', async () => {
    expectError(await cb.run(['blocks', 'create', '--lesson', 'les_nope', '--type', 'divider']), 5, 'error (not-found): Lesson "les_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'create', '--lesson', 'les_01', '--type', 'divider']), 4, FORBIDDEN_WRITE);
  });

  it('--json prints the same block that blocks show prints (no assignmentId)', async () => {
    const added = await cb.run(['--json', 'blocks', 'create', '--lesson', 'les_02', '--type', 'divider']);
    const id = JSON.parse(added.stdout).id as string;
    expect(added.stdout).toBe((await cb.run(['--json', 'blocks', 'show', id])).stdout);
  });

  it('--file with JSON null and --position is invalid (exit 3), not a crash', async () => {
    expectError(
      await cb.run(['blocks', 'create', '--lesson', 'les_01', '--file', '-', '--position', '0'], { input: 'null' }),
      3,
      'error (invalid): (root): must be an object, not null\n',
    );
  });

  it('a --file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['blocks', 'create', '--lesson', 'les_01', '--file', MISSING_FILE]), MISSING_FILE);
  });
});

describe('blocks show', () => {
  const cb = demoStore();

  it('prints the block as key/value lines: meta fields, then its content', async () => {
    expect(await cb.run(['blocks', 'show', 'blk_003'])).toEqual({
      code: 0,
      stdout:
        'id\tblk_003\nlessonId\tles_01\nposition\t2\norigin\thuman\naiState\t\nprovenance\t\nprevious\t\nupdatedAt\t2026-08-02T10:00:00.000Z\n' +
        'tone\tinfo\ntext\tAll deadlines are at 23:59 UTC. Late work loses 10% per day, for at most 5 days.\ntype\tcallout\n',
      stderr: '',
    });
  });

  it('--json prints the API JSON byte for byte', async () => {
    expect(await cb.run(['--json', 'blocks', 'show', 'blk_006'])).toEqual({
      code: 0,
      stdout:
        '{"id":"blk_006","lessonId":"les_02","position":1,"origin":"human","aiState":null,"provenance":null,"previous":null,"updatedAt":"2026-08-02T10:00:00.000Z",' +
        '"ordered":true,"items":["Missing values","Duplicates","Inconsistent units","Typos in categories","Outliers from data entry"],"type":"list"}\n',
      stderr: '',
    });
  });

  it('an unknown block is not-found (exit 5); a block of a draft lesson is not-found to a student', async () => {
    expectError(await cb.run(['blocks', 'show', 'blk_nope']), 5, 'error (not-found): Block "blk_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'show', 'blk_018']), 5, 'error (not-found): Block "blk_018" was not found.\n');
  });
});

describe('blocks update', () => {
  const cb = demoStore();

  it('replaces the content; the old content is kept in previous', async () => {
    const res = await cb.run(['blocks', 'update', 'blk_019', '--type', 'paragraph', '--text', 'Start bar axes at zero.']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toEqual({
      id: 'blk_019',
      lessonId: 'les_05',
      position: '1',
      origin: 'human',
      aiState: '',
      provenance: '',
      // The old content in its canonical order, type first (as an import or a push stores it).
      previous: '{"type":"paragraph","text":"A bar chart whose axis does not start at zero exaggerates differences."}',
      updatedAt: CLI_NOW,
      text: 'Start bar axes at zero.',
      type: 'paragraph',
    });
  });

  it("a person's edit of an AI draft makes it human content (aiState and provenance cleared)", async () => {
    const res = await cb.run(['--json', 'blocks', 'update', 'blk_017', '--file', '-'], {
      input: JSON.stringify({ type: 'heading', level: 3, text: 'Try it' }),
    });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      id: 'blk_017',
      origin: 'human',
      aiState: null,
      provenance: null,
      type: 'heading',
      level: 3,
      text: 'Try it',
      previous: { type: 'paragraph' },
    });
  });

  it('no content is a usage error (exit 2); content the type does not allow is invalid (exit 3)', async () => {
    expectError(await cb.run(['blocks', 'update', 'blk_019']), 2, 'error: give --file or --type (with its fields)\n');
    expectError(await cb.run(['blocks', 'update', 'blk_019', '--type', 'heading', '--text', 'X']), 3, 'error (invalid): --level: is required\n');
    expectError(
      await cb.run(['blocks', 'update', 'blk_019', '--file', '-'], { input: JSON.stringify({ type: 'paragraph', text: 'X', provenance: PROVENANCE }) }),
      3,
      'error (invalid): provenance: unknown field\n',
    );
  });

  it('an unknown block is not-found (exit 5); a student may not edit (exit 4)', async () => {
    expectError(await cb.run(['blocks', 'update', 'blk_nope', '--type', 'divider']), 5, 'error (not-found): Block "blk_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'update', 'blk_001', '--type', 'divider']), 4, FORBIDDEN_WRITE);
  });

  it('a --file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['blocks', 'update', 'blk_001', '--file', MISSING_FILE]), MISSING_FILE);
  });
});

describe('blocks move', () => {
  const cb = demoStore();

  it('moves a block to a 0-based position; its siblings shift', async () => {
    const res = await cb.run(['blocks', 'move', 'blk_008', '0']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: 'blk_008', lessonId: 'les_02', position: '0', type: 'code', updatedAt: '2026-08-02T10:00:00.000Z' });
    expect(rows(await cb.ok(['blocks', 'list', '--lesson', 'les_02'])).map((r) => r.slice(0, 2))).toEqual([
      ['0', 'blk_008'],
      ['1', 'blk_005'],
      ['2', 'blk_006'],
      ['3', 'blk_007'],
    ]);
  });

  it('a position that is not a number, or no position, is a usage error (exit 2)', async () => {
    expectError(await cb.run(['blocks', 'move', 'blk_005', 'top']), 2, 'error: position must be a number (got "top")\n');
    const missing = await cb.run(['blocks', 'move', 'blk_005']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: missing required argument 'position'\n/);
  });

  it('a position outside the lesson is invalid (exit 3)', async () => {
    expectError(await cb.run(['blocks', 'move', 'blk_005', '-1']), 3, 'error (invalid): position: must be >= 0\n');
    expectError(await cb.run(['blocks', 'move', 'blk_005', '4']), 3, 'error (invalid): position: must be between 0 and 3\n');
  });

  it('an unknown block is not-found (exit 5); a student may not move blocks (exit 4)', async () => {
    expectError(await cb.run(['blocks', 'move', 'blk_nope', '0']), 5, 'error (not-found): Block "blk_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'move', 'blk_001', '1']), 4, FORBIDDEN_WRITE);
  });
});

describe('blocks delete', () => {
  const cb = demoStore();

  it('--yes deletes the block and the gap closes', async () => {
    expect(await cb.run(['blocks', 'delete', 'blk_010', '--yes'])).toEqual({ code: 0, stdout: 'ok\ttrue\nid\tblk_010\n', stderr: '' });
    expect(rows(await cb.ok(['blocks', 'list', '--lesson', 'les_03'])).map((r) => r.slice(0, 2))).toEqual([
      ['0', 'blk_009'],
      ['1', 'blk_011'],
      ['2', 'blk_012'],
    ]);
    expectError(await cb.run(['blocks', 'show', 'blk_010']), 5, 'error (not-found): Block "blk_010" was not found.\n');
  });

  it('on a terminal asks first: "no" deletes nothing, "yes" deletes', async () => {
    const no = interactive([false]);
    expect(await cb.run(['blocks', 'delete', 'blk_014'], no.options)).toEqual({ code: 0, stdout: '', stderr: 'nothing deleted\n' });
    expect(no.prompter.asked).toEqual(['Delete block blk_014?']);
    expect((await cb.run(['blocks', 'show', 'blk_014'])).code).toBe(0);
    const yes = interactive([true]);
    const res = await cb.run(['blocks', 'delete', 'blk_014'], yes.options);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^id +blk_014$/m);
    expect((await cb.run(['blocks', 'show', 'blk_014'])).code).toBe(5);
  });

  it('without a terminal and without --yes it is a usage error (exit 2) and the block stays', async () => {
    expectError(await cb.run(['blocks', 'delete', 'blk_015']), 2, 'error: deleting needs --yes when not interactive\n');
    expect(fields(await cb.ok(['blocks', 'show', 'blk_015'])).type).toBe('embed');
  });

  it('an unknown (or already deleted) block is not-found (exit 5); a student may not delete (exit 4)', async () => {
    expectError(await cb.run(['blocks', 'delete', 'blk_nope', '--yes']), 5, 'error (not-found): Block "blk_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'delete', 'blk_001', '--yes']), 4, FORBIDDEN_WRITE);
  });
});

describe('blocks review', () => {
  const cb = demoStore();
  const aiDraft = async (text: string) =>
    JSON.parse(
      await cb.ok(['--json', 'blocks', 'create', '--lesson', 'les_03', '--file', '-'], {
        input: JSON.stringify({ type: 'paragraph', text, provenance: PROVENANCE }),
      }),
    ).id as string;

  it('--accept keeps the AI content (aiState accepted)', async () => {
    const res = await cb.run(['blocks', 'review', 'blk_017', '--accept']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({
      id: 'blk_017',
      origin: 'ai',
      aiState: 'accepted',
      text: 'Try it: drag the slider until the standard deviation doubles, and watch the histogram widen.',
    });
    expect(rows(await cb.ok(['blocks', 'list', '--lesson', 'les_04']))[4]).toEqual([
      '4',
      'blk_017',
      'paragraph',
      'Try it: drag the slider until the standard deviation doubles',
      'accepted',
    ]);
  });

  it('--reject of a new AI block deletes it', async () => {
    const id = await aiDraft('A tip nobody asked for.');
    expect(await cb.run(['blocks', 'review', id, '--reject'])).toEqual({ code: 0, stdout: `ok\ttrue\nid\t${id}\ndeleted\ttrue\n`, stderr: '' });
    expect((await cb.run(['blocks', 'show', id])).code).toBe(5);
  });

  it('on a terminal without --accept/--reject asks for the decision', async () => {
    const id = await aiDraft('Compare the two medians.');
    const { prompter, options } = interactive(['accept']);
    const res = await cb.run(['blocks', 'review', id], options);
    expect(prompter.asked).toEqual(['Decision?']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^aiState +accepted$/m);
  });

  it('without a terminal a missing decision is a usage error (exit 2); both flags too', async () => {
    expectError(await cb.run(['blocks', 'review', 'blk_002']), 2, 'error: missing --accept or --reject\n');
    expectError(await cb.run(['blocks', 'review', 'blk_002', '--accept', '--reject']), 2, 'error: give --accept or --reject, not both\n');
  });

  it('a block that is not an AI draft is a conflict (exit 6)', async () => {
    expectError(
      await cb.run(['blocks', 'review', 'blk_002', '--accept']),
      6,
      'error (conflict): Block blk_002 is not an AI draft awaiting review (aiState null).\n',
    );
  });

  it('an unknown block is not-found (exit 5); a reviewer or a student may not decide (exit 4)', async () => {
    const id = await aiDraft('Another tip.');
    expectError(await cb.run(['blocks', 'review', 'blk_nope', '--reject']), 5, 'error (not-found): Block "blk_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_reviewer', 'blocks', 'review', id, '--accept']), 4, FORBIDDEN_WRITE);
    expectError(await cb.run(['--as', 'usr_s01', 'blocks', 'review', id, '--accept']), 4, FORBIDDEN_WRITE);
  });
});

// --- assignments -----------------------------------------------------------------------

const DEMO_ASSIGNMENTS = [
  ['asg_01', 'Quiz: kinds of dirty data', 'published', '10', '2026-09-07T23:59:00.000Z', 'cat_quiz'],
  ['asg_02', 'Clean the survey table', 'published', '40', '2026-09-14T23:59:00.000Z', 'cat_project'],
  ['asg_03', 'Quiz: averages', 'published', '10', '2026-09-21T23:59:00.000Z', 'cat_quiz'],
  ['asg_04', 'Quiz: spread', 'published', '10', '2026-09-28T23:59:00.000Z', 'cat_quiz'],
  ['asg_05', 'Summary report', 'published', '40', '2026-10-05T23:59:00.000Z', 'cat_project'],
  ['asg_06', 'Bonus: find a misleading average in the news', 'published', '0', '2026-10-12T23:59:00.000Z', 'cat_quiz'],
  ['asg_07', 'Final chart', 'published', '50', '2026-12-07T23:59:00.000Z', 'cat_final'],
];

/** A draft assignment in mod_03, made by the admin: its id. */
const draftAssignment = async (cb: Pick<CliStore, 'ok'>, title: string, type = 'text') =>
  (await cb.ok(['assignments', 'create', '--module', 'mod_03', '--title', title, '--points', '10', '--submission-type', type])).trim();

describe('assignments list', () => {
  const cb = demoStore();

  it('prints the course assignments in course order; students see published ones only', async () => {
    const draft = await draftAssignment(cb, 'Draft chart');
    const admin = await cb.run(['assignments', 'list', '--course', 'crs_data101']);
    expect(admin.code).toBe(0);
    // Created without --category: in the setup's first category (cat_quiz, position 0).
    expect(rows(admin.stdout)).toEqual([...DEMO_ASSIGNMENTS, [draft, 'Draft chart', 'draft', '10', '', 'cat_quiz']]);
    // #14: asg_07 is published but sits in the draft module mod_03, so students do not see it.
    expect(rows(await cb.ok(['--as', 'usr_s01', 'assignments', 'list', '--course', 'crs_data101']))).toEqual(DEMO_ASSIGNMENTS.filter((r) => r[0] !== 'asg_07'));
  });

  it('an unknown course, or one the user is not enrolled in, is not-found (exit 5)', async () => {
    expectError(await cb.run(['assignments', 'list', '--course', 'crs_nope']), 5, 'error (not-found): Course "crs_nope" was not found.\n');
    expectError(
      await cb.run(['--as', 'usr_manager', 'assignments', 'list', '--course', 'crs_data101']),
      5,
      'error (not-found): Course "crs_data101" was not found.\n',
    );
  });
});

describe('assignments show', () => {
  const cb = demoStore();

  it('prints the assignment with its rubric and instructions as pretty JSON (--json: the API text)', async () => {
    const res = await cb.run(['assignments', 'show', 'asg_06']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('{\n  "id": "asg_06",\n  "moduleId": "mod_02",\n')).toBe(true);
    const shown = JSON.parse(res.stdout);
    expect(shown).toMatchObject({ title: 'Bonus: find a misleading average in the news', points: 0, submissionType: 'link', rubric: [] });
    expect(shown.instructions).toEqual([
      {
        id: 'blk_i06',
        lessonId: null,
        position: 0,
        origin: 'human',
        aiState: null,
        provenance: null,
        previous: null,
        updatedAt: '2026-08-02T10:00:00.000Z',
        text: 'Optional: link to an article that misuses an average and explain why.',
        type: 'paragraph',
      },
    ]);
    const json = await cb.run(['--json', 'assignments', 'show', 'asg_06']);
    expect(json.stdout).toBe(`${JSON.stringify(shown)}\n`);
  });

  it('an unknown assignment is not-found (exit 5); a draft is not-found to a student', async () => {
    expectError(await cb.run(['assignments', 'show', 'asg_nope']), 5, 'error (not-found): Assignment "asg_nope" was not found.\n');
    const draft = await draftAssignment(cb, 'Secret draft');
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'show', draft]), 5, `error (not-found): Assignment "${draft}" was not found.\n`);
  });
});

describe('assignments create', () => {
  const cb = demoStore();
  const create = (...flags: string[]) => cb.run(['assignments', 'create', '--module', 'mod_03', '--title', 'X', '--points', '5', ...flags]);

  it('creates a draft assignment from flags (due date normalised, category checked)', async () => {
    const res = await cb.run([
      'assignments',
      'create',
      '--module',
      'mod_03',
      '--title',
      'Chart critique',
      '--points',
      '20',
      '--submission-type',
      'link',
      '--category',
      'cat_project',
      '--due',
      '2026-12-01T23:59:00Z',
    ]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^asg_[a-z0-9]+\n$/);
    const created = JSON.parse(await cb.ok(['--json', 'api', 'GET', `/assignments/${res.stdout.trim()}`]));
    for (const key of Object.keys(created))
      created[key] = typeof created[key] === 'object' && created[key] !== null ? JSON.stringify(created[key]) : String(created[key] ?? '');
    expect(created).toMatchObject({
      moduleId: 'mod_03',
      courseId: 'crs_data101',
      title: 'Chart critique',
      position: '1',
      status: 'draft',
      publishedAt: '',
      dueAt: '2026-12-01T23:59:00.000Z',
      points: '20',
      submissionType: 'link',
      categoryId: 'cat_project',
      rubric: '[]',
      instructions: '[]',
    });
  });

  it('takes a rubric and instructions from files', async () => {
    const rubric = [{ id: 'c1', title: 'Clarity', levels: [{ id: 'yes', title: 'Clear', points: 5 }] }];
    const res = await cb.run(['--json', 'assignments', 'create', '--module', 'mod_03', '--title', 'Rubric test', '--points', '5', '--rubric-file', '-'], {
      input: JSON.stringify(rubric),
    });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).rubric).toEqual([
      { id: 'c1', title: 'Clarity', description: '', levels: [{ id: 'yes', title: 'Clear', points: 5, description: '' }] },
    ]);
  });

  it('on a terminal offers the courses and their modules, then asks for the title and points', async () => {
    const { prompter, options } = interactive(['crs_data101', 'mod_02', 'Quiz: median', '15']);
    const res = await cb.run(['assignments', 'create'], options);
    expect(prompter.asked).toEqual(['Which course?', 'Which module?', 'Title?', 'Points?']);
    expect(prompter.offered[1]).toEqual(['1. Finding and cleaning data (mod_01)', '2. Summarising data (mod_02)', '3. Telling the story (mod_03)']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Created assignment asg_[a-z0-9]+ "Quiz: median"\n$/);
    expect(JSON.parse(await cb.ok(['--json', 'assignments', 'show', res.stdout.match(/asg_[a-z0-9]+/)![0]]))).toMatchObject({ points: 15, moduleId: 'mod_02' });
  });

  it('a missing --module or --points is a usage error (exit 2) naming the flag; so is --points ten', async () => {
    expectError(await cb.run(['assignments', 'create', '--title', 'X', '--points', '5']), 2, 'error: missing --module\n');
    expectError(await cb.run(['assignments', 'create', '--module', 'mod_03', '--title', 'X']), 2, 'error: missing --points\n');
    expectError(
      await cb.run(['assignments', 'create', '--module', 'mod_03', '--title', 'X', '--points', 'ten']),
      2,
      'error: --points must be a number (got "ten")\n',
    );
  });

  it('invalid values are refused (exit 3), naming the field', async () => {
    expectError(
      await create('--category', 'cat_nope'),
      3,
      `error (invalid): --category: "cat_nope" is not a category of the course's gradebook setup (its categories: cat_quiz, cat_project, cat_final)\n`,
    );
    expectError(await create('--due', 'tomorrow'), 3, 'error (invalid): --due: must be an RFC 3339 timestamp such as 2026-11-22T08:30:00Z\n');
    expectError(await create('--submission-type', 'video'), 3, 'error (invalid): --submission-type: must be one of "text", "file", "link"\n');
    expectError(
      await cb.run(['assignments', 'create', '--module', 'mod_03', '--title', 'X', '--points', '-5']),
      3,
      'error (invalid): --points: must be >= 0\n',
    );
    expectError(
      await cb.run(['assignments', 'create', '--module', 'mod_03', '--title', 'X', '--points', '5', '--rubric-file', '-'], { input: '[{"id":"c1"}]' }),
      3,
      'error (invalid): 2 problems: rubric[0].title: is required; ...\n  rubric[0].title: is required\n  rubric[0].levels: is required\n',
    );
  });

  it('an unknown module is not-found (exit 5); a student may not create (exit 4)', async () => {
    expectError(
      await cb.run(['assignments', 'create', '--module', 'mod_nope', '--title', 'X', '--points', '5']),
      5,
      'error (not-found): Module "mod_nope" was not found.\n',
    );
    // A published module (#14: a draft one is not-found to students).
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'create', '--module', 'mod_02', '--title', 'X', '--points', '5']), 4, FORBIDDEN_WRITE);
  });

  it('a --rubric-file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await create('--rubric-file', MISSING_FILE), MISSING_FILE);
  });
});

describe('assignments update', () => {
  const cb = demoStore();

  it('changes only the given fields; --due none clears the due date', async () => {
    const res = await cb.run(['--as', 'usr_instructor', 'assignments', 'update', 'asg_07', '--title', 'Final chart v2', '--points', '60', '--due', 'none']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({
      id: 'asg_07',
      title: 'Final chart v2',
      points: '60',
      dueAt: '',
      status: 'published',
      submissionType: 'file',
      categoryId: 'cat_final',
    });
  });

  it('--instructions-file replaces the instructions; a block with an id keeps its identity', async () => {
    const instructions = [
      { type: 'heading', level: 2, text: 'Your task' },
      { id: 'blk_i01', type: 'paragraph', text: 'Name the five kinds of dirty data.' },
    ];
    const res = await cb.run(['--json', 'assignments', 'update', 'asg_01', '--instructions-file', '-'], { input: JSON.stringify(instructions) });
    expect(res.code).toBe(0);
    const blocks = JSON.parse(res.stdout).instructions as Record<string, unknown>[];
    expect(blocks.map((b) => [b.position, b.type, b.text])).toEqual([
      [0, 'heading', 'Your task'],
      [1, 'paragraph', 'Name the five kinds of dirty data.'],
    ]);
    expect(blocks[1]).toMatchObject({ id: 'blk_i01', previous: { type: 'paragraph', text: 'Name and describe the five kinds of dirty data.' } });
  });

  it('no field to change is a usage error (exit 2) naming the flags', async () => {
    expectError(
      await cb.run(['assignments', 'update', 'asg_07']),
      2,
      'error: nothing to change: give at least one of --title, --due, --points, --position, --category, --submission-type, --rubric-file, --instructions-file\n',
    );
  });

  it('invalid values are refused (exit 3), naming the field, and nothing changes', async () => {
    expectError(
      await cb.run(['assignments', 'update', 'asg_02', '--category', 'cat_nope']),
      3,
      `error (invalid): --category: "cat_nope" is not a category of the course's gradebook setup (its categories: cat_quiz, cat_project, cat_final)\n`,
    );
    expectError(
      await cb.run(['assignments', 'update', 'asg_02', '--due', '2026-02-30T00:00:00Z']),
      3,
      'error (invalid): --due: must be an RFC 3339 timestamp such as 2026-11-22T08:30:00Z\n',
    );
    expectError(
      await cb.run(['assignments', 'update', 'asg_02', '--instructions-file', '-'], {
        input: JSON.stringify([{ id: 'blk_nope', type: 'paragraph', text: 'X' }]),
      }),
      3,
      /^error \(invalid\): instructions\[0\]\.id: /,
    );
    expect(rows(await cb.ok(['assignments', 'list', '--course', 'crs_data101']))[1]).toEqual(DEMO_ASSIGNMENTS[1]);
  });

  it('an unknown assignment is not-found (exit 5); a student may not change it (exit 4)', async () => {
    expectError(await cb.run(['assignments', 'update', 'asg_nope', '--title', 'X']), 5, 'error (not-found): Assignment "asg_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'update', 'asg_02', '--title', 'X']), 4, FORBIDDEN_WRITE);
  });

  it('an --instructions-file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['assignments', 'update', 'asg_02', '--instructions-file', MISSING_FILE]), MISSING_FILE);
  });
});

describe('assignments publish', () => {
  const cb = demoStore();

  it('publishes a draft (publishedAt set once); students can then see it', async () => {
    const draft = await draftAssignment(cb, 'Chart quiz');
    const res = await cb.run(['assignments', 'publish', draft]);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: draft, title: 'Chart quiz', status: 'published', publishedAt: CLI_NOW });
    const again = await cb.run(['--json', 'assignments', 'publish', draft], { clock: { now: () => '2027-01-01T00:00:00.000Z' } });
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'published', publishedAt: CLI_NOW });
    // #14: the draft sits in the draft module mod_03; students see it once the module is published too.
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'show', draft]), 5, `error (not-found): Assignment "${draft}" was not found.\n`);
    await cb.ok(['modules', 'publish', 'mod_03']);
    expect(JSON.parse(await cb.ok(['--as', 'usr_s01', '--json', 'assignments', 'show', draft]))).toMatchObject({ id: draft, status: 'published' });
  });

  it('an unknown assignment is not-found (exit 5)', async () => {
    expectError(await cb.run(['assignments', 'publish', 'asg_nope']), 5, 'error (not-found): Assignment "asg_nope" was not found.\n');
  });

  it('a student or a reviewer may not publish (exit 4)', async () => {
    // asg_01: one the student can see (#14: asg_07 sits in a draft module, not-found to students).
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'publish', 'asg_01']), 4, FORBIDDEN_WRITE);
    expectError(await cb.run(['--as', 'usr_reviewer', 'assignments', 'publish', 'asg_07']), 4, FORBIDDEN_WRITE);
  });
});

describe('assignments unpublish', () => {
  const cb = demoStore();

  it('returns an assignment without submissions to draft', async () => {
    const res = await cb.run(['assignments', 'unpublish', 'asg_07']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: 'asg_07', status: 'draft', publishedAt: '' });
    expect(rows(await cb.ok(['--as', 'usr_s01', 'assignments', 'list', '--course', 'crs_data101'])).map((r) => r[0])).toEqual([
      'asg_01',
      'asg_02',
      'asg_03',
      'asg_04',
      'asg_05',
      'asg_06',
    ]);
  });

  it('an assignment with submissions is a conflict (exit 6) and stays published', async () => {
    expectError(
      await cb.run(['assignments', 'unpublish', 'asg_01']),
      6,
      'error (conflict): Assignment asg_01 has 25 submissions; it cannot go back to draft.\n',
    );
    expect(JSON.parse(await cb.ok(['--json', 'assignments', 'show', 'asg_01'])).status).toBe('published');
  });

  it('an unknown assignment is not-found (exit 5); a student may not unpublish (exit 4)', async () => {
    expectError(await cb.run(['assignments', 'unpublish', 'asg_nope']), 5, 'error (not-found): Assignment "asg_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'unpublish', 'asg_06']), 4, FORBIDDEN_WRITE);
  });
});

// --- submissions -----------------------------------------------------------------------

describe('submissions create', () => {
  const cb = demoStore();

  it('a student submits the field the assignment takes; attempts count up', async () => {
    const res = await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_03', '--text', 'The median, because of the outlier.']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^sub_[a-z0-9]+\n$/);
    const sub = JSON.parse(await cb.ok(['--as', 'usr_s01', '--json', 'submissions', 'show', res.stdout.trim()]));
    expect(sub).toMatchObject({
      id: res.stdout.trim(),
      assignmentId: 'asg_03',
      studentId: 'usr_s01',
      attempt: 2,
      state: 'submitted',
      text: 'The median, because of the outlier.',
      fileId: null,
      link: null,
      submittedAt: CLI_NOW,
      grade: null,
    });
    const again = await cb.run(['--as', 'usr_s01', '--json', 'submissions', 'create', '--assignment', 'asg_03', '--text-file', '-'], { input: 'Second try.' });
    expect(JSON.parse(again.stdout)).toMatchObject({ attempt: 3, text: 'Second try.' });
    const link = await cb.run(['--as', 'usr_s02', '--json', 'submissions', 'create', '--assignment', 'asg_02', '--link', 'https://sheets.example/clean']);
    expect(JSON.parse(link.stdout)).toMatchObject({ studentId: 'usr_s02', link: 'https://sheets.example/clean', text: null });
  });

  it('no answer at all is a usage error (exit 2) naming the flag the assignment takes', async () => {
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_03']),
      2,
      'error: missing --text: asg_03 takes text submissions; give --text TEXT (or --text-file FILE)\n',
    );
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_05']),
      2,
      'error: missing --file-id: asg_05 takes file submissions; give --file-id ID\n',
    );
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_02']),
      2,
      'error: missing --link: asg_02 takes link submissions; give --link URL\n',
    );
    // An assignment the caller cannot read: every kind's flag (the API's answer comes with a try).
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_07']),
      2,
      'error: give --text, --text-file, --file-id or --link\n',
    );
  });

  it('text read with --text-file is named by --text-file, which was given, not --text', async () => {
    const res = await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_02', '--text-file', '-'], { input: 'My link is below.' });
    expectError(
      res,
      3,
      'error (invalid): 2 problems: --text-file, --link\n  --text-file: is not accepted: the assignment takes link submissions (link)\n  --link: is required: the assignment takes link submissions\n',
    );
  });

  it('the wrong field for the assignment, or a bad value, is invalid (exit 3), naming the field', async () => {
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_03', '--link', 'https://x.example']),
      3,
      'error (invalid): 2 problems: --text, --link\n  --text: is required: the assignment takes text submissions\n  --link: is not accepted: the assignment takes text submissions (text)\n',
    );
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_02', '--link', 'ftp://x.example']),
      3,
      'error (invalid): --link: must be an http or https URL\n',
    );
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_03', '--text', '']),
      3,
      'error (invalid): --text: must not be empty\n',
    );
  });

  it('only students submit: an admin or an instructor is forbidden (exit 4)', async () => {
    expectError(
      await cb.run(['submissions', 'create', '--assignment', 'asg_03', '--text', 'X']),
      4,
      'error (forbidden): Only students enrolled in the course may do this.\n',
    );
    expectError(
      await cb.run(['--as', 'usr_instructor', 'submissions', 'create', '--assignment', 'asg_03', '--text', 'X']),
      4,
      'error (forbidden): Only students enrolled in the course may do this.\n',
    );
  });

  it('an unknown assignment, or a draft, is not-found to the student (exit 5)', async () => {
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_nope', '--text', 'X']),
      5,
      'error (not-found): Assignment "asg_nope" was not found.\n',
    );
    const draft = await draftAssignment(cb, 'Not yet open');
    expectError(
      await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', draft, '--text', 'X']),
      5,
      `error (not-found): Assignment "${draft}" was not found.\n`,
    );
  });

  it('a --text-file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['--as', 'usr_s01', 'submissions', 'create', '--assignment', 'asg_03', '--text-file', MISSING_FILE]), MISSING_FILE);
  });
});

describe('submissions list', () => {
  const cb = demoStore();

  it('staff see every submission with its score; a student sees only their own', async () => {
    const all = rows(await cb.ok(['submissions', 'list', '--assignment', 'asg_05']));
    expect(all).toHaveLength(22);
    expect(all[0]).toEqual(['sub_005', 'usr_s01', '1', 'submitted', '2026-10-04T19:25:00.718Z', '']);
    expect(all[1]).toEqual(['sub_010', 'usr_s02', '1', 'graded', '2026-10-04T02:00:30.873Z', '36.5']);
    expect(await cb.run(['--as', 'usr_s01', 'submissions', 'list', '--assignment', 'asg_01'])).toEqual({
      code: 0,
      stdout: 'sub_001\tusr_s01\t1\treturned\t2026-09-10T03:06:31.951Z\t10\n',
      stderr: '',
    });
    expect(await cb.run(['--as', 'usr_s13', 'submissions', 'list', '--assignment', 'asg_05'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a reviewer may not read submissions (exit 4)', async () => {
    expectError(
      await cb.run(['--as', 'usr_reviewer', 'submissions', 'list', '--assignment', 'asg_01']),
      4,
      "error (forbidden): Only the course's instructors, admins and the submitting students may read submissions.\n",
    );
  });

  it('an unknown assignment is not-found (exit 5)', async () => {
    expectError(await cb.run(['submissions', 'list', '--assignment', 'asg_nope']), 5, 'error (not-found): Assignment "asg_nope" was not found.\n');
  });
});

describe('submissions show', () => {
  const cb = demoStore();

  it('prints the submission with its grade as pretty JSON; the student may read their own', async () => {
    const res = await cb.run(['submissions', 'show', 'sub_001']);
    expect(res.code).toBe(0);
    const expected = {
      id: 'sub_001',
      assignmentId: 'asg_01',
      studentId: 'usr_s01',
      attempt: 1,
      state: 'returned',
      text: 'My answers are attached above.',
      fileId: null,
      link: null,
      submittedAt: '2026-09-10T03:06:31.951Z',
      grade: {
        score: 10,
        criteria: [],
        feedback: 'Excellent work.',
        feedbackOrigin: 'human',
        feedbackProvenance: null,
        gradedBy: 'usr_instructor',
        gradedAt: '2026-09-10T23:59:00.000Z',
        releasedAt: '2026-09-11T23:59:00.000Z',
      },
    };
    expect(res.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    expect((await cb.run(['--as', 'usr_s01', '--json', 'submissions', 'show', 'sub_001'])).stdout).toBe(`${JSON.stringify(expected)}\n`);
  });

  it("another student's submission is not-found (exit 5), as is an unknown id", async () => {
    expectError(await cb.run(['--as', 'usr_s02', 'submissions', 'show', 'sub_001']), 5, 'error (not-found): Submission "sub_001" was not found.\n');
    expectError(await cb.run(['submissions', 'show', 'sub_nope']), 5, 'error (not-found): Submission "sub_nope" was not found.\n');
  });

  it('a reviewer may not read a submission (exit 4)', async () => {
    expectError(
      await cb.run(['--as', 'usr_reviewer', 'submissions', 'show', 'sub_001']),
      4,
      "error (forbidden): Only the student, the course's instructors and admins may read a submission.\n",
    );
  });
});

describe('submissions grade', () => {
  const cb = demoStore();
  const grade = (res: CliResult) => JSON.parse(fields(res.stdout).grade!) as Record<string, unknown>;

  it('--score and --feedback grade a submission (state graded, not yet released)', async () => {
    const res = await cb.run(['--as', 'usr_instructor', 'submissions', 'grade', 'sub_005', '--score', '30', '--feedback', 'Solid report.']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: 'sub_005', state: 'graded' });
    expect(grade(res)).toEqual({
      score: 30,
      criteria: [],
      feedback: 'Solid report.',
      feedbackOrigin: 'human',
      feedbackProvenance: null,
      gradedBy: 'usr_instructor',
      gradedAt: CLI_NOW,
      releasedAt: null,
    });
  });

  it('rubric levels with --criterion add up to the score; a regrade of a released submission stays returned', async () => {
    const res = await cb.run([
      'submissions',
      'grade',
      'sub_001',
      '--criterion',
      'q1-accuracy=full',
      'q1-reasoning=full',
      '--criterion',
      'q1-presentation=none',
    ]);
    expect(res.code).toBe(0);
    expect(fields(res.stdout).state).toBe('returned');
    expect(grade(res)).toMatchObject({ score: 8, gradedBy: 'usr_admin', releasedAt: '2026-09-11T23:59:00.000Z' });
    expect((grade(res).criteria as unknown[])[0]).toEqual({ criterionId: 'q1-accuracy', levelId: 'full', points: 5, comment: '' });
    const file = await cb.run(['--json', 'submissions', 'grade', 'sub_006', '--criteria-file', '-'], {
      input: JSON.stringify([{ criterionId: 'q1-accuracy', levelId: 'partial', comment: 'Two slips.' }]),
    });
    expect(JSON.parse(file.stdout).grade).toMatchObject({
      score: 2.5,
      criteria: [{ criterionId: 'q1-accuracy', levelId: 'partial', points: 2.5, comment: 'Two slips.' }],
    });
  });

  it('malformed flags are usage errors (exit 2), naming the flag', async () => {
    expectError(await cb.run(['submissions', 'grade', 'sub_010', '--score', 'A']), 2, 'error: --score must be a number (got "A")\n');
    expectError(
      await cb.run(['submissions', 'grade', 'sub_010', '--criterion', 'p2-accuracy']),
      2,
      'error: --criterion must look like criterionId=levelId (got "p2-accuracy")\n',
    );
  });

  it('no score and no criteria is a usage error naming the flags (exit 2)', async () => {
    expectError(
      await cb.run(['submissions', 'grade', 'sub_010', '--feedback', 'good']),
      2,
      'error: give --score N, or rubric levels with --criterion CRITERION=LEVEL (or --criteria-file FILE)\n',
    );
  });

  it('a negative score, or an unknown criterion or level is invalid (exit 3)', async () => {
    expectError(await cb.run(['submissions', 'grade', 'sub_010', '--score', '-1']), 3, 'error (invalid): --score: must be >= 0\n');
    expectError(
      await cb.run(['submissions', 'grade', 'sub_010', '--criterion', 'p2-accuracy=perfect']),
      3,
      'error (invalid): --criterion (the 1st): "perfect" is not a level of criterion "p2-accuracy" (its levels: full, partial, none)\n',
    );
    expectError(
      await cb.run(['submissions', 'grade', 'sub_010', '--criterion', 'style=full']),
      3,
      'error (invalid): --criterion (the 1st): "style" is not a criterion of the rubric (its criteria: p2-accuracy, p2-reasoning, p2-presentation)\n',
    );
    expect(JSON.parse(await cb.ok(['--json', 'submissions', 'show', 'sub_010'])).grade.score).toBe(36.5);
  });

  it("a problem in a --criteria-file is named by the file's field, not by --criterion, which was not given", async () => {
    const res = await cb.run(['submissions', 'grade', 'sub_010', '--criteria-file', '-'], {
      input: JSON.stringify([{ criterionId: 'style', levelId: 'full' }]),
    });
    expectError(
      res,
      3,
      'error (invalid): criteria[0].criterionId: "style" is not a criterion of the rubric (its criteria: p2-accuracy, p2-reasoning, p2-presentation)\n',
    );
  });

  it('an unknown submission is not-found (exit 5); a student or a reviewer may not grade (exit 4)', async () => {
    expectError(await cb.run(['submissions', 'grade', 'sub_nope', '--score', '1']), 5, 'error (not-found): Submission "sub_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'submissions', 'grade', 'sub_001', '--score', '10']), 4, FORBIDDEN_WRITE);
    expectError(await cb.run(['--as', 'usr_reviewer', 'submissions', 'grade', 'sub_001', '--score', '10']), 4, FORBIDDEN_WRITE);
  });

  it('--criterion and --criteria-file together is a usage error (exit 2) naming both, and the grade stays', async () => {
    const res = await cb.run(['submissions', 'grade', 'sub_011', '--criterion', 'q1-accuracy=full', '--criteria-file', '-'], {
      input: JSON.stringify([{ criterionId: 'q1-reasoning', levelId: 'none' }]),
    });
    expectError(res, 2, /^error: .*--criterion.*--criteria-file/);
    expect(JSON.parse(await cb.ok(['--json', 'submissions', 'show', 'sub_011'])).grade.criteria).toEqual([]);
  });

  it('a --criteria-file that does not exist is a usage error naming it (exit 2), not a crash', async () => {
    expectFileError(await cb.run(['submissions', 'grade', 'sub_010', '--criteria-file', MISSING_FILE]), MISSING_FILE);
  });
});

describe('submissions release', () => {
  const cb = demoStore();

  it('releases a graded submission to the student (state returned, releasedAt set once)', async () => {
    // Before release the student sees no grade, not even that there is one (#17).
    expect(await cb.run(['--as', 'usr_s02', 'submissions', 'list', '--assignment', 'asg_05'])).toMatchObject({
      code: 0,
      stdout: 'sub_010\tusr_s02\t1\tsubmitted\t2026-10-04T02:00:30.873Z\t\n',
    });
    const res = await cb.run(['--as', 'usr_instructor', 'submissions', 'release', 'sub_010']);
    expect(res.code).toBe(0);
    expect(fields(res.stdout)).toMatchObject({ id: 'sub_010', state: 'returned' });
    expect(JSON.parse(fields(res.stdout).grade!)).toMatchObject({ score: 36.5, releasedAt: CLI_NOW });
    expect(await cb.run(['--as', 'usr_s02', 'submissions', 'list', '--assignment', 'asg_05'])).toMatchObject({
      code: 0,
      stdout: 'sub_010\tusr_s02\t1\treturned\t2026-10-04T02:00:30.873Z\t36.5\n',
    });
    const again = await cb.run(['--json', 'submissions', 'release', 'sub_010'], { clock: { now: () => '2027-01-01T00:00:00.000Z' } });
    expect(JSON.parse(again.stdout).grade.releasedAt).toBe(CLI_NOW);
  });

  it('a submission with no grade yet is a conflict (exit 6)', async () => {
    expectError(await cb.run(['submissions', 'release', 'sub_005']), 6, 'error (conflict): Submission sub_005 has no grade to release yet.\n');
  });

  it('an unknown submission is not-found (exit 5); a student may not release (exit 4)', async () => {
    expectError(await cb.run(['submissions', 'release', 'sub_nope']), 5, 'error (not-found): Submission "sub_nope" was not found.\n');
    expectError(await cb.run(['--as', 'usr_s01', 'submissions', 'release', 'sub_005']), 4, FORBIDDEN_WRITE);
  });
});
