/**
 * `serve` as a CI fixture (#16) through the built binary, the way a pipeline runs it: the
 * listening line (with a generated admin token for an empty --memory fixture), rate-limit
 * defaults, repeatable --cors, request logs on stderr, a dropped connection over a real
 * socket. Flag errors that stop serve before it listens run in-process.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';
import { type Served, startServe } from '../helpers/serve.js';

const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
const running: Served[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
  home.cleanup();
});
async function serve(args: string[]): Promise<Served> {
  const s = await startServe(args, home.env);
  running.push(s);
  return s;
}
const get = (s: Served, path: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/api/v1${path}`, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
/**
 * The server's stderr once it holds `count` lines. The log line of a request is written
 * before its answer, but stderr and the socket are separate pipes: the answer may be read
 * here first.
 */
const stderrLines = async (s: Served, count: number): Promise<string> => {
  for (let i = 0; i < 200 && s.stderr().split('\n').length <= count; i++) await new Promise((r) => setTimeout(r, 10));
  return s.stderr();
};

describe('serve --memory without a seed', () => {
  it('creates an admin and prints its token in the listening line; a reset keeps it working', async () => {
    const s = await serve(['--memory', '--allow-admin', '--log', 'off']);
    expect(Object.keys(s.line)).toEqual(['event', 'url', 'port', 'adminToken']);
    const token = String(s.line.adminToken);
    expect(token).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
    const me = await get(s, '/me', token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: unknown }).user).toMatchObject({ id: 'usr_admin', admin: true });
    expect((await get(s, '/me')).status).toBe(401);
    const reset = await fetch(`${s.url}/api/v1/_reset`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(reset.status).toBe(200);
    expect((await get(s, '/me', token)).status).toBe(200);
  });

  it('--deterministic makes the token repeat; with a seed there is none (the seed has its own users)', async () => {
    const a = await serve(['--memory', '--deterministic', '--log', 'off']);
    expect(a.line.adminToken).toBe(`cbk_fixture${'1'.padStart(36, '0')}`);
    const seeded = await serve(['--memory', '--seed', DEMO, '--log', 'off']);
    expect(seeded.line).toEqual({ event: 'listening', url: seeded.url, port: seeded.port });
  });
});

describe('serve --db FILE --allow-admin without a seed (a real store)', () => {
  it('warns at start, refuses POST /_reset with 409 naming the fix, and deletes nothing: every token still works', async () => {
    const db = join(home.dir, 'real.db');
    expect((await runCli(['--db', db, 'import', DEMO], { env: home.env })).code).toBe(0);
    const s = await serve(['--db', db, '--allow-admin', '--log', 'pretty']);
    const reason = `${db} has no seed to restore, and a reset would delete every record and token it holds`;
    const fix = 'For a fixture that resets, start serve with --memory, or with --seed FILE on a new --db file.';
    expect(await stderrLines(s, 1)).toBe(`coursebook serve: warning: --allow-admin: POST /api/v1/_reset will be refused: ${reason}. ${fix}\n`);
    const reset = await fetch(`${s.url}/api/v1/_reset`, { method: 'POST', headers: { authorization: 'Bearer demo-admin-token' } });
    expect([reset.status, await reset.json()]).toEqual([
      409,
      { error: { code: 'conflict', message: `The fixture cannot be reset: ${reason}. Nothing was deleted. ${fix}` } },
    ]);
    const users = (await (await get(s, '/users', 'demo-admin-token')).json()) as unknown[];
    expect(users.length).toBeGreaterThan(1);
    expect((await get(s, '/courses/crs_data101', 'demo-instructor-token')).status).toBe(200);
  });
});

describe('serve --memory --seed: the seed cache', () => {
  const notes = async (s: Served) => {
    // Notes go to stderr before the listening line goes to stdout; the pipes are separate.
    for (let i = 0; i < 100 && !s.stderr().includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    return s.stderr();
  };
  const assignments = async (s: Served) => (await get(s, '/courses/crs_data101/assignments', 'demo-instructor-token')).text();

  it('a second start with the same seed opens the kept store and answers alike; --no-seed-cache imports again', async () => {
    const args = ['--memory', '--seed', DEMO, '--now', '2026-11-22T08:30:00Z', '--log', 'off'];
    const first = await serve(args);
    const second = await serve(args);
    const dir = join(home.env.XDG_CACHE_HOME!, 'coursebook', 'seeds');
    expect(await notes(second)).toBe(`coursebook serve: loaded ${DEMO} from the seed cache in ${dir} (--no-seed-cache imports it again)\n`);
    expect(first.stderr()).toBe('');
    expect(await assignments(second)).toBe(await assignments(first));
    const fresh = await serve([...args, '--no-seed-cache']);
    await new Promise((r) => setTimeout(r, 50));
    expect(fresh.stderr()).toBe('');
    expect(await assignments(fresh)).toBe(await assignments(first));
  });
});

describe('serve rate-limit defaults', () => {
  it('--memory: no limit unless --rate-limit is given (150 quick requests, no 429, no RateLimit headers)', async () => {
    const s = await serve(['--memory', '--seed', DEMO, '--log', 'off']);
    const answers = await Promise.all(Array.from({ length: 150 }, () => get(s, '/me', 'demo-admin-token')));
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200]));
    expect(answers.every((r) => r.headers.get('ratelimit-limit') === null)).toBe(true);
  });

  it('a file store keeps 600/min: RateLimit-Limit, -Remaining and -Reset on every answer under it', async () => {
    const s = await serve(['--db', join(home.dir, 'limited.db'), '--seed', DEMO, '--log', 'off']);
    const res = await get(s, '/me', 'demo-admin-token');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThanOrEqual(99);
    expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{12}$/);
  });
});

describe('serve --cors', () => {
  const preflight = (s: Served, origin: string) =>
    fetch(`${s.url}/api/v1/courses`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });

  it('may be repeated: every origin given is allowed (the last one used to win alone)', async () => {
    const s = await serve(['--memory', '--log', 'off', '--cors', 'https://a.example', '--cors', 'http://localhost:3000']);
    expect((await preflight(s, 'https://a.example')).headers.get('access-control-allow-origin')).toBe('https://a.example');
    expect((await preflight(s, 'http://localhost:3000')).headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect((await preflight(s, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const exposed = (await get(s, '/health', undefined, { origin: 'https://a.example' })).headers.get('access-control-expose-headers');
    expect(exposed).toContain('X-Request-Id');
    expect(exposed).toContain('RateLimit-Remaining');
  });

  it('* allows any origin', async () => {
    const s = await serve(['--memory', '--log', 'off', '--cors', '*']);
    expect((await preflight(s, 'https://anyone.example')).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('an origin that is not one, or * with others, is a usage error (exit 2) before listening', async () => {
    const run = (args: string[]) => runCli(['--memory', 'serve', '--port', '0', '--log', 'off', ...args], { env: home.env });
    expect(await run(['--cors', 'https://a.example/app'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --cors takes origins such as https://app.example or http://localhost:3000, or * (got "https://a.example/app")\n',
    });
    expect(await run(['--cors', '*', '--cors', 'https://a.example'])).toMatchObject({
      code: 2,
      stderr: 'error: --cors * allows every origin; give it alone, not with other origins\n',
    });
  });
});

describe('serve fixture flags', () => {
  it('--journal-size and --delay must be whole numbers; --rate-burst alone on --memory is refused (exit 2)', async () => {
    const run = (args: string[]) => runCli(['--memory', 'serve', '--port', '0', '--log', 'off', ...args], { env: home.env });
    expect(await run(['--journal-size', 'lots'])).toMatchObject({
      code: 2,
      stderr: 'error: --journal-size must be a whole number from 0 to 1000000 (got "lots")\n',
    });
    expect(await run(['--delay', '-5'])).toMatchObject({ code: 2, stderr: 'error: --delay must be a whole number from 0 to 600000 (got "-5")\n' });
    expect(await run(['--rate-burst', '5'])).toMatchObject({
      code: 2,
      stderr: 'error: --rate-burst has no effect: with --memory the rate limit is off unless --rate-limit is given\n',
    });
  });

  it('request logs on stderr carry the time, query string, caller and request id', async () => {
    const s = await serve(['--memory', '--seed', DEMO, '--log', 'json']);
    await get(s, '/courses?status=draft', 'demo-admin-token', { 'x-request-id': 'ci-7' });
    await get(s, '/health');
    const lines = (await stderrLines(s, 2))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      event: 'request',
      method: 'GET',
      path: '/api/v1/courses',
      query: 'status=draft',
      status: 200,
      ms: expect.any(Number),
      caller: 'usr_admin',
      requestId: 'ci-7',
    });
    expect(lines[1]).toMatchObject({ path: '/api/v1/health', caller: null, requestId: expect.stringMatching(/^req_/) });
    const pretty = await serve(['--memory', '--seed', DEMO, '--log', 'pretty', '--deterministic']);
    await get(pretty, '/courses?x=1', 'demo-admin-token');
    expect(await stderrLines(pretty, 1)).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/v1\/courses\?x=1 200 [\d.]+ms usr_admin req_0001\n$/);
  });

  it('a fault rule with dropConnection closes the socket without an answer; the server carries on', async () => {
    const s = await serve(['--memory', '--seed', DEMO, '--allow-admin', '--log', 'off']);
    const admin = { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' };
    const added = await fetch(`${s.url}/api/v1/_admin/faults`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ method: 'GET', path: '/courses', dropConnection: true, times: 1 }),
    });
    expect(added.status).toBe(201);
    await expect(get(s, '/courses', 'demo-admin-token')).rejects.toThrow('fetch failed');
    expect((await get(s, '/courses', 'demo-admin-token')).status).toBe(200);
    const journal = (await (await fetch(`${s.url}/api/v1/_admin/requests?path=/courses`, { headers: admin })).json()) as {
      status: number | null;
      faultId: string | null;
    }[];
    expect(journal.map((e: { status: number | null; faultId: string | null }) => [e.status, e.faultId])).toEqual([
      [null, 'flt_1'],
      [200, null],
    ]);
  });
});

describe('serve: X-Request-Id on every kind of answer', () => {
  it('a JSON answer, a 401, a 404 for no route, the OpenAPI document, the grades view, the CSV export and a fault rule all carry one; a caller-given id comes back', async () => {
    const s = await serve(['--memory', '--seed', DEMO, '--allow-admin', '--log', 'off', '--rate-limit', 'off']);
    const admin = 'demo-admin-token';
    const fault = await fetch(`${s.url}/api/v1/_admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/api/v1/health', status: 503 }),
    });
    expect(fault.status).toBe(201);
    const answers = [
      await get(s, '/courses', admin),
      await get(s, '/courses'),
      await get(s, '/no-such-route', admin),
      await get(s, '/openapi.json'),
      await get(s, '/courses/crs_data101/gradebook/grades', admin),
      await get(s, '/courses/crs_data101/gradebook/export', admin),
      await get(s, '/health'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 200, 200, 200, 503]);
    for (const r of answers) {
      expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{12}$/);
      await r.arrayBuffer();
    }
    const given = await get(s, '/courses', admin, { 'x-request-id': 'ci-42' });
    expect(given.headers.get('x-request-id')).toBe('ci-42');
  });
});
