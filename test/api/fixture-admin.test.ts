/**
 * serve as a CI fixture (#16), in-process: control routes, the request journal, request ids
 * and logs, fault rules and delays. The service is wired exactly as `serve` wires it
 * (buildService); the wall clock is fixed and `sleep` only records, so nothing is timed.
 * The clock, ids and rate limits are in fixture-clock.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import type { Problem } from '../../src/errors.js';
import { fixedClock } from '../../src/runtime/clock.js';
import type { FaultRuleValue, JournalEntryValue } from '../../src/schemas/fixture.js';
import { importDataset } from '../../src/store/dataset.js';
import { openStore } from '../../src/store/db.js';
import { BASE_DATASET, makeService } from '../helpers/app.js';
import { fixture, SEED_NOW, WALL } from '../helpers/fixture.js';

/** An `invalid` answer: the error envelope with the problems it names. */
type ErrorBody = { error: { code: string; details: Problem[] } };

const CONTROL_ROUTES: [string, string, unknown?][] = [
  ['GET', '/_admin/requests'],
  ['GET', '/_admin/requests/count'],
  ['DELETE', '/_admin/requests'],
  ['GET', '/_admin/faults'],
  ['POST', '/_admin/faults', { path: '/courses', status: 503 }],
  ['DELETE', '/_admin/faults'],
  ['DELETE', '/_admin/faults/flt_1'],
  ['GET', '/_admin/clock'],
  ['PUT', '/_admin/clock', { now: '2027-01-01T00:00:00Z' }],
  ['POST', '/_admin/clock/advance', { seconds: 60 }],
];

describe('control routes: enabled by --allow-admin, admins only', () => {
  it('every control route needs a credential (401), an admin (403) and a full-scope token (403)', async () => {
    const f = await fixture({}, { ...BASE_DATASET, tokens: [...BASE_DATASET.tokens!, { token: 'tok-narrow', userId: 'admin', scopes: ['people:read'] }] });
    for (const [method, path, body] of CONTROL_ROUTES) {
      const none = await f.call(method, path, { body, as: null });
      expect([path, none.status, none.body.error.code]).toEqual([path, 401, 'unauthenticated']);
      const instructor = await f.call(method, path, { body, as: 'inst' });
      expect([path, instructor.status, instructor.body.error.code]).toEqual([path, 403, 'forbidden']);
      const narrow = await f.call(method, path, { body, as: 'narrow' });
      expect([path, narrow.status]).toEqual([path, 403]);
      const admin = await f.call(method, path, { body });
      expect([path, admin.status]).toEqual([path, method === 'POST' && path === '/_admin/faults' ? 201 : path.endsWith('flt_1') ? 404 : 200]);
    }
  });

  it('without --allow-admin the control routes do not exist (404) and are not in the OpenAPI document', async () => {
    const f = await fixture({ allowAdmin: false });
    for (const [method, path, body] of CONTROL_ROUTES) {
      const res = await f.call(method, path, { body });
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'not-found']);
    }
    expect((await f.call('POST', '/_reset')).status).toBe(404);
    const doc = (await f.call('GET', '/openapi.json', { as: null })).body;
    expect(Object.keys(doc.paths).filter((p) => p.includes('_admin'))).toEqual([]);
  });

  it('--allow-reset alone enables only POST /_reset; --allow-admin enables it too', async () => {
    const resetOnly = await fixture({ allowAdmin: false, allowReset: true });
    expect((await resetOnly.call('POST', '/_reset')).status).toBe(200);
    expect((await resetOnly.call('GET', '/_admin/clock')).status).toBe(404);
    expect((await (await fixture()).call('POST', '/_reset')).status).toBe(200);
  });

  it('POST /_reset answers once the seed is back, not while it is still being restored (it answered at once)', async () => {
    const svc = await makeService();
    let restored = false;
    const app = createApp(
      {
        ...svc.deps,
        options: { ...svc.deps.options, allowReset: true },
        reset: async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          restored = true;
        },
      },
      ROUTE_MODULES,
    );
    const res = await app.request('http://t/api/v1/_reset', { method: 'POST', headers: { authorization: 'Bearer tok-admin' } });
    expect([res.status, await res.json(), restored]).toEqual([200, { ok: true }, true]);
    await svc.close();
  });

  it('the OpenAPI document lists every control operation under the fixture-control tag, admin-only', async () => {
    const doc = (await (await fixture()).call('GET', '/openapi.json', { as: null })).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; tags: string[]; 'x-coursebook-access': unknown }>>)
      .filter(([p]) => p.startsWith('/api/v1/_admin'))
      .flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => `${m.toUpperCase()} ${p} ${op.operationId} ${op.tags.join()}`));
    expect(ops.sort()).toEqual(
      [
        'DELETE /api/v1/_admin/faults clearFaults fixture-control',
        'DELETE /api/v1/_admin/faults/{faultId} deleteFault fixture-control',
        'DELETE /api/v1/_admin/requests clearRequests fixture-control',
        'GET /api/v1/_admin/clock getClock fixture-control',
        'GET /api/v1/_admin/faults listFaults fixture-control',
        'GET /api/v1/_admin/requests listRequests fixture-control',
        'GET /api/v1/_admin/requests/count countRequests fixture-control',
        'POST /api/v1/_admin/clock/advance advanceClock fixture-control',
        'POST /api/v1/_admin/faults addFault fixture-control',
        'PUT /api/v1/_admin/clock setClock fixture-control',
      ].sort(),
    );
    expect(doc.paths['/api/v1/_admin/faults'].post['x-coursebook-access']).toEqual({ scope: '*', rule: 'admin' });
  });
});

describe('request journal', () => {
  it('records method, path, query, status, caller, request id, bodies and times; never Authorization', async () => {
    const f = await fixture();
    await f.call('GET', '/courses?limit=5&x=1', { as: 'inst' });
    await f.call('POST', '/courses', { body: { title: 'Journaled' } });
    await f.call('GET', '/health', { as: null });
    await f.call('GET', '/courses/nope', { as: 'nobody' });
    const list = await f.call<JournalEntryValue[]>('GET', '/_admin/requests');
    expect(list.status).toBe(200);
    expect(list.body.map((e) => [e.seq, e.method, e.path, e.query, e.status, e.callerId])).toEqual([
      [1, 'GET', '/api/v1/courses', 'limit=5&x=1', 200, 'inst'],
      [2, 'POST', '/api/v1/courses', '', 201, 'admin'],
      [3, 'GET', '/api/v1/health', '', 200, null],
      [4, 'GET', '/api/v1/courses/nope', '', 401, null],
    ]);
    const post = list.body[1]!;
    expect(post).toMatchObject({
      requestId: 'req_0002',
      time: WALL,
      serviceTime: SEED_NOW,
      faultId: null,
      requestBody: '{"title":"Journaled"}',
      truncated: false,
      requestHeaders: { 'content-type': 'application/json' },
    });
    expect(JSON.parse(post.responseBody ?? 'null')).toMatchObject({ id: 'crs_0001', title: 'Journaled' });
    expect(typeof post.durationMs).toBe('number');
    expect(JSON.stringify(list.body)).not.toMatch(/tok-|authorization/i);
    expect(list.body[0]!.requestBody).toBeNull();
  });

  it('filters by method, path pattern and status (exact or class); limit keeps the newest; count agrees', async () => {
    const f = await fixture();
    await f.call('GET', '/courses');
    await f.call('GET', '/courses/c1');
    await f.call('GET', '/courses/c1/modules');
    await f.call('POST', '/courses', { body: { title: '' } });
    await f.call('GET', '/courses/zzz');
    const paths = async (query: string) =>
      (await f.call<JournalEntryValue[]>('GET', `/_admin/requests${query}`)).body.map((e) => `${e.method} ${e.path} ${e.status}`);
    expect(await paths('?method=post')).toEqual(['POST /api/v1/courses 400']);
    expect(await paths('?path=/courses/*')).toEqual(['GET /api/v1/courses/c1 200', 'GET /api/v1/courses/zzz 404']);
    expect(await paths('?path=/api/v1/courses/{courseId}/**')).toEqual(['GET /api/v1/courses/c1/modules 200']);
    expect(await paths('?path=/courses/**')).toEqual(['GET /api/v1/courses/c1 200', 'GET /api/v1/courses/c1/modules 200', 'GET /api/v1/courses/zzz 404']);
    expect(await paths('?status=4xx')).toEqual(['POST /api/v1/courses 400', 'GET /api/v1/courses/zzz 404']);
    expect(await paths('?status=404&method=GET')).toEqual(['GET /api/v1/courses/zzz 404']);
    expect(await paths('?limit=2')).toEqual(['POST /api/v1/courses 400', 'GET /api/v1/courses/zzz 404']);
    expect((await f.call('GET', '/_admin/requests/count?method=GET&status=2xx')).body).toEqual({ count: 3 });
    expect((await f.call('GET', '/_admin/requests/count?path=/nowhere')).body).toEqual({ count: 0 });
  });

  it('bad filters are invalid, naming the parameter (400, exit 3)', async () => {
    const f = await fixture();
    for (const [query, path] of [
      ['?status=44', 'status'],
      ['?path=courses', 'path'],
      ['?path=/courses?x=1', 'path'],
      ['?method=FETCH', 'method'],
      ['?limit=0', 'limit'],
    ]) {
      const res = await f.call('GET', `/_admin/requests${query}`);
      expect([query, res.status, res.body.error.code, res.body.error.details[0].path]).toEqual([query, 400, 'invalid', path]);
    }
  });

  it('is bounded by --journal-size (the oldest go first); DELETE clears it; control routes are not journaled', async () => {
    const f = await fixture({ journalSize: 3 });
    for (let i = 1; i <= 5; i++) await f.call('GET', `/courses/c${i}`);
    const kept = (await f.call<JournalEntryValue[]>('GET', '/_admin/requests')).body;
    expect(kept.map((e) => [e.seq, e.path])).toEqual([
      [3, '/api/v1/courses/c3'],
      [4, '/api/v1/courses/c4'],
      [5, '/api/v1/courses/c5'],
    ]);
    expect(await f.call('DELETE', '/_admin/requests')).toMatchObject({ status: 200, body: { ok: true, cleared: 3 } });
    expect((await f.call('GET', '/_admin/requests')).body).toEqual([]);
    await f.call('GET', '/courses');
    expect((await f.call<JournalEntryValue[]>('GET', '/_admin/requests')).body.map((e) => e.seq)).toEqual([6]);
    const none = await fixture({ journalSize: 0 });
    await none.call('GET', '/courses');
    expect((await none.call('GET', '/_admin/requests/count')).body).toEqual({ count: 0 });
  });

  it('keeps at most 64 KiB of each body and says so', async () => {
    const f = await fixture();
    const long = 'x'.repeat(70 * 1024);
    const res = await f.call('POST', '/courses', { body: { title: 'Long', extra: long } });
    expect(res.status).toBe(400);
    const [entry] = (await f.call('GET', '/_admin/requests')).body;
    expect(entry.truncated).toBe(true);
    expect(entry.requestBody).toHaveLength(64 * 1024);
    expect(entry.requestBody.startsWith('{"title":"Long"')).toBe(true);
  });
});

describe('X-Request-Id and the request log', () => {
  it('every answer carries X-Request-Id: the caller’s when given, else a new one', async () => {
    const f = await fixture();
    expect((await f.call('GET', '/health', { as: null })).headers.get('x-request-id')).toBe('req_0001');
    expect((await f.call('GET', '/courses', { headers: { 'x-request-id': 'ci-run-42/step-7' } })).headers.get('x-request-id')).toBe('ci-run-42/step-7');
    // Not 1..200 visible ASCII characters: replaced, never echoed into logs and headers.
    expect((await f.call('GET', '/courses', { headers: { 'x-request-id': 'has space' } })).headers.get('x-request-id')).toBe('req_0002');
    expect((await f.call('GET', '/courses/nope')).headers.get('x-request-id')).toBe('req_0003');
    expect((await f.call('GET', '/_admin/clock')).headers.get('x-request-id')).toBe('req_0004');
    // Local mode (the CLI's in-process app) answers with one too.
    const local = await makeService();
    expect((await local.call('GET', '/courses')).headers.get('x-request-id')).toMatch(/^req_\d{4}$/);
    local.close();
  });

  it('request log lines carry the time, query string, caller and request id', async () => {
    const f = await fixture();
    await f.call('GET', '/courses?x=1', { as: 'inst', headers: { 'x-request-id': 'abc' } });
    expect(f.logs.at(-1)).toEqual({
      time: WALL,
      event: 'request',
      method: 'GET',
      path: '/api/v1/courses',
      query: 'x=1',
      status: 200,
      ms: expect.any(Number),
      caller: 'inst',
      requestId: 'abc',
    });
    await f.call('GET', '/courses', { as: null });
    expect(f.logs.at(-1)).toMatchObject({ status: 401, caller: null, requestId: 'req_0001' });
  });
});

describe('fault rules and delays', () => {
  it('a rule matches by method and path pattern; other requests are served', async () => {
    const f = await fixture();
    const added = await f.call('POST', '/_admin/faults', { body: { method: 'post', path: '/courses', status: 503 } });
    expect(added).toMatchObject({
      status: 201,
      body: {
        id: 'flt_1',
        method: 'POST',
        path: '/courses',
        times: null,
        delayMs: 0,
        status: 503,
        code: 'internal',
        message: 'Injected fault (rule flt_1).',
        dropConnection: false,
        matched: 0,
      },
    });
    const faulted = await f.call('POST', '/courses', { body: { title: 'No' } });
    expect(faulted.status).toBe(503);
    expect(faulted.body).toEqual({ error: { code: 'internal', message: 'Injected fault (rule flt_1).', details: { faultId: 'flt_1' } } });
    expect(faulted.headers.get('x-coursebook-fault')).toBe('flt_1');
    expect(faulted.headers.get('x-request-id')).toBe('req_0002'); // req_0001 was the POST /_admin/faults
    expect((await f.call('GET', '/courses')).status).toBe(200); // another method
    expect((await f.call('POST', '/courses/c1/modules', { body: { title: 'M' } })).status).toBe(201); // another path
    // Nothing was written by the faulted request.
    expect((await f.call('GET', '/courses')).body.map((c: { id: string }) => c.id)).toEqual(['c1']);
    const journal = (await f.call<JournalEntryValue[]>('GET', '/_admin/requests?status=503')).body;
    expect(journal.map((e) => [e.path, e.faultId])).toEqual([['/api/v1/courses', 'flt_1']]);
    expect((await f.call('GET', '/_admin/faults')).body[0].matched).toBe(1);
  });

  it('{name} and ** patterns, times, and the newest rule first', async () => {
    const f = await fixture();
    await f.call('POST', '/_admin/faults', { body: { path: '/courses/{courseId}/**', status: 500, times: 2 } });
    await f.call('POST', '/_admin/faults', { body: { path: '/courses/c1/modules', code: 'conflict', message: 'Busy, try again.' } });
    // The newest rule wins where both match; a known code gives its status.
    expect(await f.call('GET', '/courses/c1/modules')).toMatchObject({ status: 409, body: { error: { code: 'conflict', message: 'Busy, try again.' } } });
    // The older rule: two matches, then it is spent.
    expect((await f.call('GET', '/courses/c1/gradebook/grades')).status).toBe(500);
    expect((await f.call('GET', '/courses/c1/gradebook/setup')).status).toBe(500);
    expect((await f.call('GET', '/courses/c1/gradebook/setup')).status).toBe(200);
    expect((await f.call('GET', '/courses/c1')).status).toBe(200); // {courseId}/** needs a segment after the id
    expect((await f.call<FaultRuleValue[]>('GET', '/_admin/faults')).body.map((r) => [r.id, r.times, r.matched])).toEqual([
      ['flt_1', 2, 2],
      ['flt_2', null, 1],
    ]);
  });

  it('delayMs and --delay wait before answering; control routes are never delayed or faulted', async () => {
    const f = await fixture({ delayMs: 25 });
    await f.call('GET', '/courses');
    expect(f.slept).toEqual([25]);
    await f.call('POST', '/_admin/faults', { body: { path: '/**', delayMs: 1000 } });
    await f.call('POST', '/_admin/faults', { body: { path: '/**', status: 503, times: 1 } });
    expect(f.slept).toEqual([25]);
    expect((await f.call('GET', '/courses')).status).toBe(503); // the newest rule answers (no delay of its own)
    expect((await f.call('GET', '/courses')).status).toBe(200); // it is spent; the delay rule applies
    expect(f.slept).toEqual([25, 25, 1025]);
    expect((await f.call('GET', '/_admin/faults')).status).toBe(200);
    expect((await f.call('GET', '/_admin/requests')).status).toBe(200);
    expect(f.slept).toEqual([25, 25, 1025]);
  });

  it('dropConnection sends no answer (in-process: a network error); the journal shows status null', async () => {
    const f = await fixture();
    await f.call('POST', '/_admin/faults', { body: { method: 'GET', path: '/courses', dropConnection: true, times: 1 } });
    const dropped = await f.call('GET', '/courses');
    expect(dropped.res.type).toBe('error');
    expect((await f.call('GET', '/courses')).status).toBe(200);
    const [entry] = (await f.call('GET', '/_admin/requests')).body;
    expect(entry).toMatchObject({ status: null, faultId: 'flt_1', responseBody: null });
  });

  it('a status alone gets the service’s code for it; GET lists, DELETE one or all', async () => {
    const f = await fixture();
    const codes = [];
    for (const status of [404, 429, 418, 502]) codes.push((await f.call('POST', '/_admin/faults', { body: { path: '/x', status } })).body.code);
    expect(codes).toEqual(['not-found', 'rate-limited', 'fault', 'internal']);
    expect((await f.call('DELETE', '/_admin/faults/flt_2')).body).toEqual({ ok: true });
    expect(await f.call('DELETE', '/_admin/faults/flt_2')).toMatchObject({ status: 404, body: { error: { code: 'not-found' } } });
    expect((await f.call<FaultRuleValue[]>('GET', '/_admin/faults')).body.map((r) => r.id)).toEqual(['flt_1', 'flt_3', 'flt_4']);
    expect((await f.call('DELETE', '/_admin/faults')).body).toEqual({ ok: true, cleared: 3 });
    expect((await f.call('GET', '/_admin/faults')).body).toEqual([]);
  });

  it('an injected 429 carries Retry-After like the service’s own (default 1 s, or the rule’s retryAfter); other answers only when asked', async () => {
    const f = await fixture();
    const rules = [
      { path: '/a', status: 429 },
      { path: '/b', code: 'rate-limited' },
      { path: '/c', status: 429, retryAfter: 0 },
      { path: '/d', status: 503, retryAfter: 30 },
      { path: '/e', status: 503 },
    ];
    const added = [];
    for (const body of rules) added.push((await f.call<FaultRuleValue>('POST', '/_admin/faults', { body })).body.retryAfter);
    expect(added).toEqual([1, 1, 0, 30, null]);
    const answers = [];
    for (const path of ['/a', '/b', '/c', '/d', '/e']) {
      const res = await f.call('GET', path, { as: null });
      answers.push([path, res.status, res.headers.get('retry-after'), res.body.error.code, res.body.error.details]);
    }
    expect(answers).toEqual([
      ['/a', 429, '1', 'rate-limited', { faultId: 'flt_1', retryAfter: 1 }],
      ['/b', 429, '1', 'rate-limited', { faultId: 'flt_2', retryAfter: 1 }],
      ['/c', 429, '0', 'rate-limited', { faultId: 'flt_3', retryAfter: 0 }],
      ['/d', 503, '30', 'internal', { faultId: 'flt_4', retryAfter: 30 }],
      ['/e', 503, null, 'internal', { faultId: 'flt_5' }],
    ]);
  });

  it('a rule that cannot work is invalid, naming the field', async () => {
    const f = await fixture();
    const cases: [unknown, string][] = [
      [{ status: 503 }, 'path'],
      [{ path: 'courses', status: 503 }, 'path'],
      [{ path: '/courses/{', status: 503 }, 'path'],
      [{ path: '/courses' }, '(root)'],
      [{ path: '/courses', status: 503, dropConnection: true }, 'dropConnection'],
      [{ path: '/courses', message: 'hi' }, 'status'],
      [{ path: '/courses', code: 'teapot' }, 'status'],
      [{ path: '/courses', status: 500, code: 'Not Found' }, 'code'],
      [{ path: '/courses', status: 200 }, 'status'],
      [{ path: '/courses', delayMs: -1 }, 'delayMs'],
      [{ path: '/courses', times: 0, status: 500 }, 'times'],
      [{ path: '/courses', status: 500, colour: 'red' }, 'colour'],
      [{ path: '/courses', retryAfter: 5 }, 'status'],
      [{ path: '/courses', status: 429, retryAfter: -1 }, 'retryAfter'],
      [{ path: '/courses', status: 429, retryAfter: 86_401 }, 'retryAfter'],
      [{ path: '/courses', status: 429, retryAfter: 1.5 }, 'retryAfter'],
      [{ path: '/courses', code: 'rate-limited', dropConnection: true }, 'dropConnection'],
    ];
    for (const [body, field] of cases) {
      const res = await f.call<ErrorBody>('POST', '/_admin/faults', { body });
      expect([JSON.stringify(body), res.status, res.body.error.code, res.body.error.details.map((d) => d.path)]).toEqual([
        JSON.stringify(body),
        400,
        'invalid',
        [field],
      ]);
    }
    expect((await f.call('GET', '/_admin/faults')).body).toEqual([]);
  });
});

/** A promise with its resolve, for tests that decide when something happens. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * serve's sleep for a test that decides: the first wait asked for lasts until a reset aborts
 * it (`waiting` resolves once it began, `aborted` once a reset ended it); later ones end at once.
 */
function heldSleep() {
  const waiting = deferred();
  const aborted = deferred();
  let first = true;
  const sleep = (_ms: number, signal?: AbortSignal): Promise<void> => {
    if (!first) return Promise.resolve();
    first = false;
    waiting.resolve();
    return new Promise((resolve) =>
      signal?.addEventListener(
        'abort',
        () => {
          aborted.resolve();
          resolve();
        },
        { once: true },
      ),
    );
  };
  return { sleep, waiting: waiting.promise, aborted: aborted.promise };
}

/** A request body that is read only once the test releases it (`read` resolves when the handler asks for it). */
function heldBody(text: string) {
  const read = deferred();
  const released = deferred();
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        read.resolve();
        await released.promise;
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, read: read.promise, release: released.resolve };
}

const ids = (res: { body: { id: string; title: string }[] }) => res.body.map((c) => `${c.id} ${c.title}`);

describe('reset and requests in flight', () => {
  it('a reset ends the wait of a delayed request, which is answered 409 unserved: nothing it would write lands in the seed', async () => {
    const held = heldSleep();
    const f = await fixture({ sleep: held.sleep });
    await f.call('POST', '/_admin/faults', { body: { path: '/courses', method: 'POST', delayMs: 1500 } });
    const late = f.call('POST', '/courses', { body: { title: 'Late' } });
    await held.waiting;
    expect(await f.call('POST', '/_reset')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await late).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: 'The fixture was reset while this request waited to be served; it was not served.',
          details: { reset: true, faultId: 'flt_1' },
        },
      },
    });
    expect(ids(await f.call('GET', '/courses'))).toEqual(['c1 Course One']);
    // The ids restarted and nothing took the first one.
    expect((await f.call('POST', '/courses', { body: { title: 'Next' } })).body.id).toBe('crs_0001');
    const journal = (await f.call<JournalEntryValue[]>('GET', '/_admin/requests?method=POST')).body;
    expect(journal.map((e) => [e.requestBody, e.status, e.faultId])).toEqual([
      ['{"title":"Late"}', 409, 'flt_1'],
      ['{"title":"Next"}', 201, null],
    ]);
  });

  it('--delay alone is ended the same way (no rule to name)', async () => {
    const held = heldSleep();
    const f = await fixture({ delayMs: 250, sleep: held.sleep });
    const late = f.call('POST', '/courses', { body: { title: 'Late' } });
    await held.waiting;
    expect((await f.call('POST', '/_reset')).status).toBe(200);
    expect(await late).toMatchObject({ status: 409, body: { error: { code: 'conflict', details: { reset: true } } } });
    expect((await late).body.error.details).toEqual({ reset: true });
    expect(ids(await f.call('GET', '/courses'))).toEqual(['c1 Course One']);
  });

  it('a reset waits for a request already being served (its write is then undone); one arriving during the reset waits for the seed', async () => {
    const held = heldSleep();
    const f = await fixture({ sleep: held.sleep });
    // W waits on a delay; S is being served (its body is still arriving).
    await f.call('POST', '/_admin/faults', { body: { path: '/courses/c1', method: 'GET', delayMs: 1000 } });
    const waiting = f.call('GET', '/courses/c1');
    await held.waiting;
    const body = heldBody('{"title":"Served"}');
    const served = f.app.request('http://fixture/api/v1/courses', {
      method: 'POST',
      headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    await body.read;
    let resetDone = false;
    const reset = f.call('POST', '/_reset').then((res) => {
      resetDone = true;
      return res;
    });
    // The reset has begun once it ended W's wait; N arrives after that.
    await held.aborted;
    let nextDone = false;
    const next = f.call('POST', '/courses', { body: { title: 'Next' } }).then((res) => {
      nextDone = true;
      return res;
    });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect([resetDone, nextDone]).toEqual([false, false]);
    expect((await waiting).status).toBe(409);
    body.release();
    const s = await served;
    expect([s.status, ((await s.json()) as { id: string }).id]).toEqual([201, 'crs_0001']);
    expect((await reset).status).toBe(200);
    expect(await next).toMatchObject({ status: 201, body: { id: 'crs_0001', title: 'Next' } });
    expect(ids(await f.call('GET', '/courses'))).toEqual(['c1 Course One', 'crs_0001 Next']);
  });
});

describe('a reset never wipes a real store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coursebook-reset-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  /** A store file that already holds BASE_DATASET, as a real store does before serve starts. */
  async function realStore(): Promise<string> {
    const file = join(dir, `real-${++n}.db`);
    const store = await openStore(file);
    await importDataset(store, fixedClock(SEED_NOW), BASE_DATASET, { replace: false });
    await store.close();
    return file;
  }
  const FIX = 'For a fixture that resets, start serve with --memory, or with --seed FILE on a new --db file.';
  const counts = async (f: Awaited<ReturnType<typeof fixture>>) => ({
    users: (await f.call('GET', '/users')).body.length,
    courses: ids(await f.call('GET', '/courses')),
    instructor: (await f.call('GET', '/me', { as: 'inst' })).status,
  });
  const before = { users: 6, courses: ['c1 Course One'], instructor: 200 };

  it('a file store without --seed: 409 conflict naming the fix; no record, token, fault rule or clock setting is touched', async () => {
    const db = await realStore();
    const f = await fixture({ db, seed: undefined });
    const reason = `${db} has no seed to restore, and a reset would delete every record and token it holds`;
    expect(f.logs).toEqual([{ event: 'reset-refused', message: `warning: --allow-admin: POST /api/v1/_reset will be refused: ${reason}. ${FIX}`, db }]);
    await f.call('POST', '/_admin/faults', { body: { path: '/nothing', status: 503 } });
    await f.call('POST', '/_admin/clock/advance', { body: { seconds: 60 } });
    expect(await f.call('POST', '/_reset')).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict', message: `The fixture cannot be reset: ${reason}. Nothing was deleted. ${FIX}` } },
    });
    expect(await counts(f)).toEqual(before);
    expect((await f.call('GET', '/_admin/faults')).body).toHaveLength(1);
    expect((await f.call('GET', '/_admin/clock')).body.now).toBe('2026-11-22T08:31:00.000Z');
  });

  it('--allow-reset alone is refused the same way, and says so at start', async () => {
    const db = await realStore();
    const f = await fixture({ db, seed: undefined, allowAdmin: false, allowReset: true });
    expect(f.logs.map((l) => String(l.message).slice(0, 62))).toEqual(['warning: --allow-reset: POST /api/v1/_reset will be refused: /']);
    expect(await f.call('POST', '/_reset')).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(await counts(f)).toEqual(before);
  });

  it('a file store that held data when serve started: the seed was not loaded (or --reseed replaced only its records), so the reset is refused', async () => {
    for (const reseed of [false, true]) {
      const db = await realStore();
      const f = await fixture({ db, reseed }, { coursebook: 1, courses: [{ id: 'c1', title: 'Course One' }] });
      await f.call('POST', '/courses', { body: { id: 'c2', title: 'Real work' } });
      const loaded = reseed ? '--reseed replaced only the records of seed.json' : 'seed.json was not loaded into it';
      const res = await f.call('POST', '/_reset');
      expect([res.status, res.body.error.message]).toEqual([
        409,
        `The fixture cannot be reset: ${db} already held data when serve started (${loaded}), and a reset would delete records that are not the seed's. Nothing was deleted. For a fixture that resets, start serve with --memory, or with --seed seed.json on a new --db file.`,
      ]);
      expect(await counts(f)).toEqual({ ...before, courses: ['c1 Course One', 'c2 Real work'] });
      expect(f.logs.map((l) => l.event).filter((e) => e !== 'request')).toEqual([reseed ? 'reseed' : 'seed-skipped', 'reset-refused']);
    }
  });

  it('a file store that was empty and took the seed at start resets to it, with no warning; restarted with the same seed (after a crash) it still does; not with another seed, nor when seeded without the reset', async () => {
    const db = join(dir, 'new.db');
    const first = await fixture({ db });
    expect(first.logs).toEqual([]);
    await first.call('POST', '/courses', { body: { title: 'Test data' } });
    expect((await first.call('POST', '/_reset')).status).toBe(200);
    expect(await counts(first)).toEqual(before);
    await first.call('POST', '/courses', { body: { id: 'c2', title: 'Test data' } });
    // The crash: the process is gone without a reset; a new serve starts on the same file.
    const again = await fixture({ db });
    expect(again.logs).toEqual([
      {
        event: 'fixture-restarted',
        message: `${db} was made from seed.json by an earlier start (it holds its mark), so seed.json was not loaded again; a reset restores it`,
        db,
        seed: 'seed.json',
      },
    ]);
    expect(await counts(again)).toEqual({ ...before, courses: ['c1 Course One', 'c2 Test data'] });
    expect((await again.call('POST', '/_reset')).status).toBe(200);
    expect(await counts(again)).toEqual(before);
    // The reset marks it again; another seed is not this fixture's.
    expect((await fixture({ db })).logs.map((l) => l.event)).toEqual(['fixture-restarted']);
    expect((await fixture({ db }, { ...BASE_DATASET, courses: [{ id: 'c1', title: 'Other' }] })).logs.map((l) => l.event)).toEqual([
      'seed-skipped',
      'reset-refused',
    ]);
    const unmarked = join(dir, 'seeded-without-reset.db');
    await fixture({ db: unmarked, allowAdmin: false });
    expect((await fixture({ db: unmarked })).logs.map((l) => l.event)).toEqual(['seed-skipped', 'reset-refused']);
  });

  it('--memory without a seed resets to its generated admin alone, whose token keeps working', async () => {
    const f = await fixture({ seed: undefined });
    const admin = f.adminToken!;
    await f.call('POST', '/courses', { body: { title: 'Test data' }, as: admin });
    expect((await f.call('POST', '/_reset', { as: admin })).status).toBe(200);
    expect((await f.call('GET', '/courses', { as: admin })).body).toEqual([]);
    expect((await f.call('GET', '/users', { as: admin })).body.map((u: { id: string }) => u.id)).toEqual(['usr_admin']);
  });
});
