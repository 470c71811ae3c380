/**
 * In-process tests of readiness (show, attest, withdraw, findings list|review) and standards
 * rubrics (list, show, import) in local mode against the demo store: crs_data101 uses the
 * built-in rubric course-essentials (19 items, 11 met); item 2.2 has a draft AI finding;
 * 3.1 (automatic) is not met because of the open gradebook check; 1.3, 4.1, 5.1 are human
 * items pending attestation. Read-only tests share a store; each writing describe has its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { runCli, scriptedPrompter } from '../helpers/cli.js';
import { type CliStore, DEMO_DATASET, storesForThisFile } from '../helpers/cli-store.js';
import { inProcessServeOptions } from '../helpers/serve.js';

const COURSE = 'crs_data101';
const TERMINAL = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const FORBIDDEN_STAFF = "error (forbidden): Only the course's instructors, reviewers and admins may do this.\n";
const FINDING_EVIDENCE = 'Each module objective names an observable action (identify, choose, build).';

const choosing = scriptedPrompter;

const newStore = storesForThisFile();

let shared: CliStore;
beforeAll(async () => {
  shared = await newStore();
});

const rubric = (id: string, name = 'Small rubric') => ({
  id,
  name,
  attribution: 'written for the CLI tests',
  standards: [
    {
      standardId: 's1',
      number: '1',
      title: 'Basics',
      items: [{ itemId: '1.1', number: '1.1', text: 'Learners know where to start', kind: 'human', essential: false }],
    },
  ],
});

describe('readiness show', () => {
  it('prints the report: totals, what blocks publishing, each item with evidence and fixes', async () => {
    const res = await shared.run(['readiness', 'show', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const lines = res.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'Course essentials (course-essentials): 11/19 met, 57.9%, 1 need review',
      'Publishing is blocked by essential items 2.2, 3.1, 4.1, 6.1, 7.1.',
    ]);
    expect(res.stdout).toContain('\n3 Assessment  [not-met] 3/4\n');
    expect(res.stdout).toContain('\n  3.1   not-met         E The gradebook setup has no open checks\n');
    expect(res.stdout).toContain('\n        fix: Fix or dismiss the gradebook check item-zero-points.\n');
    expect(res.stdout).toContain('\n  2.2   likely-met      E Module objectives are measurable\n        AI finding: met (draft)\n');
  });

  it('--json prints the API report exactly', async () => {
    const res = await shared.run(['--json', 'readiness', 'show', '--course', COURSE]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe((await shared.run(['--json', 'api', 'GET', `/courses/${COURSE}/readiness`])).stdout);
    expect(JSON.parse(res.stdout)).toMatchObject({
      courseId: COURSE,
      rubricId: 'course-essentials',
      met: 11,
      applicable: 19,
      percent: 57.9,
      needsReview: 1,
      blocksPublishing: true,
    });
  });

  it('an unknown course exits 5; a student exits 4; no course exits 2', async () => {
    expect(await shared.run(['readiness', 'show', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stdout: '',
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await shared.run(['--as', 'usr_s01', 'readiness', 'show', '--course', COURSE])).toMatchObject({ code: 4, stdout: '', stderr: FORBIDDEN_STAFF });
    expect(await shared.run(['readiness', 'show'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: missing --course: give -c/--course COURSE, or set COURSEBOOK_COURSE or the profile's course (coursebook config set course COURSE)\n",
    });
  });
});

describe('readiness attest', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('attests a human item with a note; the report counts it and names who attested', async () => {
    const res = await s.run(['readiness', 'attest', '--course', COURSE, '--item', '1.3', '--note', 'Office hours are in the welcome lesson']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe('Course essentials (course-essentials): 12/19 met, 63.2%, 1 need review');
    expect(res.stdout).toContain(
      '\n  1.3   attested          How and when learners can reach the instructor is stated\n        attested by Dana Admin at 2026-11-22T08:30:00.000Z: Office hours are in the welcome lesson\n',
    );
  });

  it('a reviewer may attest; on a terminal without --item, picks from the pending items', async () => {
    const prompter = choosing(['4.1']);
    const res = await s.run(['--as', 'usr_reviewer', 'readiness', 'attest', '--course', COURSE], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Attest which item?']);
    // Only items that still need something: not the met ones, not 1.3 (attested above).
    expect(prompter.offered[0]!.map((name) => name.split(' ')[0])).toEqual(['2.2', '3.1', '4.1', '5.1', '6.1', '7.1', '8.4']);
    expect(prompter.offered[0]).toContain('4.1 [pending] Materials support the stated objectives');
    expect(res.stdout).toContain('Publishing is blocked by essential items 2.2, 3.1, 6.1, 7.1.\n');
    expect(res.stdout).toContain('        attested by Rob Reviewer at 2026-11-22T08:30:00.000Z\n');
  });

  it('an automatic item that is not met needs a note (exit 3, naming note)', async () => {
    const res = await s.run(['readiness', 'attest', '--course', COURSE, '--item', '3.1']);
    expect(res).toMatchObject({ code: 3, stdout: '', stderr: 'error (invalid): --note: required when attesting an automatic item that is not met\n' });
  });

  it('an item that is not in the rubric is not-found (exit 5)', async () => {
    expect(await s.run(['readiness', 'attest', '--course', COURSE, '--item', '9.9'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Item "9.9" is not in rubric course-essentials.\n',
    });
  });

  it('not interactive: a missing --item is a usage error naming it (exit 2)', async () => {
    expect(await s.run(['readiness', 'attest', '--course', COURSE])).toMatchObject({ code: 2, stdout: '', stderr: 'error: missing --item\n' });
  });

  it('a student may not attest (exit 4)', async () => {
    expect(await s.run(['--as', 'usr_s01', 'readiness', 'attest', '--course', COURSE, '--item', '5.1'])).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
  });
});

describe('readiness withdraw', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
    await s.ok(['readiness', 'attest', '--course', COURSE, '--item', '1.3']);
    await s.ok(['readiness', 'attest', '--course', COURSE, '--item', '5.1']);
  });

  it('withdraws an attestation: the item is pending again', async () => {
    const res = await s.run(['readiness', 'withdraw', '--course', COURSE, '--item', '1.3']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe('Course essentials (course-essentials): 12/19 met, 63.2%, 1 need review');
    expect(res.stdout).toContain('\n  1.3   pending           How and when learners can reach the instructor is stated\n');
  });

  it('on a terminal without --item: picks from the attested items', async () => {
    const prompter = choosing(['5.1']);
    const res = await s.run(['readiness', 'withdraw', '--course', COURSE], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Withdraw which attestation?']);
    expect(prompter.offered).toEqual([['5.1 [attested] Learners interact with each other or with the instructor']]);
    expect(res.stdout).toContain('\n  5.1   pending           Learners interact with each other or with the instructor\n');
  });

  it('an item with no attestation is not-found (exit 5)', async () => {
    expect(await s.run(['readiness', 'withdraw', '--course', COURSE, '--item', '1.3'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Item "1.3" has no attestation.\n',
    });
  });

  it('a missing --item (exit 2) and a student acting (exit 4) are refused', async () => {
    expect(await s.run(['readiness', 'withdraw', '--course', COURSE])).toMatchObject({ code: 2, stderr: 'error: missing --item\n' });
    await s.ok(['readiness', 'attest', '--course', COURSE, '--item', '4.1']);
    expect(await s.run(['--as', 'usr_s02', 'readiness', 'withdraw', '--course', COURSE, '--item', '4.1'])).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
  });
});

describe('a credential with readiness:attest alone (remote)', () => {
  // The API needs only readiness:attest to attest, withdraw and review; reading the report
  // (the course's rubric id, the items to pick from) needs readiness:read.
  let server: RunningServer;
  beforeAll(async () => {
    const demo = JSON.parse(readFileSync(DEMO_DATASET, 'utf8')) as { tokens: unknown[] };
    demo.tokens.push({ id: 'tok_attest_only', token: 'attest-only-token', userId: 'usr_reviewer', scopes: ['readiness:attest'], name: 'attest only' });
    server = await startServer(inProcessServeOptions({ seed: { name: 'demo-attest-only.json', text: JSON.stringify(demo) } }));
  });
  afterAll(async () => {
    await server?.close();
  });
  const remote = (args: string[], options = {}) => runCli(['--base-url', server.url, '--token', 'attest-only-token', ...args], options);
  const LACKS = 'error (forbidden): This credential lacks the scope readiness:read, which';

  it('attest with --rubric: no report is read, the attestation is made (exit 0)', async () => {
    const res = await remote(['readiness', 'attest', '-c', COURSE, '--item', '1.3', '--note', 'ok', '--rubric', 'course-essentials']);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout.split('\n')[0]).toBe('Course essentials (course-essentials): 12/19 met, 63.2%, 1 need review');
    expect(res.stdout).toMatch(/\n {2}1\.3 {3}attested {10}How and when .*\n {8}attested by Rob Reviewer at .*: ok\n/);
  });

  it('attest without --rubric: forbidden (exit 4), naming the scope it lacks and --rubric as the way on; nothing attested', async () => {
    expect(await remote(['readiness', 'attest', '-c', COURSE, '--item', '5.1', '--note', 'ok'])).toEqual({
      code: 4,
      stdout: '',
      stderr: `${LACKS} readiness attest needs to read the course's rubric id; give --rubric RUBRIC (the course's rubric id) to attest with readiness:attest alone.\n`,
    });
    const prompter = choosing([]);
    expect(await remote(['readiness', 'attest', '-c', COURSE], { ...TERMINAL, prompter })).toEqual({
      code: 4,
      stdout: '',
      stderr: `${LACKS} readiness attest needs to read the course's rubric id and list the items to choose from; give --rubric RUBRIC (the course's rubric id) and --item ITEM to attest with readiness:attest alone.\n`,
    });
    expect(await remote(['readiness', 'attest', '-c', COURSE, '--rubric', 'course-essentials'], { ...TERMINAL, prompter })).toEqual({
      code: 4,
      stdout: '',
      stderr: `${LACKS} readiness attest needs to list the items to choose from; give --item ITEM to attest with readiness:attest alone.\n`,
    });
    expect(prompter.asked).toEqual([]);
    const report = await runCli(['--base-url', server.url, '--token', 'demo-reviewer-token', 'readiness', 'show', '-c', COURSE]);
    expect(report.stdout).toContain('\n  5.1   pending   ');
  });

  it("a --rubric that is not the course's is a conflict naming the course's rubric (exit 6)", async () => {
    expect(await remote(['readiness', 'attest', '-c', COURSE, '--item', '4.1', '--rubric', 'rb_other'])).toEqual({
      code: 6,
      stdout: '',
      stderr: 'error (conflict): The course uses rubric "course-essentials", not "rb_other".\n',
    });
  });

  it('withdraw and findings review with --item need no report; their pick lists name --item when it cannot be read', async () => {
    const withdrawn = await remote(['readiness', 'withdraw', '-c', COURSE, '--item', '1.3']);
    expect(withdrawn).toMatchObject({ code: 0, stderr: '' });
    expect(withdrawn.stdout).toContain('\n  1.3   pending   ');
    expect(await remote(['readiness', 'withdraw', '-c', COURSE], TERMINAL)).toEqual({
      code: 4,
      stdout: '',
      stderr: `${LACKS} readiness withdraw needs to list the items to choose from; give --item ITEM to withdraw with readiness:attest alone.\n`,
    });
    expect(await remote(['readiness', 'findings', 'review', '-c', COURSE, '--accept'], TERMINAL)).toEqual({
      code: 4,
      stdout: '',
      stderr: `${LACKS} readiness findings review needs to list the items to choose from; give --item ITEM to review with readiness:attest alone.\n`,
    });
    const reviewed = await remote(['readiness', 'findings', 'review', '-c', COURSE, '--item', '2.2', '--accept']);
    expect(reviewed).toMatchObject({ code: 0, stderr: '' });
    expect(reviewed.stdout).toContain('\nstate\taccepted\nreviewedBy\tusr_reviewer\n');
  });

  it('a credential without readiness:attest either is told the scope the change itself needs (exit 4), as the API would', async () => {
    const student = await runCli(['--base-url', server.url, '--token', 'demo-student-token', 'readiness', 'attest', '-c', COURSE, '--item', '1.3']);
    expect(student).toEqual({ code: 4, stdout: '', stderr: 'error (forbidden): This credential lacks the scope readiness:attest.\n' });
    expect(
      await runCli([
        '--base-url',
        server.url,
        '--token',
        'demo-student-token',
        'readiness',
        'attest',
        '-c',
        COURSE,
        '--item',
        '1.3',
        '--rubric',
        'course-essentials',
      ]),
    ).toEqual(student);
  });
});

describe('readiness findings list', () => {
  it('lists the AI findings as TSV: item, verdict, state, reviewer, evidence', async () => {
    const res = await shared.run(['readiness', 'findings', 'list', '--course', COURSE]);
    expect(res).toMatchObject({ code: 0, stdout: `2.2\tmet\tdraft\t\t${FINDING_EVIDENCE}\n`, stderr: '' });
    const json = JSON.parse((await shared.run(['--json', 'readiness', 'findings', 'list', '--course', COURSE])).stdout);
    expect(json).toEqual([
      expect.objectContaining({ itemId: '2.2', verdict: 'met', state: 'draft', provenance: expect.objectContaining({ model: 'demo-model-1' }) }),
    ]);
  });

  it('an unknown course exits 5; a student exits 4', async () => {
    expect(await shared.run(['readiness', 'findings', 'list', '--course', 'crs_nope'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Course "crs_nope" was not found.\n',
    });
    expect(await shared.run(['--as', 'usr_s01', 'readiness', 'findings', 'list', '--course', COURSE])).toMatchObject({ code: 4, stderr: FORBIDDEN_STAFF });
  });
});

describe('readiness findings review', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('on a terminal with no flags: picks the draft finding, then the decision', async () => {
    const prompter = choosing(['2.2', 'reject']);
    const res = await s.run(['readiness', 'findings', 'review', '--course', COURSE], { ...TERMINAL, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Review which finding?', 'Decision?']);
    expect(prompter.offered).toEqual([['2.2 [likely-met] Module objectives are measurable'], ['accept', 'reject']]);
    expect(res.stdout).toMatch(/\nstate +rejected\n/);
    expect(await s.ok(['readiness', 'findings', 'list', '--course', COURSE])).toBe(`2.2\tmet\trejected\tDana Admin\t${FINDING_EVIDENCE}\n`);
  });

  it('--accept: the finding is accepted by the acting reviewer', async () => {
    const res = await s.run(['--as', 'usr_reviewer', 'readiness', 'findings', 'review', '--course', COURSE, '--item', '2.2', '--accept']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('\nstate\taccepted\nreviewedBy\tusr_reviewer\nreviewedAt\t2026-11-22T08:30:00.000Z\nreviewedByName\tRob Reviewer\n');
  });

  it('both --accept and --reject, or neither when not interactive, is a usage error (exit 2)', async () => {
    expect(await s.run(['readiness', 'findings', 'review', '--course', COURSE, '--item', '2.2', '--accept', '--reject'])).toMatchObject({
      code: 2,
      stderr: 'error: give --accept or --reject, not both\n',
    });
    expect(await s.run(['readiness', 'findings', 'review', '--course', COURSE, '--item', '2.2'])).toMatchObject({
      code: 2,
      stderr: 'error: missing --accept or --reject\n',
    });
    expect(await s.run(['readiness', 'findings', 'review', '--course', COURSE, '--accept'])).toMatchObject({ code: 2, stderr: 'error: missing --item\n' });
  });

  it('an item without a finding is not-found (exit 5); a student may not review (exit 4)', async () => {
    expect(await s.run(['readiness', 'findings', 'review', '--course', COURSE, '--item', '1.1', '--accept'])).toMatchObject({
      code: 5,
      stderr: 'error (not-found): Item "1.1" has no finding.\n',
    });
    expect(await s.run(['--as', 'usr_s01', 'readiness', 'findings', 'review', '--course', COURSE, '--item', '2.2', '--reject'])).toMatchObject({
      code: 4,
      stderr: FORBIDDEN_STAFF,
    });
  });
});

describe('rubrics list', () => {
  it('lists the rubrics as TSV: id, name, attribution, built in, items', async () => {
    expect(await shared.run(['rubrics', 'list'])).toMatchObject({
      code: 0,
      stdout: 'course-essentials\tCourse essentials\tcoursebook built-in rubric, edition 1\ttrue\t19\n',
      stderr: '',
    });
    expect(JSON.parse((await shared.run(['--json', 'rubrics', 'list'])).stdout)).toEqual([
      { id: 'course-essentials', name: 'Course essentials', attribution: 'coursebook built-in rubric, edition 1', builtIn: true, items: 19 },
    ]);
  });

  it('an unknown user for --as is unauthenticated (exit 4); an unknown option is a one-line usage error (exit 2)', async () => {
    expect(await shared.run(['--as', 'usr_ghost', 'rubrics', 'list'])).toMatchObject({
      code: 4,
      stderr: 'error (unauthenticated): --as names a user that does not exist in this store: "usr_ghost"\n',
    });
    const bogus = await shared.run(['rubrics', 'list', '--all']);
    expect(bogus.code).toBe(2);
    // One line, as every usage error: not followed by the whole help.
    expect(bogus).toEqual({ code: 2, stdout: '', stderr: "error: unknown option '--all'\n" });
    expect(await shared.run(['reporting-lines', 'create', 'usr_s01'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: missing required argument 'reportId'\n",
    });
  });
});

describe('rubrics show', () => {
  it('prints the rubric as indented JSON', async () => {
    const res = await shared.run(['rubrics', 'show', 'course-essentials']);
    expect(res.code).toBe(0);
    const r = JSON.parse(res.stdout);
    expect(res.stdout.startsWith('{\n  "id": "course-essentials",\n')).toBe(true);
    expect(r.standards[0].items[0]).toEqual({
      itemId: '1.1',
      number: '1.1',
      text: 'The first module opens with a lesson that has content',
      kind: 'automatic',
      essential: true,
      check: 'first-lesson-has-content',
    });
    expect(r.standards.flatMap((st: { items: unknown[] }) => st.items)).toHaveLength(19);
  });

  it('an unknown rubric is not-found (exit 5)', async () => {
    expect(await shared.run(['rubrics', 'show', 'rb_nope'])).toMatchObject({
      code: 5,
      stdout: '',
      stderr: 'error (not-found): Rubric "rb_nope" was not found.\n',
    });
  });
});

describe('rubrics import', () => {
  let s: CliStore;
  beforeAll(async () => {
    s = await newStore();
  });

  it('imports a rubric from stdin or a file; rubrics list shows it', async () => {
    expect(await s.run(['rubrics', 'import', '-'], { input: JSON.stringify(rubric('rb_small')) })).toMatchObject({
      code: 0,
      stdout: 'rb_small\tSmall rubric\n',
      stderr: '',
    });
    writeFileSync(join(s.dir, 'rubric.json'), JSON.stringify(rubric('rb_file', 'From a file')));
    expect(await s.run(['rubrics', 'import', 'rubric.json'], { cwd: s.dir })).toMatchObject({ code: 0, stdout: 'rb_file\tFrom a file\n' });
    expect(await s.ok(['rubrics', 'list'])).toContain(
      '\nrb_file\tFrom a file\twritten for the CLI tests\tfalse\t1\nrb_small\tSmall rubric\twritten for the CLI tests\tfalse\t1\n',
    );
  });

  it('an id that exists is a conflict (exit 6)', async () => {
    expect(await s.run(['rubrics', 'import', '-'], { input: JSON.stringify(rubric('course-essentials')) })).toMatchObject({
      code: 6,
      stderr: 'error (conflict): Rubric "course-essentials" already exists.\n',
    });
  });

  it('an invalid rubric lists every problem with its path (exit 3)', async () => {
    const res = await s.run(['rubrics', 'import', '-'], { input: JSON.stringify({ ...rubric('rb_bad'), name: '', standards: [] }) });
    expect(res).toMatchObject({
      code: 3,
      stderr: 'error (invalid): 2 problems: name: must not be empty; ...\n  name: must not be empty\n  standards: must have at least 1 item\n',
    });
  });

  it('text that is not JSON is invalid naming the source (exit 3), as malformed JSON sent to the API is', async () => {
    const res = await s.run(['rubrics', 'import', '-'], { input: 'id: rb_yaml' });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error \(invalid\): standard input: not valid JSON: /);
  });

  it('only admins import rubrics (exit 4)', async () => {
    expect(await s.run(['--as', 'usr_instructor', 'rubrics', 'import', '-'], { input: JSON.stringify(rubric('rb_inst')) })).toMatchObject({
      code: 4,
      stderr: 'error (forbidden): Only admins may do this.\n',
    });
  });

  it('a file that does not exist is a usage error naming it (exit 2)', async () => {
    const res = await s.run(['rubrics', 'import', 'no-such-rubric.json'], { cwd: s.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no-such-rubric.json');
    expect(res.stderr).not.toMatch(/unexpected failure|\n {4}at /);
  });
});
