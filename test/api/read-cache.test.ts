// serve's read cache (src/api/read-cache.ts): a request is served what an earlier one read at
// the same store revision, and nothing else. Every other API test runs with it on too
// (test/helpers/app.ts); these hold it to the cases where a stale answer would show.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { bearerAuthenticator } from '../../src/api/auth.js';
import type { AppDeps } from '../../src/api/context.js';
import { ReadCache, readsAt } from '../../src/api/read-cache.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import { sequentialIds } from '../../src/runtime/ids.js';
import { importDataset } from '../../src/store/dataset.js';
import { openStore, type Store } from '../../src/store/db.js';
import { BASE_DATASET, makeService, T0, type TestService, testClock } from '../helpers/app.js';

const onSqlite = process.env.COURSEBOOK_TEST_STORE !== 'postgres';
const services: TestService[] = [];
const stores: Store[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const service = async (readCache = true) => {
  const svc = await makeService(undefined, {}, { readCache });
  services.push(svc);
  return svc;
};
const hits = (svc: TestService) => svc.deps.readCache!.stats().hits;

async function addAssignment(svc: TestService, title: string) {
  const res = await svc.call('POST', '/modules/m1/assignments', { title, points: 10 }, 'inst');
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('the read cache', () => {
  it.runIf(onSqlite)("keeps a caller's token and user across writes that cannot change them, and reads them again after one that can", async () => {
    const svc = await service();
    const me = () => svc.app.request('http://test/api/v1/me', { headers: { authorization: 'Bearer tok-stu1' } });
    expect((await me()).status).toBe(200);
    // A write that changes no token or user: the next request finds both kept.
    await addAssignment(svc, 'Essay');
    const before = svc.deps.readCache!.stats();
    expect((await me()).status).toBe(200);
    const after = svc.deps.readCache!.stats();
    // The caller (its token and user, read together) served; the access decision and the answer read again.
    expect([after.hits - before.hits, after.misses - before.misses]).toEqual([1, 2]);
    // A revocation is a write of a token: refused on the very next request.
    await svc.store.run("UPDATE tokens SET revoked_at = '2026-11-22T08:00:00.000Z' WHERE user_id = 'stu1'");
    const refused = await me();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it.runIf(onSqlite)('counts a miss once per value read from the store, a hit once per value served', async () => {
    const svc = await service();
    const get = () => svc.app.request('http://test/api/v1/courses/c1/assignments', { headers: { authorization: 'Bearer tok-inst' } });
    const cache = svc.deps.readCache!;
    const start = cache.stats();
    expect((await get()).status).toBe(200);
    // The caller (its token and user, read together), the access decision and the answer: each read once.
    const first = cache.stats();
    expect([first.misses - start.misses, first.hits - start.hits]).toEqual([3, 0]);
    expect((await get()).status).toBe(200);
    const second = cache.stats();
    expect([second.misses - first.misses, second.hits - first.hits]).toEqual([0, 3]);
  });

  it('answers a repeated GET from what the first read, byte for byte, on SQLite; on PostgreSQL it keeps nothing', async () => {
    const svc = await service();
    await addAssignment(svc, 'Essay');
    const get = () => svc.app.request('http://test/api/v1/courses/c1/assignments', { headers: { authorization: 'Bearer tok-inst' } });
    const first = await get();
    const before = hits(svc);
    const second = await get();
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // Each answer still has its own request id.
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    if (onSqlite) expect(hits(svc)).toBeGreaterThan(before);
    else {
      expect(svc.store.revisions()).toBeNull();
      expect(hits(svc)).toBe(0);
    }
  });

  it('a write through the service is seen by the next read', async () => {
    const svc = await service();
    const a = await addAssignment(svc, 'Essay');
    expect((await svc.call('GET', '/courses/c1/assignments', undefined, 'inst')).body.map((x: { title: string }) => x.title)).toEqual(['Essay']);
    await svc.call('GET', '/courses/c1/assignments', undefined, 'inst');
    expect((await svc.call('PATCH', `/assignments/${a.id}`, { title: 'Essay, revised' }, 'inst')).status).toBe(200);
    expect((await svc.call('GET', '/courses/c1/assignments', undefined, 'inst')).body.map((x: { title: string }) => x.title)).toEqual(['Essay, revised']);
  });

  it('a revoked token is refused on its next request, though its lookup was kept', async () => {
    const svc = await service();
    const made = (await svc.call('POST', '/tokens', { name: 'ci', scopes: ['*'] }, 'inst')).body as { id: string; token: string };
    const asToken = () => svc.app.request('http://test/api/v1/courses/c1', { headers: { authorization: `Bearer ${made.token}` } });
    expect((await asToken()).status).toBe(200);
    expect((await asToken()).status).toBe(200);
    expect((await svc.call('DELETE', `/tokens/${made.id}`, undefined, 'inst')).status).toBe(200);
    const refused = await asToken();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it('a token expires on time: the expiry is checked against the clock on every request', async () => {
    const svc = await service();
    const made = (await svc.call('POST', '/tokens', { name: 'short', scopes: ['*'], expiresAt: '2026-11-22T09:00:00Z' }, 'inst')).body as { token: string };
    const asToken = () => svc.app.request('http://test/api/v1/courses/c1', { headers: { authorization: `Bearer ${made.token}` } });
    expect((await asToken()).status).toBe(200);
    expect((await asToken()).status).toBe(200);
    svc.clock.set('2026-11-22T09:00:00Z');
    expect((await asToken()).status).toBe(401);
  });

  it('an access decision is made again once an enrollment is removed', async () => {
    const svc = await service();
    expect((await svc.call('GET', '/courses/c1', undefined, 'stu1')).status).toBe(200);
    expect((await svc.call('GET', '/courses/c1', undefined, 'stu1')).status).toBe(200);
    expect((await svc.call('DELETE', '/courses/c1/enrollments/stu1', undefined, 'inst')).status).toBe(200);
    expect((await svc.call('GET', '/courses/c1', undefined, 'stu1')).status).toBe(404);
  });

  it.runIf(onSqlite)('keeps an access decision across grade writes, and decides again after a write that can change it', async () => {
    const svc = await service();
    const history = () => svc.call('GET', '/courses/c1/gradebook/students/stu1/final/history', undefined, 'inst');
    const override = (expectedVersion: number) =>
      svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'Agreed', expectedVersion, percent: 91 }, 'inst');
    expect((await history()).status).toBe(200);
    expect((await override(0)).status).toBe(200);
    const cache = svc.deps.readCache!;
    const before = cache.stats();
    expect((await history()).status).toBe(200);
    const after = cache.stats();
    // The caller and the access decision served across the grade write; the answer read again.
    expect([after.hits - before.hits, after.misses - before.misses]).toEqual([2, 1]);
    // A write of what access reads (the instructor now a reviewer): decided again at once.
    await svc.store.run("UPDATE enrollments SET role = 'reviewer' WHERE course_id = 'c1' AND user_id = 'inst'");
    expect((await override(1)).status).toBe(403);
  });

  it.runIf(onSqlite)('the access revision moves with a write of every table access reads, and not with a grade write', async () => {
    const svc = await service();
    const access = () => svc.store.revisions()!.access;
    const moves = async (sql: string) => {
      const before = access();
      await svc.store.run(sql);
      return access() !== before;
    };
    expect(
      await moves("INSERT INTO final_grades (course_id, student_id, reason, version, updated_by, updated_at) VALUES ('c1', 'stu1', 'r', 1, 'inst', 't')"),
    ).toBe(false);
    expect(await moves("INSERT INTO final_grade_history (course_id, student_id, version, reason, by, at) VALUES ('c1', 'stu1', 1, 'r', 'inst', 't')")).toBe(
      false,
    );
    expect(await moves('DELETE FROM grade_cells')).toBe(false);
    for (const table of [
      'tokens',
      'users',
      'courses',
      'modules',
      'lessons',
      'assignments',
      'blocks',
      'submissions',
      'enrollments',
      'certificates',
      'reporting_lines',
      'templates',
    ]) {
      expect({ table, moved: await moves(`DELETE FROM ${table} WHERE 0`) }).toEqual({ table, moved: true });
    }
    // A setup write reaches courses through its trigger (the content revision): it moves too.
    expect(await moves("UPDATE gradebook_setups SET setup = setup WHERE course_id = 'c1'")).toBe(true);
    // A statement the store cannot tell (not a plain write of one table) moves every revision.
    expect(await moves("WITH x AS (SELECT 1) UPDATE final_grades SET reason = 'r' WHERE 0")).toBe(true);
  });

  it('an answer made with the clock is never kept', async () => {
    const svc = await service();
    const first = await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1');
    expect(first.status).toBe(200);
    expect(first.body.computedAt).toBe(T0);
    svc.clock.set('2026-11-23T10:00:00Z');
    expect((await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1')).body.computedAt).toBe('2026-11-23T10:00:00.000Z');
  });

  it('a page answered from the cache carries its Link header', async () => {
    const svc = await service();
    await addAssignment(svc, 'One');
    await addAssignment(svc, 'Two');
    const first = await svc.call('GET', '/courses/c1/assignments?limit=1', undefined, 'inst');
    const before = hits(svc);
    const second = await svc.call('GET', '/courses/c1/assignments?limit=1', undefined, 'inst');
    expect(first.headers.get('link')).toContain('cursor=');
    expect(second.headers.get('link')).toBe(first.headers.get('link'));
    expect(second.body).toEqual(first.body);
    if (onSqlite) expect(hits(svc)).toBeGreaterThan(before);
  });

  it('each caller is served its own answer: a student never gets what staff were answered', async () => {
    const svc = await service();
    const draft = await addAssignment(svc, 'Draft');
    const staff = await svc.call('GET', '/courses/c1/assignments', undefined, 'inst');
    expect(staff.body.map((x: { id: string }) => x.id)).toEqual([draft.id]);
    const student = await svc.call('GET', '/courses/c1/assignments', undefined, 'stu1');
    expect(student.status).toBe(200);
    expect(student.body).toEqual([]);
    expect((await svc.call('GET', '/courses/c1/assignments', undefined, 'out')).status).toBe(404);
  });

  it.skipIf(!onSqlite)('a commit by another connection to the same file is seen by the next read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-read-cache-'));
    dirs.push(dir);
    const path = join(dir, 'shared.db');
    const store = await openStore(path);
    stores.push(store);
    const clock = testClock();
    await importDataset(store, clock, BASE_DATASET, { replace: false });
    const deps: AppDeps = { store, clock, ids: sequentialIds(), auth: bearerAuthenticator(), readCache: new ReadCache() };
    const app = createApp(deps, ROUTE_MODULES);
    const title = async () =>
      ((await (await app.request('http://test/api/v1/courses/c1', { headers: { authorization: 'Bearer tok-inst' } })).json()) as { title: string }).title;
    expect(await title()).toBe('Course One');
    expect(await title()).toBe('Course One');
    expect(deps.readCache!.stats().hits).toBeGreaterThan(0);
    // Another program (a CLI call, say) writes the same file.
    const other = await openStore(path);
    stores.push(other);
    await other.run("UPDATE courses SET title = 'Renamed elsewhere' WHERE id = 'c1'");
    expect(await title()).toBe('Renamed elsewhere');
  });

  it('any sequence of requests is answered as a service without the cache answers it', async () => {
    // A request, or (sql) a statement run on the store as another part of the program would.
    type Step = { method: string; path: string; body?: unknown; as: string; sql?: string };
    const reads: Step[] = [
      { method: 'GET', path: '/courses/c1/assignments', as: 'inst' },
      { method: 'GET', path: '/courses/c1/assignments', as: 'stu1' },
      { method: 'GET', path: '/courses/c1/assignments?limit=1', as: 'inst' },
      { method: 'GET', path: '/courses/c1', as: 'stu2' },
      { method: 'GET', path: '/courses/c1/enrollments', as: 'inst' },
      { method: 'GET', path: '/courses/c1/gradebook/me', as: 'stu1' },
      { method: 'GET', path: '/modules/m1/assignments', as: 'rev' },
      { method: 'GET', path: '/me', as: 'stu2' },
    ];
    const writes = fc.oneof(
      fc
        .string({ minLength: 1, maxLength: 12 })
        .map((title): Step => ({ method: 'POST', path: '/modules/m1/assignments', body: { title, points: 5 }, as: 'inst' })),
      fc.string({ minLength: 1, maxLength: 12 }).map((title): Step => ({ method: 'PATCH', path: '/courses/c1', body: { title }, as: 'inst' })),
      fc.constantFrom<Step>(
        { method: 'DELETE', path: '/courses/c1/enrollments/stu2', as: 'inst' },
        { method: 'POST', path: '/courses/c1/enrollments', body: { userId: 'stu2', role: 'student' }, as: 'inst' },
        { method: 'POST', path: '/courses/c1/enrollments', body: { userId: 'stu2', role: 'reviewer' }, as: 'inst' },
        { method: 'POST', path: '/assignments/asg_0001/publish', as: 'inst' },
        { method: 'PATCH', path: '/users/stu2', body: { name: 'Tess Renamed' }, as: 'admin' },
        // Credentials: an admin flag given and taken, a token revoked, a token given back.
        { method: 'PATCH', path: '/users/stu2', body: { admin: true }, as: 'admin' },
        { method: 'PATCH', path: '/users/stu2', body: { admin: false }, as: 'admin' },
        { method: 'SQL', path: '', as: '', sql: "UPDATE tokens SET revoked_at = '2026-11-22T08:00:00.000Z' WHERE user_id = 'stu2'" },
        { method: 'SQL', path: '', as: '', sql: "UPDATE tokens SET revoked_at = NULL WHERE user_id = 'stu2'" },
      ),
    );
    const step = fc.oneof({ arbitrary: fc.constantFrom(...reads), weight: 3 }, { arbitrary: writes, weight: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const cached = await makeService(undefined, {}, { readCache: true });
        const direct = await makeService(undefined, {}, { readCache: false });
        try {
          for (const s of steps) {
            if (s.sql !== undefined) {
              await cached.store.run(s.sql);
              await direct.store.run(s.sql);
              continue;
            }
            const [a, b] = [await cached.call(s.method, s.path, s.body, s.as), await direct.call(s.method, s.path, s.body, s.as)];
            expect({ status: a.status, body: a.body, link: a.headers.get('link') }).toEqual({ status: b.status, body: b.body, link: b.headers.get('link') });
          }
        } finally {
          await cached.close();
          await direct.close();
        }
      }),
      { numRuns: onSqlite ? 40 : 8 },
    );
  });
});

describe.skipIf(!onSqlite)('readsAt: a value read across a write is never served', () => {
  const title = (store: Store) => store.get<{ title: string }>("SELECT title FROM courses WHERE id = 'c1'");
  const fileStores = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-reads-'));
    dirs.push(dir);
    const path = join(dir, 'x.db');
    const store = await openStore(path);
    const other = await openStore(path);
    stores.push(store, other);
    await importDataset(store, testClock(), BASE_DATASET, { replace: false });
    return { store, other };
  };

  it('this process writing while the value is read: not kept', async () => {
    const { store } = await fileStores();
    const cache = new ReadCache();
    const read = await readsAt(store, cache).remember('title', async () => {
      const before = await title(store);
      await store.run("UPDATE courses SET title = 'Changed' WHERE id = 'c1'");
      return before;
    });
    expect(read).toEqual({ title: 'Course One' });
    expect(cache.stats().entries).toBe(0);
    expect(await readsAt(store, cache).remember('title', () => title(store))).toEqual({ title: 'Changed' });
  });

  it('another connection committing while the value is read: whatever was kept is never served', async () => {
    const { store, other } = await fileStores();
    const cache = new ReadCache();
    const reads = readsAt(store, cache);
    await reads.remember('title', async () => {
      const before = await title(store);
      await other.run("UPDATE courses SET title = 'Changed elsewhere' WHERE id = 'c1'");
      return before;
    });
    expect(await readsAt(store, cache).remember('title', () => title(store))).toEqual({ title: 'Changed elsewhere' });
  });

  it("on a file: a credential read stays kept across this process's other writes, not across a credential write or another program's commit", async () => {
    const { store, other } = await fileStores();
    const cache = new ReadCache();
    const user = (s: Store) => s.get<{ name: string }>("SELECT name FROM users WHERE id = 'stu1'");
    const CREDENTIALS = { scope: 'credentials' } as const;
    const read = (load: () => Promise<unknown>) => readsAt(store, cache).remember('user', load, CREDENTIALS);
    const notRead = () => Promise.resolve({ name: 'not read' });
    const first = await read(() => user(store));
    await store.run("UPDATE courses SET title = 'Own write' WHERE id = 'c1'");
    await store.tx((tx) => tx.run("UPDATE courses SET title = 'Own transaction' WHERE id = 'c1'"));
    expect(await read(notRead)).toBe(first);
    await store.run("UPDATE users SET name = 'Renamed here' WHERE id = 'stu1'");
    expect(await read(() => user(store))).toEqual({ name: 'Renamed here' });
    await other.run("UPDATE courses SET title = 'Elsewhere' WHERE id = 'c1'");
    expect(await read(() => user(store))).toEqual({ name: 'Renamed here' });
    expect(await read(notRead)).toEqual({ name: 'Renamed here' });
    await other.run("UPDATE users SET name = 'Renamed elsewhere' WHERE id = 'stu1'");
    expect(await read(() => user(store))).toEqual({ name: 'Renamed elsewhere' });
  });

  it('a kept value is frozen: a caller cannot change what the next request is served', async () => {
    const { store } = await fileStores();
    const cache = new ReadCache();
    const kept = await readsAt(store, cache).remember('title', () => title(store));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(await readsAt(store, cache).remember('title', () => Promise.resolve({ title: 'not read' }))).toBe(kept);
  });
});

describe('ReadCache limits', () => {
  it('holds one revision at a time, a bounded number of values and characters, and no single large text', () => {
    const cache = new ReadCache({ entries: 3, chars: 100 });
    cache.set('r1', 'a', 1);
    cache.set('r1', 'b', null);
    expect(cache.get('r1', 'a')).toEqual({ value: 1 });
    expect(cache.get('r1', 'b')).toEqual({ value: null });
    expect(cache.get('r2', 'a')).toBeUndefined();
    // A value of a new revision drops the old ones.
    cache.set('r2', 'c', 3);
    expect(cache.get('r1', 'a')).toBeUndefined();
    expect(cache.stats().entries).toBe(1);
    // Full: it starts again.
    cache.set('r2', 'd', 4);
    cache.set('r2', 'e', 5);
    cache.set('r2', 'f', 6);
    expect(cache.stats().entries).toBe(1);
    expect(cache.get('r2', 'f')).toEqual({ value: 6 });
    // Over a quarter of the characters is never kept; texts count against the limit.
    cache.set('r2', 'big', 'x', 26);
    expect(cache.get('r2', 'big')).toBeUndefined();
    cache.set('r2', 't1', 't', 25);
    cache.set('r2', 't2', 't', 25);
    expect(cache.stats().chars).toBe(50);
    cache.set('r2', 't3', 't', 25);
    cache.set('r2', 't4', 't', 25);
    expect(cache.stats().chars).toBeLessThanOrEqual(100);
  });

  it('keys of parts: each whole key is its own value, a prefix or a longer key is not, and a kept Map is a value', () => {
    const cache = new ReadCache({ entries: 10, chars: 100 });
    cache.set('r1', ['grant', 'policy', 'c1', 'who'], 'yes');
    cache.set('r1', ['grant', 'policy', 'c2', 'who'], 'no');
    cache.set('r1', ['answer', 'GET', 'http://t/a\0b', 'who'], 'text');
    expect(cache.get('r1', ['grant', 'policy', 'c1', 'who'])).toEqual({ value: 'yes' });
    expect(cache.get('r1', ['grant', 'policy', 'c2', 'who'])).toEqual({ value: 'no' });
    expect(cache.get('r1', ['grant', 'policy', 'c1'])).toBeUndefined();
    expect(cache.get('r1', ['grant', 'policy', 'c1', 'who', 'more'])).toBeUndefined();
    expect(cache.get('r1', 'grant')).toBeUndefined();
    // Parts are not joined: a part holding the separator of a joined key is still its own.
    expect(cache.get('r1', ['answer', 'GET', 'http://t/a', 'b\0who'])).toBeUndefined();
    expect(cache.get('r1', ['answer', 'GET', 'http://t/a\0b', 'who'])).toEqual({ value: 'text' });
    const map = new Map([['k', 1]]);
    cache.set('r1', ['user', 'u1'], map);
    expect(cache.get('r1', ['user', 'u1'])?.value).toBe(map);
    expect(cache.get('r1', ['user', 'u1', 'k'])).toBeUndefined();
    // Setting a key again replaces its value and is not a second entry.
    cache.set('r1', ['user', 'u1'], null);
    expect(cache.get('r1', ['user', 'u1'])).toEqual({ value: null });
    expect(cache.stats().entries).toBe(4);
    expect(cache.get('r2', ['user', 'u1'])).toBeUndefined();
  });
});
