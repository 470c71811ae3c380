/**
 * #17: what an import may never do, replace or not (serve --reseed is an import with
 * replace): un-revoke a token, append final-grade history a second time, or move an
 * override's version back; and no secret may be stored twice (it used to be a 500).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/store/tokens.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const importDataset = (body: unknown, replace: boolean) => svc.call('POST', `/import${replace ? '?replace=true' : ''}`, body);

const HISTORY_1 = {
  courseId: 'c1',
  studentId: 'stu1',
  version: 1,
  oldLetter: null,
  oldPercent: null,
  newLetter: 'B',
  newPercent: null,
  reason: 'seeded',
  by: 'inst',
  at: '2026-11-01T00:00:00.000Z',
};
const FINAL_1 = {
  courseId: 'c1',
  studentId: 'stu1',
  letter: 'B',
  percent: null,
  reason: 'seeded',
  version: 1,
  updatedBy: 'inst',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const SEED = {
  coursebook: 1,
  tokens: [{ id: 'tk_ci', token: 'ci-secret', userId: 'inst', scopes: ['*'] }],
  finalGrades: [FINAL_1],
  finalGradeHistory: [HISTORY_1],
};

const history = async () =>
  (await svc.call('GET', '/courses/c1/gradebook/students/stu1/final/history', undefined, 'inst')).body as { version: number; newLetter: string | null }[];
const whoAmI = (token: string) => svc.app.request('http://t/api/v1/me', { headers: { authorization: `Bearer ${token}` } });

describe('a revoked token stays revoked', () => {
  it('importing the same token again with replace keeps its revocation (matched by id)', async () => {
    svc = await makeService();
    expect((await importDataset(SEED, false)).status).toBe(200);
    expect((await whoAmI('ci-secret')).status).toBe(200);
    expect((await svc.call('DELETE', '/tokens/tk_ci', undefined, 'inst')).status).toBe(200);
    expect((await importDataset(SEED, true)).status).toBe(200);
    const res = await whoAmI('ci-secret');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
  });

  it('matched by secret too: the same secret given as tokenSha256 stays revoked', async () => {
    svc = await makeService();
    await importDataset(SEED, false);
    await svc.call('DELETE', '/tokens/tk_ci', undefined, 'inst');
    const byHash = { coursebook: 1, tokens: [{ id: 'tk_ci', tokenSha256: sha256Hex('ci-secret'), userId: 'inst', scopes: ['*'], revokedAt: null }] };
    expect((await importDataset(byHash, true)).status).toBe(200);
    expect((await whoAmI('ci-secret')).status).toBe(401);
  });

  it('a token the file itself revokes is revoked; an unrevoked one keeps working', async () => {
    svc = await makeService();
    await importDataset(
      {
        coursebook: 1,
        tokens: [
          { id: 'tk_a', token: 'a-secret', userId: 'inst', scopes: ['*'], revokedAt: '2026-11-01T00:00:00Z' },
          { id: 'tk_b', token: 'b-secret', userId: 'inst', scopes: ['*'] },
        ],
      },
      false,
    );
    expect((await whoAmI('a-secret')).status).toBe(401);
    expect((await whoAmI('b-secret')).status).toBe(200);
  });
});

describe('no secret is stored twice (it used to answer 500)', () => {
  it('two tokens of one file with the same secret: 400 naming the second, nothing imported', async () => {
    svc = await makeService();
    const res = await importDataset(
      {
        coursebook: 1,
        users: [{ id: 'u9', name: 'New' }],
        tokens: [
          { id: 'tk_1', token: 'same', userId: 'inst', scopes: ['*'] },
          { id: 'tk_2', token: 'same', userId: 'inst', scopes: ['*'] },
        ],
      },
      false,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.details).toEqual([{ path: 'tokens[1]', message: expect.stringMatching(/^duplicate of tokens\[0\]/) }]);
    expect((await svc.call('GET', '/users/u9')).status).toBe(404);
  });

  it('a secret already stored under another id: 400 naming the token and the stored id', async () => {
    svc = await makeService();
    await importDataset(SEED, false);
    for (const replace of [false, true]) {
      const res = await importDataset({ coursebook: 1, tokens: [{ id: 'tk_other', token: 'ci-secret', userId: 'inst', scopes: ['*'] }] }, replace);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'tokens[0]', message: 'its secret is already stored as token tk_ci' }]);
    }
  });
});

describe('final-grade history is never appended twice', () => {
  it('the same history imported again (replace or not) adds nothing: one entry per version', async () => {
    svc = await makeService();
    await importDataset(SEED, false);
    expect((await importDataset({ coursebook: 1, finalGradeHistory: [HISTORY_1] }, false)).status).toBe(200);
    expect((await importDataset(SEED, true)).status).toBe(200);
    expect((await importDataset(SEED, true)).status).toBe(200);
    expect((await history()).map((h) => h.version)).toEqual([1]);
  });

  it('entries of versions the store does not hold yet are added', async () => {
    svc = await makeService();
    await importDataset(SEED, false);
    const second = { ...HISTORY_1, version: 2, oldLetter: 'B', newLetter: 'A', reason: 'regraded' };
    await importDataset({ coursebook: 1, finalGrades: [{ ...FINAL_1, letter: 'A', version: 2 }], finalGradeHistory: [HISTORY_1, second] }, true);
    expect((await history()).map((h) => [h.version, h.newLetter])).toEqual([
      [1, 'B'],
      [2, 'A'],
    ]);
  });
});

describe('replacing an override never moves its version back', () => {
  it('after acknowledged changes, a replace with the older override becomes the next version, recorded in the history', async () => {
    svc = await makeService();
    await importDataset(SEED, false);
    // Two acknowledged changes: versions 2 and 3.
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r2', expectedVersion: 1, letter: 'A' }, 'inst')).body).toEqual({
      ok: true,
      version: 2,
    });
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r3', expectedVersion: 2, letter: 'A-' }, 'inst')).body).toEqual({
      ok: true,
      version: 3,
    });
    expect((await importDataset(SEED, true)).status).toBe(200);
    // The seed's B is back, as version 4 (not 1), and the history says so once.
    expect((await history()).map((h) => [h.version, h.newLetter])).toEqual([
      [1, 'B'],
      [2, 'A'],
      [3, 'A-'],
      [4, 'B'],
    ]);
    const grades = (await svc.call('GET', '/courses/c1/gradebook/grades', undefined, 'inst')).body;
    expect(grades.students.find((s: { studentId: string }) => s.studentId === 'stu1').override).toEqual({ percent: null, letter: 'B', version: 4 });
    // expectedVersion keeps meaning one state: 4 now, and the next change is 5 with no duplicate.
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r5', expectedVersion: 1, letter: 'C' }, 'inst')).status).toBe(409);
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r5', expectedVersion: 4, letter: 'C' }, 'inst')).body).toEqual({
      ok: true,
      version: 5,
    });
    expect((await history()).map((h) => h.version)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a replace with what the override already says changes nothing (no new version)', async () => {
    svc = await makeService();
    await importDataset(SEED, false);
    await importDataset(SEED, true);
    await importDataset(SEED, true);
    expect((await history()).map((h) => h.version)).toEqual([1]);
    const grades = (await svc.call('GET', '/courses/c1/gradebook/grades', undefined, 'inst')).body;
    expect(grades.students.find((s: { studentId: string }) => s.studentId === 'stu1').override.version).toBe(1);
  });
});

/**
 * Lesson blocks and assignment instructions are one table, so one id space: an instruction
 * whose id a stored lesson block has was found only by the write (an opaque 409 naming no id
 * and no path), and a duplicate within the file was named at a place in `blocks` the file
 * does not have (fourteenth session).
 */
describe('a block id is one id, lesson block or instruction, named at its own path', () => {
  const LESSON = { coursebook: 1, lessons: [{ id: 'l1', moduleId: 'm1', title: 'Lesson', minutes: 10 }] };
  const lessonBlock = (id: string) => ({ id, lessonId: 'l1', type: 'paragraph', text: 'In the lesson.' });
  const assignment = (id: string, blockIds: string[]) => ({
    id,
    moduleId: 'm1',
    title: 'Essay',
    points: 10,
    instructions: blockIds.map((b) => ({ id: b, type: 'paragraph', text: 'Write.' })),
  });

  it('an instruction whose id a stored lesson block has: 409 at assignments[i].instructions[k], naming the lesson; nothing imported', async () => {
    svc = await makeService();
    expect((await importDataset({ ...LESSON, blocks: [lessonBlock('blk_x')] }, false)).status).toBe(200);
    const res = await importDataset({ coursebook: 1, assignments: [assignment('a1', ['blk_new', 'blk_x'])] }, false);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'conflict',
      message: '1 record already exists in the store (import with --replace to overwrite); nothing was imported.',
      details: [{ path: 'assignments[0].instructions[1]', message: 'blk_x already exists in the store (a block of lesson l1)' }],
    });
    expect((await svc.call('GET', '/assignments/a1')).status).toBe(404);
  });

  it('a lesson block whose id a stored instruction has is named with its assignment', async () => {
    svc = await makeService();
    await importDataset({ ...LESSON, assignments: [assignment('a1', ['blk_i'])] }, false);
    const res = await importDataset({ coursebook: 1, blocks: [lessonBlock('blk_ok'), lessonBlock('blk_i')] }, false);
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual([{ path: 'blocks[1]', message: 'blk_i already exists in the store (an instruction of assignment a1)' }]);
    expect((await svc.call('GET', '/lessons/l1/blocks')).body).toEqual([]);
  });

  it('a lesson block and an instruction of one file with the same id: 400 at the instruction, pointing to the block', async () => {
    svc = await makeService();
    const res = await importDataset({ ...LESSON, blocks: [lessonBlock('blk_dupqa')], assignments: [assignment('a1', ['blk_dupqa'])] }, false);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      message: 'The dataset has 1 problem; nothing was imported.',
      details: [{ path: 'assignments[0].instructions[0]', message: 'duplicate of blocks[0] (blk_dupqa)' }],
    });
    const twice = await importDataset({ ...LESSON, assignments: [assignment('a1', ['blk_a']), assignment('a2', ['blk_b', 'blk_a'])] }, false);
    expect(twice.body.error.details).toEqual([{ path: 'assignments[1].instructions[1]', message: 'duplicate of assignments[0].instructions[0] (blk_a)' }]);
  });

  it('a duplicate token id is named at its own index, tokens without an id counted', async () => {
    svc = await makeService();
    const token = (id: string | undefined, secret: string) => ({ ...(id ? { id } : {}), token: secret, userId: 'inst', scopes: ['*'] });
    const res = await importDataset({ coursebook: 1, tokens: [token(undefined, 's0'), token('tk_1', 's1'), token('tk_1', 's2')] }, false);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'tokens[2]', message: 'duplicate of tokens[1] (tk_1)' }]);
  });

  it('with replace, a block the file puts elsewhere moves there, and the lesson it left closes the gap, as a move does', async () => {
    svc = await makeService();
    await importDataset({ ...LESSON, blocks: [lessonBlock('blk_0'), lessonBlock('blk_1'), lessonBlock('blk_2')] }, false);
    const res = await importDataset({ coursebook: 1, assignments: [assignment('a1', ['blk_0'])] }, true);
    expect(res.status).toBe(200);
    expect((await svc.call('GET', '/assignments/a1')).body.instructions).toEqual([expect.objectContaining({ id: 'blk_0', lessonId: null, text: 'Write.' })]);
    const left = async () => ((await svc.call('GET', '/lessons/l1/blocks')).body as { id: string; position: number }[]).map((b) => [b.id, b.position]);
    expect(await left()).toEqual([
      ['blk_1', 0],
      ['blk_2', 1],
    ]);
    // A block made afterwards goes last, at a position of its own.
    expect((await svc.call('POST', '/lessons/l1/blocks', { type: 'divider' })).body.position).toBe(2);
  });

  it("with replace, an assignment keeps its stored instructions beside the file's, numbered as one list (no two at one position)", async () => {
    svc = await makeService();
    await importDataset({ ...LESSON, assignments: [assignment('a1', ['blk_a', 'blk_b'])] }, false);
    expect((await importDataset({ coursebook: 1, assignments: [assignment('a1', ['blk_c'])] }, true)).status).toBe(200);
    const instructions = (await svc.call('GET', '/assignments/a1')).body.instructions as { id: string; position: number }[];
    expect(instructions.map((b) => [b.id, b.position])).toEqual([
      ['blk_a', 0],
      ['blk_c', 1],
      ['blk_b', 2],
    ]);
  });

  it('with replace, a module moved to another course takes its lessons and assignments along, and its old course closes the gap', async () => {
    // The service's course c1 has its module m1 at 0; mA, mB and mC come at 1, 2 and 3.
    svc = await makeService({
      courses: [
        { id: 'c1', title: 'One' },
        { id: 'c2', title: 'Two' },
      ],
    });
    const module = (id: string, courseId: string) => ({ id, courseId, title: `Module ${id}` });
    await importDataset(
      {
        coursebook: 1,
        modules: [module('mA', 'c1'), module('mB', 'c1'), module('mC', 'c1')],
        lessons: [{ id: 'lA', moduleId: 'mA', title: 'L', minutes: 5 }],
        assignments: [{ id: 'aA', moduleId: 'mA', title: 'A', points: 1 }],
      },
      false,
    );
    expect((await importDataset({ coursebook: 1, modules: [module('mA', 'c2')] }, true)).status).toBe(200);
    expect(((await svc.call('GET', '/courses/c1/modules')).body as { id: string; position: number }[]).map((m) => [m.id, m.position])).toEqual([
      ['m1', 0],
      ['mB', 1],
      ['mC', 2],
    ]);
    expect((await svc.call('GET', '/lessons/lA')).body.courseId).toBe('c2');
    expect((await svc.call('GET', '/assignments/aA')).body.courseId).toBe('c2');
  });
});
