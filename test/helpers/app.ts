/**
 * An in-process service over a fresh :memory: store, with a fixed clock, sequential ids and
 * a handful of users and tokens. Real parts only: the same createApp the CLI and serve use.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { bearerAuthenticator } from '../../src/api/auth.js';
import type { AppDeps } from '../../src/api/context.js';
import { ReadCache } from '../../src/api/read-cache.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import type { Clock } from '../../src/runtime/clock.js';
import { sequentialIds } from '../../src/runtime/ids.js';
import type { DatasetInput } from '../../src/schemas/dataset.js';
import { importDataset } from '../../src/store/dataset.js';
import { openSqlite, openStore, type Store } from '../../src/store/db.js';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { isStoreEmpty, wipeStore } from '../../src/store/wipe.js';
import { conforming } from './openapi-conformance.js';
import { createDatabase, TEMPLATE_DATABASE } from './postgres.js';

/** One record of a dataset collection as a dataset file may give it: `DatasetRecord<'templates'>`. */
export type DatasetRecord<K extends keyof DatasetInput> = NonNullable<DatasetInput[K]> extends ReadonlyArray<infer R> ? R : never;

export const T0 = '2026-11-22T08:30:00.000Z';

/**
 * A fresh, empty, migrated store of the dialect this test project runs on: SQLite ':memory:',
 * or (project `postgres`, COURSEBOOK_TEST_STORE=postgres) a new database copied from the
 * run's migrated template in the test cluster.
 */
export async function openTestStore(): Promise<Store> {
  if (process.env.COURSEBOOK_TEST_STORE !== 'postgres') {
    migratedImage ??= await emptyStoreImage();
    return openSqlite(':memory:', migratedImage);
  }
  const store =
    emptied.pop() ??
    (await openStore(overSocket(await createDatabase(inject('pgAdminUrl'), `t_${randomUUID().replaceAll('-', '')}`, { template: TEMPLATE_DATABASE })), {
      pool: 3,
    }));
  return reusedOnClose(store);
}

/**
 * A new, migrated, empty SQLite store as an image (Store.snapshot), made once per worker:
 * opening a copy of it takes about a sixth of the time of migrating a new :memory: store,
 * and the API suite opens one per test. serve --memory's seed cache opens its images alike.
 */
let migratedImage: Uint8Array | undefined;

async function emptyStoreImage(): Promise<Uint8Array> {
  const store = await openStore(':memory:');
  try {
    return store.snapshot!();
  } finally {
    await store.close();
  }
}

/** The database of a test cluster URL, reached through the cluster's Unix socket (pgSocketUrl). */
function overSocket(url: string): string {
  const socket = new URL(inject('pgSocketUrl'));
  socket.pathname = new URL(url).pathname;
  return socket.toString();
}

/**
 * PostgreSQL stores of this worker that a test closed, emptied for the next test, their
 * connections still open. Copying the template takes about 140 ms a database; and a new
 * connection is a new server process, which plans every foreign-key check and compiles every
 * trigger function again on first use: most of the server's time in this project went there.
 */
const emptied: Store[] = [];

/**
 * The store, closing into `emptied`: emptied with serve's own reset (wipeStore, which leaves
 * a store as new, numbering included) and given back only if that succeeded and the schema is
 * still the one the template has. A store the test broke is closed and its database left behind.
 * The store holds nothing of a test between tests: on PostgreSQL it keeps no revisions and no
 * statements, only its pool.
 */
function reusedOnClose(store: Store): Store {
  let closing: Promise<void> | null = null;
  const closeAndGiveBack = async () => {
    let reusable = false;
    try {
      await wipeStore(store);
      reusable = (await store.get('SELECT version FROM coursebook_schema'))?.version === SCHEMA_VERSION && (await isStoreEmpty(store));
    } catch {
      // A database the test broke (or left busy) is not handed on.
    }
    if (reusable) emptied.push(store);
    else await store.close();
  };
  return {
    ...store,
    close: () => {
      closing ??= closeAndGiveBack();
      return closing;
    },
  };
}

/** A settable clock, for tests that move time. */
export function testClock(start = T0): Clock & { set(at: string): void } {
  let now = new Date(Date.parse(start)).toISOString();
  return { now: () => now, set: (at: string) => void (now = new Date(Date.parse(at)).toISOString()) };
}

/** Users and tokens every test service starts with: token text = `tok-<userId>`. */
export const BASE_DATASET: DatasetInput = {
  coursebook: 1,
  users: [
    { id: 'admin', name: 'Ada Admin', admin: true },
    { id: 'inst', name: 'Ivan Instructor' },
    { id: 'rev', name: 'Rita Reviewer' },
    { id: 'stu1', name: 'Sam Student' },
    { id: 'stu2', name: 'Tess Student' },
    { id: 'out', name: 'Otto Outsider' },
  ],
  tokens: ['admin', 'inst', 'rev', 'stu1', 'stu2', 'out'].map((u) => ({ token: `tok-${u}`, userId: u, scopes: ['*' as const] })),
  courses: [{ id: 'c1', title: 'Course One', description: 'A test course.' }],
  enrollments: [
    { courseId: 'c1', userId: 'inst', role: 'instructor' },
    { courseId: 'c1', userId: 'rev', role: 'reviewer' },
    { courseId: 'c1', userId: 'stu1', role: 'student' },
    { courseId: 'c1', userId: 'stu2', role: 'student' },
  ],
  // Published: students see a module, and anything in it, only while it is (#14).
  modules: [{ id: 'm1', courseId: 'c1', title: 'Module One', objective: 'Learn the basics.', status: 'published' }],
};

export interface TestService {
  store: Store;
  clock: ReturnType<typeof testClock>;
  deps: AppDeps;
  app: ReturnType<typeof createApp>;
  /** Send a request as `as` (a user id whose token is tok-<id>), or with no token when as is null. */
  call<T = any>(method: string, path: string, body?: unknown, as?: string | null): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

export async function makeService(
  extra?: Partial<DatasetInput>,
  options: Partial<AppDeps['options']> = {},
  { readCache = true }: { readCache?: boolean } = {},
): Promise<TestService> {
  const store = await openTestStore();
  const clock = testClock();
  // serve's read cache, so every API test also holds it to answering as the store does.
  const deps: AppDeps = { store, clock, ids: sequentialIds(), auth: bearerAuthenticator(), options, readCache: readCache ? new ReadCache() : null };
  const dataset = { ...BASE_DATASET, ...(extra ?? {}) } as DatasetInput;
  if (extra?.users) dataset.users = [...(BASE_DATASET.users ?? []), ...extra.users];
  if (extra?.enrollments) dataset.enrollments = [...(BASE_DATASET.enrollments ?? []), ...extra.enrollments];
  if (extra?.modules) dataset.modules = [...(BASE_DATASET.modules ?? []), ...extra.modules];
  if (extra?.tokens) dataset.tokens = [...(BASE_DATASET.tokens ?? []), ...extra.tokens];
  await importDataset(store, clock, dataset, { replace: false });
  // Every answer is checked against the served OpenAPI document (test/helpers/openapi-conformance.ts).
  const app = conforming(createApp(deps, ROUTE_MODULES));
  return {
    store,
    clock,
    deps,
    app,
    async call(method, path, body, as = 'admin') {
      const headers: Record<string, string> = {};
      if (as !== null) headers.authorization = `Bearer tok-${as}`;
      const init: RequestInit = { method, headers };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const res = await app.request(`http://test/api/v1${path}`, init);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    close: () => store.close(),
  };
}
