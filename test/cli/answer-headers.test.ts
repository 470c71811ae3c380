/**
 * The headers every answer carries, over a socket: one X-Request-Id, and the RateLimit-*
 * headers once the limiter has counted the request. A JSON answer define.ts makes carries
 * them as a plain record that @hono/node-server writes as it is; every other answer (an
 * error's, a missing route's, a document a handler made itself) has them added after it
 * is made (app.ts). Both ways must give the same headers, each once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { ROOT } from '../helpers/cli.js';
import { inProcessServeOptions } from '../helpers/serve.js';

const DEMO = join(ROOT, 'data/demo.json');
const INSTRUCTOR = { authorization: 'Bearer demo-instructor-token' };
const FINAL = '/api/v1/courses/crs_data101/gradebook/students/usr_s07/final';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inProcessServeOptions({ seed: { name: DEMO, text: readFileSync(DEMO, 'utf8') }, rateLimit: '6000/min' }));
});
afterAll(async () => {
  await server?.close();
});

/** The raw header lines of an answer, as names in lower case with their values, and the status. */
async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${path}`, init);
  await res.arrayBuffer();
  const names: string[] = [];
  res.headers.forEach((_v, name) => names.push(name));
  return { status: res.status, headers: res.headers, names };
}

const once = (names: string[], name: string) => names.filter((n) => n === name).length;

describe('every answer over a socket carries its request id and, once counted, the rate headers', () => {
  const counted = [
    ['a GET made by a handler', '/api/v1/courses/crs_data101/assignments', {}, 200],
    ['the same GET again, from the read cache', '/api/v1/courses/crs_data101/assignments', {}, 200],
    ['a page of a list, with its Link', '/api/v1/courses/crs_data101/assignments?limit=2', {}, 200],
    ['a refusal by the access check', '/api/v1/courses/crs_nope/assignments', {}, 404],
    ['a document a handler made with c.body', '/api/v1/dump', { headers: { authorization: 'Bearer demo-admin-token' } }, 200],
    ['an invalid body', FINAL, { method: 'PUT', body: '{"letter":"A"}', headers: { 'content-type': 'application/json' } }, 400],
  ] as const;

  for (const [what, path, init, status] of counted) {
    it(what, async () => {
      const res = await call(path, { ...init, headers: { ...INSTRUCTOR, ...('headers' in init ? init.headers : {}) } });
      expect(res.status).toBe(status);
      expect(once(res.names, 'x-request-id')).toBe(1);
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{12}$/);
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(once(res.names, name)).toBe(1);
      expect(res.headers.get('ratelimit-limit')).toBe('100');
    });
  }

  it('a page keeps its Link beside them, and a kept answer is the same bytes with its own id', async () => {
    const first = await fetch(`${server.url}/api/v1/courses/crs_data101/assignments?limit=2`, { headers: INSTRUCTOR });
    const second = await fetch(`${server.url}/api/v1/courses/crs_data101/assignments?limit=2`, { headers: INSTRUCTOR });
    expect(first.headers.get('link')).toMatch(/rel="next"/);
    expect(second.headers.get('link')).toBe(first.headers.get('link'));
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('a HEAD is answered as its GET, with its length, request id and rate headers and no body', async () => {
    const get = await fetch(`${server.url}/api/v1/courses/crs_data101/assignments`, { headers: INSTRUCTOR });
    const head = await fetch(`${server.url}/api/v1/courses/crs_data101/assignments`, { method: 'HEAD', headers: INSTRUCTOR });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(get.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
    expect(get.headers.get('content-length')).toBe(head.headers.get('content-length'));
    expect(head.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{12}$/);
    expect(head.headers.get('ratelimit-limit')).toBe('100');
  });

  it('a new answer states its length in bytes, not characters, when its text is not ASCII', async () => {
    const title = 'Données – 数据 🎓';
    const res = await fetch(`${server.url}/api/v1/courses/crs_data101/modules`, {
      method: 'POST',
      headers: { ...INSTRUCTOR, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    expect(res.status).toBe(201);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(JSON.parse(new TextDecoder().decode(bytes)).title).toBe(title);
  });

  it('a caller-given request id is echoed once, on a kept answer too', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await call('/api/v1/courses/crs_data101/assignments', { headers: { ...INSTRUCTOR, 'x-request-id': 'ci-run-9' } });
      expect(res.headers.get('x-request-id')).toBe('ci-run-9');
      expect(once(res.names, 'x-request-id')).toBe(1);
    }
  });

  it('an unauthenticated request, a missing route and a public one have the id and no rate headers', async () => {
    const refused = await call('/api/v1/courses/crs_data101/assignments', { headers: { authorization: 'Bearer nope' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="coursebook"');
    const missing = await call('/api/v1/no-such-route', { headers: INSTRUCTOR });
    expect(missing.status).toBe(404);
    const health = await call('/api/v1/health');
    expect(health.status).toBe(200);
    const doc = await call('/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('etag')).toMatch(/^"/);
    for (const res of [refused, missing, health, doc]) {
      expect(once(res.names, 'x-request-id')).toBe(1);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
