import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { dumpDataset, importDataset } from '../../src/store/dataset.js';
import { openStore, type Store } from '../../src/store/db.js';
import { sha256Hex } from '../../src/store/tokens.js';

const demo = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../data/demo.json'), 'utf8'));
const clock = fixedClock('2026-11-22T08:30:00Z');

async function importError(store: Store, data: unknown, replace = false): Promise<AppError> {
  try {
    await importDataset(store, clock, data, { replace });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('import did not fail');
}

const count = async (store: Store, table: string) => ((await store.get(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: number }).n;

describe('dataset import', () => {
  it('imports the demo dataset and gives courses without a setup the default one', async () => {
    const store = await openStore(':memory:');
    const summary = await importDataset(store, clock, demo, { replace: false });
    expect(summary).toMatchObject({ users: 29, courses: 1, submissions: demo.submissions.length, assignments: 7 });
    await importDataset(store, clock, { coursebook: 1, courses: [{ id: 'c2', title: 'Second' }] }, { replace: false });
    const setup = JSON.parse(((await store.get("SELECT setup FROM gradebook_setups WHERE course_id = 'c2'")) as { setup: string }).setup);
    expect(setup).toMatchObject({
      courseId: 'c2',
      mode: 'points',
      version: 1,
      rulesVersion: 1,
      categories: [
        {
          id: 'assignments',
          courseId: 'c2',
          name: 'Assignments',
          position: 0,
          weight: 100,
          drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
          lateApplies: true,
        },
      ],
    });
    await store.close();
  });

  it('hashes plain fixture tokens; only the SHA-256 is stored', async () => {
    const store = await openStore(':memory:');
    await importDataset(
      store,
      clock,
      { coursebook: 1, users: [{ id: 'u', name: 'U' }], tokens: [{ token: 'plain-secret', userId: 'u', scopes: ['*'] }] },
      { replace: false },
    );
    const rows = (await store.all('SELECT * FROM tokens')) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_sha256).toBe(sha256Hex('plain-secret'));
    expect(JSON.stringify(rows)).not.toContain('plain-secret');
    await store.close();
  });

  it('lists every problem with its path and writes nothing', async () => {
    const store = await openStore(':memory:');
    const bad = structuredClone(demo);
    bad.assignments[3].points = -1;
    bad.lessons[0].minutes = 241;
    bad.modules[1].courseId = 'nope';
    bad.users.push({ id: 'usr_admin', name: 'Dup' });
    bad.blocks[0].level = 7;
    const err = await importError(store, bad);
    expect(err.code).toBe('invalid');
    const paths = (err.details as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['assignments[3].points', 'lessons[0].minutes', 'blocks[0].level']));
    expect(err.details).toEqual(expect.arrayContaining([{ path: 'assignments[3].points', message: 'must be >= 0' }]));
    expect(await count(store, 'users')).toBe(0);
    await store.close();
  });

  it('checks references and positions after the shape, listing each', async () => {
    const store = await openStore(':memory:');
    const bad = structuredClone(demo);
    bad.modules[1].courseId = 'nope';
    bad.users.push({ id: 'usr_admin', name: 'Dup' });
    bad.modules[2].position = 7;
    const err = await importError(store, bad);
    expect(err.code).toBe('invalid');
    const paths = (err.details as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['modules[1].courseId', `users[${bad.users.length - 1}]`]));
    expect(await count(store, 'courses')).toBe(0);
    await store.close();
  });

  it('existing records are found across the batches they are asked about in (500 ids a query), each reported at its own index', async () => {
    const store = await openStore(':memory:');
    const users = Array.from({ length: 1200 }, (_, i) => ({ id: `u${String(i).padStart(4, '0')}`, name: `User ${i}` }));
    await importDataset(store, clock, { coursebook: 1, users: users.filter((_, i) => [0, 499, 500, 999, 1199].includes(i)) }, { replace: false });
    const err = await importError(store, { coursebook: 1, users });
    expect(err.code).toBe('conflict');
    expect(err.details).toEqual(
      [0, 499, 500, 999, 1199].map((i) => ({ path: `users[${i}]`, message: `u${String(i).padStart(4, '0')} already exists in the store` })),
    );
    expect(await count(store, 'users')).toBe(5);
    await store.close();
  });

  it("a submission's assignment and student are looked for in the file and in the store, many ids a query, each missing one named", async () => {
    const store = await openStore(':memory:');
    await importDataset(store, clock, demo, { replace: false });
    const sub = (i: number, assignmentId: string, studentId: string) => ({
      id: `sub_new_${i}`,
      assignmentId,
      studentId,
      attempt: 100 + i,
      submittedAt: '2026-10-01T00:00:00.000Z',
      text: 'x',
      fileId: null,
      link: null,
      grade: null,
    });
    // 1,200 valid ones (store assignment, store or file student) around the bad ones, so the lookups span batches.
    const submissions = Array.from({ length: 1200 }, (_, i) => sub(i, 'asg_01', i % 2 ? 'usr_s01' : `usr_new_${i}`));
    submissions[3] = sub(3, 'asg_missing', 'usr_s02');
    submissions[700] = sub(700, 'asg_02', 'usr_missing');
    submissions[1100] = sub(1100, 'asg_gone', 'usr_gone');
    const users = Array.from({ length: 1200 }, (_, i) => ({ id: `usr_new_${i}`, name: `New ${i}` })).filter((_, i) => i % 2 === 0);
    const err = await importError(store, { coursebook: 1, users, submissions });
    expect(err.code).toBe('invalid');
    expect(err.details).toEqual([
      { path: 'submissions[3].assignmentId', message: 'assignment "asg_missing" does not exist in the file or the store' },
      { path: 'submissions[700].studentId', message: 'user "usr_missing" does not exist in the file or the store' },
      { path: 'submissions[1100].assignmentId', message: 'assignment "asg_gone" does not exist in the file or the store' },
      { path: 'submissions[1100].studentId', message: 'user "usr_gone" does not exist in the file or the store' },
    ]);
    expect(await count(store, 'users')).toBe(demo.users.length);
    // Fixed, the same file imports, and every new student's grade cell is saved with it.
    submissions[3] = sub(3, 'asg_01', 'usr_s02');
    submissions[700] = sub(700, 'asg_02', 'usr_s01');
    submissions[1100] = sub(1100, 'asg_02', 'usr_s02');
    await importDataset(store, clock, { coursebook: 1, users, submissions }, { replace: false });
    expect(await count(store, 'grade_cells')).toBeGreaterThanOrEqual(users.length);
    await store.close();
  });

  it('importing over existing ids is a conflict unless replace', async () => {
    const store = await openStore(':memory:');
    await importDataset(store, clock, demo, { replace: false });
    const err = await importError(store, { coursebook: 1, users: [{ id: 'usr_admin', name: 'Renamed' }] });
    expect(err.code).toBe('conflict');
    expect(err.details).toEqual([{ path: 'users[0]', message: 'usr_admin already exists in the store' }]);
    await importDataset(store, clock, { coursebook: 1, users: [{ id: 'usr_admin', name: 'Renamed', admin: true }] }, { replace: true });
    expect(((await store.get("SELECT name FROM users WHERE id = 'usr_admin'")) as { name: string }).name).toBe('Renamed');
    // replace updates in place: the course's children are still there
    expect(await count(store, 'submissions')).toBe(demo.submissions.length);
    await store.close();
  });

  it('an unknown top-level key or record field is invalid and names itself', async () => {
    const store = await openStore(':memory:');
    const err = await importError(store, { coursebook: 1, widgets: [], users: [{ id: 'u', name: 'U', colour: 'red' }] });
    expect(err.details).toEqual(
      expect.arrayContaining([
        { path: 'widgets', message: 'unknown field' },
        { path: 'users[0].colour', message: 'unknown field' },
      ]),
    );
  });

  it('dump -> import into a new store -> dump gives the same bytes', async () => {
    const a = await openStore(':memory:');
    await importDataset(a, clock, demo, { replace: false });
    const first = await dumpDataset(a);
    const b = await openStore(':memory:');
    await importDataset(b, fixedClock('2030-01-01T00:00:00Z'), JSON.parse(first), { replace: false });
    expect(await dumpDataset(b)).toBe(first);
    const parsed = JSON.parse(first);
    expect(parsed.tokens[0]).toHaveProperty('tokenSha256');
    expect(parsed.tokens[0]).not.toHaveProperty('token');
    // the import reproduces the demo's records (tokens aside, which dump hashes)
    for (const key of ['users', 'courses', 'modules', 'lessons', 'submissions', 'gradebookSetups', 'templates', 'certificates', 'reportingLines']) {
      expect(parsed[key]).toHaveLength(demo[key].length);
    }
    expect(parsed.courses[0]).toMatchObject({ id: demo.courses[0].id, title: demo.courses[0].title, objectives: demo.courses[0].objectives });
    await a.close();
    await b.close();
  });
});
