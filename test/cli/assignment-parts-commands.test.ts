/**
 * In-process tests of an assignment's rubric and instructions without JSON (local mode, demo
 * store): `assignments rubric show|create|update|delete` and `assignments instructions
 * list|create`, and the block commands on instruction blocks. asg_01 (10 points) has a
 * three-criterion rubric and one instruction block (blk_i01); asg_06 (0 points, extra
 * credit) has no rubric.
 */
import { describe, expect, it } from 'vitest';
import { type CliStore, demoStore, expectError, fields, interactive, rows } from '../helpers/cli-store.js';

const FORBIDDEN_WRITE = "error (forbidden): Only the course's instructors and admins may do this.\n";

const rubricOf = async (cb: Pick<CliStore, 'ok'>, assignment: string) =>
  JSON.parse(await cb.ok(['--json', 'assignments', 'rubric', 'show', '--assignment', assignment]));

describe('assignments rubric show', () => {
  const cb = demoStore();

  it('prints each criterion with its levels as id=points and its best points; --json the rubric array', async () => {
    expect(await cb.run(['assignments', 'rubric', 'show', '--assignment', 'asg_01'])).toEqual({
      code: 0,
      stdout: [
        'q1-accuracy\tAccuracy\tfull=5, partial=2.5, none=0\t5',
        'q1-reasoning\tReasoning\tfull=3, none=0\t3',
        'q1-presentation\tPresentation\tfull=2, none=0\t2',
        '',
      ].join('\n'),
      stderr: '',
    });
    const terminal = await cb.run(['assignments', 'rubric', 'show', '--assignment', 'asg_01'], { tty: { stdout: true }, columns: 120 });
    expect(terminal.stdout.split('\n')[0]).toBe('CRITERION        TITLE         LEVELS                       MAX');
    const json = await cb.run(['--json', 'assignments', 'rubric', 'show', '--assignment', 'asg_01']);
    const assignment = JSON.parse(await cb.ok(['--json', 'assignments', 'show', 'asg_01']));
    expect(json.stdout).toBe(`${JSON.stringify(assignment.rubric)}\n`);
    expect(await cb.ok(['assignments', 'rubric', 'show', '--assignment', 'asg_06', '--json'])).toBe('[]\n');
  });

  it('a missing --assignment is a usage error (exit 2); an unknown one is not-found (exit 5)', async () => {
    expectError(await cb.run(['assignments', 'rubric', 'show']), 2, 'error: missing --assignment\n');
    expectError(await cb.run(['assignments', 'rubric', 'show', '--assignment', 'asg_nope']), 5, 'error (not-found): Assignment "asg_nope" was not found.\n');
  });
});

describe('assignments rubric create', () => {
  const cb = demoStore();

  it('adds a criterion from flags: ids from the titles (unique), levels in order with their descriptions', async () => {
    const res = await cb.run([
      'assignments',
      'rubric',
      'create',
      '--assignment',
      'asg_06',
      '--title',
      'Finds the flaw',
      '--description',
      'Names the misleading average.',
      '--level',
      'Spot on=2: names the average, and why it misleads',
      '--level',
      'Partly = 1.5',
      '--level',
      'Partly=0',
    ]);
    expect(res).toEqual({ code: 0, stdout: 'finds-the-flaw\tFinds the flaw\tspot-on=2, partly=1.5, partly-2=0\t2\n', stderr: '' });
    expect((await rubricOf(cb, 'asg_06'))[0]).toEqual({
      id: 'finds-the-flaw',
      title: 'Finds the flaw',
      description: 'Names the misleading average.',
      levels: [
        { id: 'spot-on', title: 'Spot on', points: 2, description: 'names the average, and why it misleads' },
        { id: 'partly', title: 'Partly', points: 1.5, description: '' },
        { id: 'partly-2', title: 'Partly', points: 0, description: '' },
      ],
    });
    // The same title again gets a free id; --position puts it first; --id names it.
    expect(
      await cb.ok(['assignments', 'rubric', 'create', '--assignment', 'asg_06', '--title', 'Finds the flaw', '--level', 'Yes=1', 'No=0', '--position', '0']),
    ).toMatch(/^finds-the-flaw-2\t/);
    await cb.ok(['assignments', 'rubric', 'create', '--assignment', 'asg_06', '--title', 'Source', '--id', 'src', '--level', 'Cited=1']);
    expect((await rubricOf(cb, 'asg_06')).map((c: { id: string }) => c.id)).toEqual(['finds-the-flaw-2', 'finds-the-flaw', 'src']);
  });

  it('says when the best levels do not add up to the points (a grade defaults to their sum)', async () => {
    const res = await cb.run(['assignments', 'rubric', 'create', '--assignment', 'asg_01', '--title', 'Sources', '--level', 'Cited=2', 'Missing=0']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[3]).toBe('sources\tSources\tcited=2, missing=0\t2');
    expect(res.stderr).toBe("note: the rubric's best levels add up to 12 points; the assignment is worth 10 (a grade's score defaults to the levels' sum)\n");
  });

  it('on a terminal asks for the title, then the levels one by one (an empty answer ends them)', async () => {
    const { prompter, options } = interactive(['Evidence', 'Strong=3: two sources', 'Weak=1', '']);
    const res = await cb.run(['assignments', 'rubric', 'create', '--assignment', 'asg_06'], options);
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual([
      'Criterion title?',
      'Level 1 (Title=points, or Title=points: description)?',
      'Level 2 (Title=points, or Title=points: description), empty to finish?',
      'Level 3 (Title=points, or Title=points: description), empty to finish?',
    ]);
    expect((await rubricOf(cb, 'asg_06')).at(-1)).toMatchObject({ id: 'evidence', levels: [{ id: 'strong', description: 'two sources' }, { id: 'weak' }] });
  });

  it('a missing --title or --level, or a --level without points, is a usage error (exit 2)', async () => {
    const create = (...flags: string[]) => cb.run(['assignments', 'rubric', 'create', '--assignment', 'asg_06', ...flags]);
    expectError(await create('--level', 'Yes=1'), 2, 'error: missing --title\n');
    expectError(
      await create('--title', 'X'),
      2,
      'error: missing --level: give one --level "Title=points" or "Title=points: description" for each level, in order\n',
    );
    expectError(
      await create('--title', 'X', '--level', 'Yes=1', 'Good'),
      2,
      'error: --level (the 2nd) must look like "Title=points" or "Title=points: description" (got "Good")\n',
    );
    expectError(await create('--title', 'X', '--level', 'Yes=1', '--position', 'first'), 2, 'error: --position must be a number (got "first")\n');
  });

  it('what the API refuses is named by the flag (exit 3), and the rubric stays as it was', async () => {
    const before = await rubricOf(cb, 'asg_01');
    const create = (...flags: string[]) => cb.run(['assignments', 'rubric', 'create', '--assignment', 'asg_01', ...flags]);
    expectError(await create('--title', 'X', '--level', 'Yes=1', 'No=-1'), 3, 'error (invalid): --level (the 2nd): must be >= 0\n');
    expectError(await create('--title', 'X', '--id', 'q1-accuracy', '--level', 'Yes=1'), 3, 'error (invalid): --id: duplicate criterion id "q1-accuracy"\n');
    expectError(await create('--title', 'x'.repeat(201), '--level', 'Yes=1'), 3, /^error \(invalid\): --title: /);
    expectError(await create('--title', 'X', '--level', 'Yes=1', '--position', '9'), 3, 'error (invalid): --position: must be a whole number from 0 to 4\n');
    expect(await rubricOf(cb, 'asg_01')).toEqual(before);
  });

  it('an unknown assignment is not-found (exit 5); a student may not change a rubric (exit 4)', async () => {
    expectError(
      await cb.run(['assignments', 'rubric', 'create', '--assignment', 'asg_nope', '--title', 'X', '--level', 'Yes=1']),
      5,
      'error (not-found): Assignment "asg_nope" was not found.\n',
    );
    expectError(
      await cb.run(['--as', 'usr_s01', 'assignments', 'rubric', 'create', '--assignment', 'asg_01', '--title', 'X', '--level', 'Yes=1']),
      4,
      FORBIDDEN_WRITE,
    );
  });
});

describe('assignments rubric update', () => {
  const cb = demoStore();

  it('changes only the given fields; the id stays, and a level keeping its title keeps its id', async () => {
    const res = await cb.run(['assignments', 'rubric', 'update', 'q1-accuracy', '--assignment', 'asg_01', '--title', 'Accuracy of results']);
    expect(res).toEqual({
      code: 0,
      stdout: [
        'q1-accuracy\tAccuracy of results\tfull=5, partial=2.5, none=0\t5',
        'q1-reasoning\tReasoning\tfull=3, none=0\t3',
        'q1-presentation\tPresentation\tfull=2, none=0\t2',
        '',
      ].join('\n'),
      stderr: '',
    });
    await cb.ok(['assignments', 'rubric', 'update', 'q1-accuracy', '--assignment', 'asg_01', '--level', 'correct=4', 'Close=1: one slip', 'Incorrect=0']);
    expect((await rubricOf(cb, 'asg_01'))[0]).toEqual({
      id: 'q1-accuracy',
      title: 'Accuracy of results',
      description: 'Results are correct.',
      levels: [
        { id: 'full', title: 'correct', points: 4, description: '' },
        { id: 'close', title: 'Close', points: 1, description: 'one slip' },
        { id: 'none', title: 'Incorrect', points: 0, description: '' },
      ],
    });
    // --position moves it; --description "" clears the description.
    const moved = await cb.run(['assignments', 'rubric', 'update', 'q1-accuracy', '--assignment', 'asg_01', '--position', '2', '--description', '']);
    expect(rows(moved.stdout).map((r) => r[0])).toEqual(['q1-reasoning', 'q1-presentation', 'q1-accuracy']);
    expect(moved.stderr).toBe("note: the rubric's best levels add up to 9 points; the assignment is worth 10 (a grade's score defaults to the levels' sum)\n");
    expect((await rubricOf(cb, 'asg_01'))[2].description).toBe('');
  });

  it('nothing to change is a usage error (exit 2); an unknown criterion is not-found (exit 5); a bad level is invalid (exit 3)', async () => {
    expectError(
      await cb.run(['assignments', 'rubric', 'update', 'q1-reasoning', '--assignment', 'asg_01']),
      2,
      'error: nothing to change: give at least one of --title, --description, --level, --position\n',
    );
    expectError(
      await cb.run(['assignments', 'rubric', 'update', 'q9', '--assignment', 'asg_01', '--title', 'X']),
      5,
      'error (not-found): Criterion "q9" is not in the rubric of assignment "asg_01" (its criteria: q1-reasoning, q1-presentation, q1-accuracy).\n',
    );
    expectError(
      await cb.run(['assignments', 'rubric', 'update', 'q1-reasoning', '--assignment', 'asg_06', '--title', 'X']),
      5,
      'error (not-found): Criterion "q1-reasoning" is not in the rubric of assignment "asg_06" (it has none).\n',
    );
    expectError(
      await cb.run(['assignments', 'rubric', 'update', 'q1-reasoning', '--assignment', 'asg_01', '--level', 'Clear=3', `${'x'.repeat(201)}=0`]),
      3,
      /^error \(invalid\): --level \(the 2nd\): /,
    );
  });
});

describe('assignments rubric delete', () => {
  const cb = demoStore();

  it('--yes removes the criterion and prints the rubric left', async () => {
    expect(await cb.run(['assignments', 'rubric', 'delete', 'q1-reasoning', '--assignment', 'asg_01', '--yes'])).toEqual({
      code: 0,
      stdout: 'q1-accuracy\tAccuracy\tfull=5, partial=2.5, none=0\t5\nq1-presentation\tPresentation\tfull=2, none=0\t2\n',
      stderr: "note: the rubric's best levels add up to 7 points; the assignment is worth 10 (a grade's score defaults to the levels' sum)\n",
    });
  });

  it('on a terminal asks first: "no" deletes nothing, "yes" deletes', async () => {
    const no = interactive([false]);
    expect(await cb.run(['assignments', 'rubric', 'remove', 'q1-presentation', '--assignment', 'asg_01'], no.options)).toEqual({
      code: 0,
      stdout: '',
      stderr: 'nothing deleted\n',
    });
    expect(no.prompter.asked).toEqual(['Delete criterion q1-presentation "Presentation" (2 levels) from assignment asg_01?']);
    const yes = interactive([true]);
    expect((await cb.run(['assignments', 'rubric', 'delete', 'q1-presentation', '--assignment', 'asg_01'], yes.options)).code).toBe(0);
    expect((await rubricOf(cb, 'asg_01')).map((c: { id: string }) => c.id)).toEqual(['q1-accuracy']);
  });

  it('without a terminal and without --yes it is a usage error (exit 2); an unknown criterion is not-found (exit 5)', async () => {
    expectError(
      await cb.run(['assignments', 'rubric', 'delete', 'q1-accuracy', '--assignment', 'asg_01']),
      2,
      'error: deleting needs --yes when not interactive\n',
    );
    expectError(
      await cb.run(['assignments', 'rubric', 'delete', 'q1-nope', '--assignment', 'asg_01', '--yes']),
      5,
      'error (not-found): Criterion "q1-nope" is not in the rubric of assignment "asg_01" (its criteria: q1-accuracy).\n',
    );
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'rubric', 'delete', 'q1-accuracy', '--assignment', 'asg_01', '--yes']), 4, FORBIDDEN_WRITE);
  });
});

describe('assignments instructions list', () => {
  const cb = demoStore();

  it("prints the instruction blocks as blocks list does; --json the API's instructions array", async () => {
    expect(await cb.run(['assignments', 'instructions', 'list', '--assignment', 'asg_06'])).toEqual({
      code: 0,
      stdout: '0\tblk_i06\tparagraph\tOptional: link to an article that misuses an average and exp\t\n',
      stderr: '',
    });
    const assignment = JSON.parse(await cb.ok(['--json', 'assignments', 'show', 'asg_06']));
    expect(await cb.ok(['--json', 'assignments', 'instructions', 'list', '--assignment', 'asg_06'])).toBe(`${JSON.stringify(assignment.instructions)}\n`);
  });

  it('an unknown assignment is not-found (exit 5)', async () => {
    expectError(
      await cb.run(['assignments', 'instructions', 'list', '--assignment', 'asg_nope']),
      5,
      'error (not-found): Assignment "asg_nope" was not found.\n',
    );
  });
});

describe('assignments instructions create', () => {
  const cb = demoStore();

  it('adds a block from the flags of blocks create, last or at --position; the others keep their identity', async () => {
    const before = JSON.parse(await cb.ok(['--json', 'blocks', 'show', 'blk_i06']));
    const id = (
      await cb.ok([
        'assignments',
        'instructions',
        'create',
        '--assignment',
        'asg_06',
        '--type',
        'heading',
        '--level',
        '2',
        '--text',
        'Your task',
        '--position',
        '0',
      ])
    ).trim();
    expect(id).toMatch(/^blk_[a-z0-9]+$/);
    const list = await cb.run([
      '--json',
      'assignments',
      'instructions',
      'create',
      '--assignment',
      'asg_06',
      '--type',
      'list',
      '--item',
      'A link',
      '--item',
      'Which average',
    ]);
    const added = JSON.parse(list.stdout);
    expect(added).toMatchObject({ lessonId: null, position: 2, origin: 'human', type: 'list', items: ['A link', 'Which average'], ordered: false });
    expect(rows(await cb.ok(['assignments', 'instructions', 'list', '--assignment', 'asg_06'])).map((r) => r.slice(0, 3))).toEqual([
      ['0', id, 'heading'],
      ['1', 'blk_i06', 'paragraph'],
      ['2', added.id, 'list'],
    ]);
    // The block that was there is the same block: same content, not edited (no previous, same time).
    expect(JSON.parse(await cb.ok(['--json', 'blocks', 'show', 'blk_i06']))).toEqual({ ...before, position: 1 });
    const terminal = await cb.run(['assignments', 'instructions', 'add', '--assignment', 'asg_06', '--type', 'divider'], { tty: { stdout: true } });
    expect(terminal.stdout).toMatch(/^Created instruction block blk_[a-z0-9]+ \(position 3 of assignment asg_06\)\n$/);
  });

  it('on a terminal without --type asks for the block, as blocks create does', async () => {
    const { prompter, options } = interactive(['paragraph', 'Explain the mistake in two sentences.']);
    const res = await cb.run(['assignments', 'instructions', 'create', '--assignment', 'asg_04'], options);
    expect(prompter.asked).toEqual(['Block type?', 'Text?']);
    expect(res.code).toBe(0);
    expect(
      rows(await cb.ok(['assignments', 'instructions', 'list', '--assignment', 'asg_04']))
        .at(-1)
        ?.slice(2, 4),
    ).toEqual(['paragraph', 'Explain the mistake in two sentences.']);
  });

  it('content the block type does not allow is invalid (exit 3), named by the flag; nothing changes', async () => {
    const add = (...flags: string[]) => cb.run(['assignments', 'instructions', 'create', '--assignment', 'asg_02', ...flags]);
    expectError(await add('--type', 'heading', '--text', 'X'), 3, 'error (invalid): --level: is required\n');
    expectError(await add('--type', 'list', '--item', 'a', '--item', ' '), 3, 'error (invalid): --item (the 2nd): must not be blank\n');
    expectError(await add('--type', 'video', '--url', 'https://v.example/x', '--duration', '-1'), 3, 'error (invalid): --duration: must be >= 0\n');
    expectError(await add('--type', 'divider', '--position', '5'), 3, 'error (invalid): --position: must be a whole number from 0 to 1\n');
    expectError(await add(), 2, 'error: give --file or --type (with its fields)\n');
    expect(rows(await cb.ok(['assignments', 'instructions', 'list', '--assignment', 'asg_02'])).map((r) => r[1])).toEqual(['blk_i02']);
  });

  it('an unknown assignment is not-found (exit 5); a student may not add instructions (exit 4)', async () => {
    expectError(
      await cb.run(['assignments', 'instructions', 'create', '--assignment', 'asg_nope', '--type', 'divider']),
      5,
      'error (not-found): Assignment "asg_nope" was not found.\n',
    );
    expectError(await cb.run(['--as', 'usr_s01', 'assignments', 'instructions', 'create', '--assignment', 'asg_02', '--type', 'divider']), 4, FORBIDDEN_WRITE);
  });
});

describe('instruction blocks through the blocks commands', () => {
  const cb = demoStore();

  it('blocks show, update, move and delete take an instruction block by its id', async () => {
    await cb.ok(['assignments', 'instructions', 'create', '--assignment', 'asg_03', '--type', 'heading', '--level', '2', '--text', 'Task']);
    expect(fields(await cb.ok(['blocks', 'update', 'blk_i03', '--type', 'paragraph', '--text', 'Compute the mean and the median.']))).toMatchObject({
      id: 'blk_i03',
      lessonId: '',
      text: 'Compute the mean and the median.',
    });
    expect(fields(await cb.ok(['blocks', 'move', 'blk_i03', '1'])).position).toBe('1');
    expect(rows(await cb.ok(['assignments', 'instructions', 'list', '--assignment', 'asg_03'])).map((r) => [r[2], r[3]])).toEqual([
      ['heading', 'Task'],
      ['paragraph', 'Compute the mean and the median.'],
    ]);
    await cb.ok(['blocks', 'delete', 'blk_i03', '--yes']);
    expect(rows(await cb.ok(['assignments', 'instructions', 'list', '--assignment', 'asg_03'])).map((r) => r[0])).toEqual(['0']);
  });

  it('an instruction block cannot move into a lesson (exit 3)', async () => {
    expectError(
      await cb.run(['blocks', 'move', 'blk_i05', '0', '--lesson', 'les_01']),
      3,
      "error (invalid): --lesson: an assignment's instruction block cannot move to a lesson\n",
    );
  });
});
