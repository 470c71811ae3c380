/**
 * serve as a CI fixture (#16), in-process: the service clock (late penalties without a
 * restart), ids under --deterministic that cannot collide, a unique-constraint failure as a
 * conflict, and the rate-limit defaults and headers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { tokenBucketLimiter } from '../../src/api/rate-limit.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import { sequentialIds } from '../../src/runtime/ids.js';
import type { CourseGradesValue } from '../../src/schemas/grades.js';
import { BASE_DATASET, makeService, type TestService } from '../helpers/app.js';
import { cliStore } from '../helpers/cli-store.js';
import { fixture, SEED_NOW } from '../helpers/fixture.js';

const DEMO = readFileSync(join(import.meta.dirname, '../../data/demo.json'), 'utf8');

describe('service clock', () => {
  it('GET reads it, PUT sets it, advance moves it; a reset restores the seed’s clock and clears fault rules', async () => {
    const f = await fixture();
    expect((await f.call('GET', '/_admin/clock')).body).toEqual({ now: SEED_NOW, frozen: true });
    expect((await f.call('PUT', '/_admin/clock', { body: { now: '2027-03-01T12:00:00+02:00' } })).body).toEqual({
      now: '2027-03-01T10:00:00.000Z',
      frozen: true,
    });
    expect((await f.call('POST', '/_admin/clock/advance', { body: { seconds: 90.5 } })).body).toEqual({ now: '2027-03-01T10:01:30.500Z', frozen: true });
    expect((await f.call('POST', '/_admin/clock/advance', { body: { seconds: -3600 } })).body.now).toBe('2027-03-01T09:01:30.500Z');
    // The service uses it: a new course is stamped with the clock's time.
    expect((await f.call('POST', '/courses', { body: { title: 'Now' } })).body.createdAt).toBe('2027-03-01T09:01:30.500Z');
    await f.call('POST', '/_admin/faults', { body: { path: '/**', status: 503 } });
    expect((await f.call('POST', '/_reset')).status).toBe(200);
    expect((await f.call('GET', '/_admin/clock')).body).toEqual({ now: SEED_NOW, frozen: true });
    expect((await f.call('GET', '/_admin/faults')).body).toEqual([]);
    expect((await f.call('GET', '/courses')).status).toBe(200);
    // The journal stays (it is what happened; DELETE /_admin/requests empties it).
    expect((await f.call('GET', '/_admin/requests/count')).body.count).toBe(2);
  });

  it('a running clock (no --now) runs on from where it is set, or stands still when frozen', async () => {
    let wall = Date.parse('2030-01-01T00:00:00Z');
    const f = await fixture({ now: undefined, deterministic: false, wallMs: () => wall });
    expect((await f.call('GET', '/_admin/clock')).body).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: false });
    await f.call('PUT', '/_admin/clock', { body: { now: '2026-06-01T00:00:00Z' } });
    wall += 5000;
    expect((await f.call('GET', '/_admin/clock')).body).toEqual({ now: '2026-06-01T00:00:05.000Z', frozen: false });
    await f.call('POST', '/_admin/clock/advance', { body: { seconds: 86400 } });
    expect((await f.call('GET', '/_admin/clock')).body.now).toBe('2026-06-02T00:00:05.000Z');
    await f.call('PUT', '/_admin/clock', { body: { now: '2026-07-01T00:00:00Z', frozen: true } });
    wall += 5000;
    expect((await f.call('GET', '/_admin/clock')).body).toEqual({ now: '2026-07-01T00:00:00.000Z', frozen: true });
    await f.call('POST', '/_reset');
    expect((await f.call('GET', '/_admin/clock')).body).toEqual({ now: '2030-01-01T00:00:10.000Z', frozen: false });
  });

  it('a bad time or a move outside years 0000..9999 is invalid, naming the field; the clock is unchanged', async () => {
    const f = await fixture();
    for (const [method, path, body, field] of [
      ['PUT', '/_admin/clock', { now: 'tomorrow' }, 'now'],
      ['PUT', '/_admin/clock', { now: '2026-02-30T00:00:00Z' }, 'now'],
      ['PUT', '/_admin/clock', {}, 'now'],
      ['POST', '/_admin/clock/advance', { seconds: 'ten' }, 'seconds'],
      ['POST', '/_admin/clock/advance', { seconds: 2e11 }, 'seconds'], // over the schema's bound (about 3,170 years)
      ['POST', '/_admin/clock/advance', { seconds: -7e10 }, 'seconds'], // within it, but before year 0000
    ] as const) {
      const res = await f.call(method, path, { body });
      expect([JSON.stringify(body), res.status, res.body.error.code, res.body.error.details[0].path]).toEqual([JSON.stringify(body), 400, 'invalid', field]);
    }
    expect((await f.call('GET', '/_admin/clock')).body.now).toBe(SEED_NOW);
  });

  it('advancing the clock past a due date makes the next submission late: the late penalty shows in the grades', async () => {
    // Quiz a1: 10 points, due 2026-11-23T00:00Z; late: 10% of the possible points per started day.
    // Sam submits at 2026-11-22T08:30Z (on time). The clock moves 2 days; Tess submits at
    // 2026-11-24T08:30Z, 32.5 h late = 2 started days = 2 points off. Both are graded 9/10:
    // Sam 90% (A-), Tess 9 - 2 = 7/10 = 70% (C-).
    const f = await fixture(
      {},
      {
        ...BASE_DATASET,
        assignments: [{ id: 'a1', moduleId: 'm1', title: 'Quiz', status: 'published', points: 10, dueAt: '2026-11-23T00:00:00Z', categoryId: 'q' }],
        gradebookSetups: [
          {
            courseId: 'c1',
            mode: 'weighted',
            categories: [
              { id: 'q', courseId: 'c1', name: 'Quizzes', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
            ],
            late: { enabled: true, percentPerPeriod: 10, period: 'day', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
            missing: { treatAs: 'exclude-until-graded', droppable: false },
            extraCredit: { categoryCapPercent: null, courseCapPoints: null },
            scheme: {
              id: 'std',
              name: 'Standard',
              bands: [
                { letter: 'A', min: 93 },
                { letter: 'A-', min: 90 },
                { letter: 'B', min: 80 },
                { letter: 'C', min: 73 },
                { letter: 'C-', min: 70 },
                { letter: 'F', min: 0 },
              ],
              rounding: { decimals: 1, mode: 'half-up' },
              letterFrom: 'rounded',
            },
            emptyCategory: 'share-weight',
            studentNotes: [],
            dismissedChecks: [],
            source: { kind: 'manual', designSessionId: null },
            version: 1,
            rulesVersion: 1,
            updatedBy: 'admin',
            updatedAt: SEED_NOW,
          },
        ],
      },
    );
    const sam = await f.call('POST', '/assignments/a1/submissions', { body: { text: 'on time' }, as: 'stu1' });
    expect(sam.body.submittedAt).toBe(SEED_NOW);
    expect((await f.call('POST', '/_admin/clock/advance', { body: { seconds: 2 * 86400 } })).body.now).toBe('2026-11-24T08:30:00.000Z');
    const tess = await f.call('POST', '/assignments/a1/submissions', { body: { text: 'late' }, as: 'stu2' });
    expect(tess.body.submittedAt).toBe('2026-11-24T08:30:00.000Z');
    for (const s of [sam, tess]) expect((await f.call('PUT', `/submissions/${s.body.id}/grade`, { body: { score: 9 }, as: 'inst' })).status).toBe(200);
    const grades = (await f.call<CourseGradesValue>('GET', '/courses/c1/gradebook/grades', { as: 'inst' })).body.students;
    expect(grades.map((s) => [s.studentId, s.percent, s.letter])).toEqual([
      ['stu1', 90, 'A-'],
      ['stu2', 70, 'C-'],
    ]);
    expect(JSON.stringify(grades[1])).toContain('"late":{"periods":2,"deduction":2}');
  });
});

describe('deterministic ids cannot collide', () => {
  it('sequential ids skip every id the seed holds: POST /certificates on the demo seed is cert_0002 (it was a 500)', async () => {
    const f = await fixture({ now: undefined }, DEMO);
    const issued = await f.call('POST', '/certificates', { body: { userId: 'usr_s01', courseId: 'crs_data101', basis: 'completed' }, as: 'demo-admin-token' });
    expect(issued.status).toBe(201);
    expect(issued.body.id).toBe('cert_0002');
    expect(issued.body.issuedAt).toBe('2026-01-01T00:00:00.000Z');
    // And after a reset the same request gives the same id.
    await f.call('POST', '/_reset', { as: 'demo-admin-token' });
    const again = await f.call('POST', '/certificates', { body: { userId: 'usr_s01', courseId: 'crs_data101', basis: 'completed' }, as: 'demo-admin-token' });
    expect(again.body.id).toBe('cert_0002');
  });

  it('token secrets skip the secrets the seed holds', async () => {
    const taken = `cbk_fixture${'1'.padStart(36, '0')}`;
    const f = await fixture({}, { ...BASE_DATASET, tokens: [...BASE_DATASET.tokens!, { id: 'tok_0001', token: taken, userId: 'inst', scopes: ['*'] }] });
    const created = await f.call('POST', '/tokens', { body: { name: 'ci', scopes: ['*'] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'tok_0002', token: `cbk_fixture${'2'.padStart(36, '0')}` });
  });

  it('a unique-constraint failure anywhere is a conflict (409, exit 6), never a 500', async () => {
    // An id source that does not consult the store (as before): cert_0001 is taken by the seed.
    const svc: TestService = await makeService({
      certificates: [
        { id: 'cert_0001', code: 'AAAA-BBBB-CCCC', userId: 'stu1', learnerName: 'S', courseId: 'c1', courseTitle: 'C', issuedAt: SEED_NOW, basis: 'completed' },
      ],
    });
    const res = await svc.call('POST', '/certificates', { userId: 'stu2', courseId: 'c1', basis: 'completed' });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'conflict',
      message: 'Another record in certificates already has the same id; nothing was written.',
      details: { collection: 'certificates', fields: ['id'] },
    });
    svc.close();
    // The CLI in local mode goes through the same app: exit 6.
    const s = await cliStore();
    const cli = await s.run(['certificates', 'issue', '--user', 'usr_s02', '--course', 'crs_data101', '--basis', 'completed'], { ids: () => sequentialIds() });
    expect(cli).toMatchObject({ code: 6, stdout: '' });
    expect(cli.stderr).toBe('error (conflict): Another record in certificates already has the same id; nothing was written.\n');
    s.cleanup();
  });
});

describe('rate-limit defaults', () => {
  it('an in-memory fixture has no rate limit unless --rate-limit is given: 150 quick requests, no 429', async () => {
    const f = await fixture();
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const res = await f.call('GET', '/me');
      statuses.add(res.status);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    expect([...statuses]).toEqual([200]);
    const limited = await fixture({ rateLimit: '2/min' });
    const three = [];
    for (let i = 0; i < 3; i++) three.push((await limited.call('GET', '/me')).status);
    expect(three).toEqual([200, 200, 429]);
  });

  it('--rate-burst without --rate-limit on an in-memory store is refused (it would do nothing)', async () => {
    await expect(fixture({ rateBurst: 5 })).rejects.toThrow('--rate-burst has no effect: with --memory the rate limit is off unless --rate-limit is given');
  });

  it('a file store keeps the limit by default, and every answer under it carries RateLimit-* headers', async () => {
    const s = await cliStore('empty');
    const f = await fixture({ db: s.db });
    const res = await f.call('GET', '/me');
    expect(res.status).toBe(200);
    // 600/min: a burst of 100, refilled at 10 a second.
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(98);
    expect(['0', '1']).toContain(res.headers.get('ratelimit-reset'));
    // Public routes are under no limit.
    expect((await f.call('GET', '/health', { as: null })).headers.get('ratelimit-limit')).toBeNull();
    await f.store.close();
    s.cleanup();
  });

  it('hand-worked: 1/s with a burst of 3, headers on every answer and on the 429', async () => {
    const svc = await makeService();
    let now = 0;
    const app = createApp({ ...svc.deps, rateLimiter: tokenBucketLimiter({ perSecond: 1, burst: 3 }, () => now) }, ROUTE_MODULES);
    const seen: string[] = [];
    const get = async () => {
      const res = await app.request('http://t/api/v1/me', { headers: { authorization: 'Bearer tok-inst' } });
      const h = (n: string) => res.headers.get(n);
      seen.push(`${res.status} ${h('ratelimit-limit')} ${h('ratelimit-remaining')} ${h('ratelimit-reset')} ${h('retry-after') ?? '-'}`);
    };
    for (let i = 0; i < 4; i++) await get();
    now = 1500; // 1.5 tokens back
    await get();
    await get();
    expect(seen).toEqual([
      '200 3 2 1 -', // 3 - 1 = 2 left; 1 token short of full = 1 s
      '200 3 1 2 -',
      '200 3 0 3 -',
      '429 3 0 3 1', // no token: retry in 1 s; full again in 3 s
      '200 3 0 3 -', // 1.5 - 1 = 0.5 left: 2.5 s to full -> 3
      '429 3 0 3 1', // 0.5: half a token short -> retry in 1 s (whole seconds)
    ]);
    svc.close();
  });
});
