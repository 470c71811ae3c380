/**
 * The CLI against a remote service: 429 with Retry-After, retries of idempotent requests
 * after connection failures (with backoff, at most 5 tries, a note on stderr each time),
 * following Link rel="next", --limit, api --paginate, whoami's back end, the local-only
 * flags refused, and templates bulk-update against the service's own rate limit and
 * against a service of another make (no bulk route).
 * Waits go through the injected Io's sleep: recorded, never timed.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runInProcess } from '../../src/cli/program.js';
import { ROOT, runCli, tempHome, testIo } from '../helpers/cli.js';
import { type Served, startServe } from '../helpers/serve.js';

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Close the connection without answering. */
  drop?: boolean;
}

interface Scripted {
  url: string;
  /** Each request as `METHOD /path?query`. */
  seen: string[];
  close(): Promise<void>;
}

/** A stand-in service whose answers the test scripts (the failures a real network has). */
async function scriptedService(answer: (req: IncomingMessage, n: number) => Answer): Promise<Scripted> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const a = answer(req, seen.length);
    if (a.drop) {
      req.socket.destroy();
      return;
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers }).end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

const RATE_LIMITED: Answer = {
  status: 429,
  headers: { 'retry-after': '2' },
  body: { error: { code: 'rate-limited', message: 'Too many requests; retry in 2 s.' } },
};
const COURSES = [{ id: 'c1', title: 'One' }];
const remote = (svc: { url: string }) => ['--base-url', svc.url, '--token', 'secret-token'];

describe('remote client: the base URL', () => {
  it('as its root or as pasted with /api/v1 (and a slash) names the same service: the prefix is asked for once', async () => {
    const svc = await scriptedService(() => ({ body: COURSES }));
    try {
      for (const base of [svc.url, `${svc.url}/`, `${svc.url}/api/v1`, `${svc.url}/api/v1/`]) {
        expect(await runCli(['--base-url', base, '--token', 'secret-token', 'courses', 'list'])).toMatchObject({ code: 0, stdout: 'c1\tOne\t\t\n' });
      }
      expect(svc.seen).toEqual(Array(4).fill('GET /api/v1/courses'));
    } finally {
      await svc.close();
    }
  });
});

describe('remote client: 429 and Retry-After', () => {
  it('waits the Retry-After seconds and tries again, with a note on stderr', async () => {
    const svc = await scriptedService((_req, n) => (n === 1 ? RATE_LIMITED : { body: COURSES }));
    const sleeps: number[] = [];
    try {
      const res = await runCli([...remote(svc), 'courses', 'list'], { sleeps });
      expect(res).toEqual({ code: 0, stdout: 'c1\tOne\t\t\n', stderr: `rate-limited by ${svc.url}; retrying in 2 s (try 2 of 5)\n` });
      expect(sleeps).toEqual([2000]);
      expect(svc.seen).toEqual(['GET /api/v1/courses', 'GET /api/v1/courses']);
    } finally {
      await svc.close();
    }
  });

  it('a POST is retried after a 429 too: the service refused it before doing anything', async () => {
    const svc = await scriptedService((_req, n) => (n === 1 ? RATE_LIMITED : { status: 201, body: { id: 'c2', title: 'Two' } }));
    try {
      expect(await runCli([...remote(svc), 'courses', 'create', '--title', 'Two'])).toMatchObject({ code: 0, stdout: 'c2\n' });
      expect(svc.seen).toEqual(['POST /api/v1/courses', 'POST /api/v1/courses']);
    } finally {
      await svc.close();
    }
  });

  it('Retry-After as an HTTP date waits until then (the Io clock says now)', async () => {
    const at = new Date(Date.parse('2026-11-22T08:30:00.000Z') + 3000).toUTCString();
    const svc = await scriptedService((_req, n) => (n === 1 ? { ...RATE_LIMITED, headers: { 'retry-after': at } } : { body: COURSES }));
    const sleeps: number[] = [];
    try {
      expect((await runCli([...remote(svc), 'courses', 'list'], { sleeps })).code).toBe(0);
      expect(sleeps).toEqual([3000]);
    } finally {
      await svc.close();
    }
  });

  it('after 5 tries the rate-limited error stands (exit 7); a Retry-After over a minute is not waited for', async () => {
    const svc = await scriptedService(() => RATE_LIMITED);
    const sleeps: number[] = [];
    try {
      const res = await runCli([...remote(svc), 'courses', 'list'], { sleeps });
      expect(res.code).toBe(7);
      expect(res.stderr.split('\n').filter((l) => l.startsWith('rate-limited by'))).toHaveLength(4);
      expect(res.stderr.endsWith('error (rate-limited): Too many requests; retry in 2 s.\n')).toBe(true);
      expect(sleeps).toEqual([2000, 2000, 2000, 2000]);
      expect(svc.seen).toHaveLength(5);
    } finally {
      await svc.close();
    }
    const slow = await scriptedService(() => ({ ...RATE_LIMITED, headers: { 'retry-after': '3600' } }));
    try {
      expect(await runCli([...remote(slow), 'courses', 'list'])).toMatchObject({ code: 7, stderr: 'error (rate-limited): Too many requests; retry in 2 s.\n' });
      expect(slow.seen).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe('remote client: connection failures', () => {
  it('an idempotent request is retried with backoff 0.5, 1, 2, 4 s, then unreachable (exit 9)', async () => {
    const svc = await scriptedService(() => ({}));
    await svc.close(); // nothing listens there now: every connection is refused
    const sleeps: number[] = [];
    const res = await runCli([...remote(svc), 'courses', 'list'], { sleeps });
    expect(res.code).toBe(9);
    expect(res.stderr).toBe(
      [
        `cannot reach ${svc.url}: ECONNREFUSED; retrying in 0.5 s (try 2 of 5)`,
        `cannot reach ${svc.url}: ECONNREFUSED; retrying in 1 s (try 3 of 5)`,
        `cannot reach ${svc.url}: ECONNREFUSED; retrying in 2 s (try 4 of 5)`,
        `cannot reach ${svc.url}: ECONNREFUSED; retrying in 4 s (try 5 of 5)`,
        `error: cannot reach ${svc.url}: ECONNREFUSED after 5 tries`,
        '',
      ].join('\n'),
    );
    expect(sleeps).toEqual([500, 1000, 2000, 4000]);
  });

  it('a POST is never retried after a connection failure (it may have been done)', async () => {
    const svc = await scriptedService(() => ({ drop: true }));
    const sleeps: number[] = [];
    try {
      const res = await runCli([...remote(svc), 'courses', 'create', '--title', 'Once'], { sleeps });
      expect(res.code).toBe(9);
      expect(res.stderr).toBe(`error: cannot reach ${svc.url}: the connection was closed before a complete answer (UND_ERR_SOCKET)\n`);
      expect(svc.seen).toEqual(['POST /api/v1/courses']);
      expect(sleeps).toEqual([]);
    } finally {
      await svc.close();
    }
  });

  it('a dropped connection on a GET is retried and the second answer is used', async () => {
    const svc = await scriptedService((_req, n) => (n === 1 ? { drop: true } : { body: COURSES }));
    try {
      const res = await runCli([...remote(svc), '--json', 'courses', 'list']);
      expect(res).toMatchObject({ code: 0, stdout: `${JSON.stringify(COURSES)}\n` });
      expect(res.stderr).toBe(`cannot reach ${svc.url}: the connection was closed before a complete answer (UND_ERR_SOCKET); retrying in 0.5 s (try 2 of 5)\n`);
    } finally {
      await svc.close();
    }
  });
});

describe('remote lists: Link rel="next" and --limit', () => {
  /** Five courses in pages of two, linked the way the API links them. */
  const paged = () =>
    scriptedService((req) => {
      const url = new URL(req.url!, 'http://x');
      const all = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, title: id.toUpperCase() }));
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const size = Math.min(2, Number(url.searchParams.get('limit') ?? 2));
      const next = start + size < all.length ? `</api/v1/courses?cursor=${start + size}>; rel="next"` : undefined;
      return { body: all.slice(start, start + size), ...(next ? { headers: { link: next } } : {}) };
    });

  it('a list command follows every next link; --json prints the whole list', async () => {
    const svc = await paged();
    try {
      const res = await runCli([...remote(svc), '--json', 'courses', 'list']);
      expect(JSON.parse(res.stdout).map((c: { id: string }) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(svc.seen).toEqual(['GET /api/v1/courses', 'GET /api/v1/courses?cursor=2', 'GET /api/v1/courses?cursor=4']);
    } finally {
      await svc.close();
    }
  });

  it('--limit 3 asks for 3 and stops once it has them', async () => {
    const svc = await paged();
    try {
      expect(await runCli([...remote(svc), 'courses', 'list', '--limit', '3'])).toMatchObject({ code: 0, stdout: 'a\tA\t\t\nb\tB\t\t\nc\tC\t\t\n' });
      expect(svc.seen).toEqual(['GET /api/v1/courses?limit=3', 'GET /api/v1/courses?cursor=2']);
    } finally {
      await svc.close();
    }
  });

  it('api GET answers one page; api --paginate every page as one array; --paginate with a POST is a usage error', async () => {
    const svc = await paged();
    try {
      expect(JSON.parse((await runCli([...remote(svc), '--json', 'api', 'GET', '/courses'])).stdout)).toHaveLength(2);
      expect(JSON.parse((await runCli([...remote(svc), '--json', 'api', 'GET', '/courses', '--paginate'])).stdout)).toHaveLength(5);
      expect(await runCli([...remote(svc), 'api', 'POST', '/courses', '--paginate', '--body', '{}'])).toMatchObject({
        code: 2,
        stderr: 'error: --paginate follows the pages of a GET without a body\n',
      });
    } finally {
      await svc.close();
    }
  });
});

describe('remote back end: flags and whoami', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('--as or --memory with a remote back end is a usage error (exit 2), before any request', async () => {
    const svc = await scriptedService(() => ({ body: {} }));
    try {
      expect(await runCli(['--base-url', svc.url, '--as', 'usr_s01', 'courses', 'list'], { env: home.env })).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: --as acts as a user of a local store; against a remote service the token says who you are (drop --as, or use --db)\n',
      });
      // The back end from the environment counts too.
      expect((await runCli(['--as', 'usr_s01', 'courses', 'list'], { env: { ...home.env, COURSEBOOK_BASE_URL: svc.url } })).code).toBe(2);
      expect(await runCli(['--memory', '--base-url', svc.url, 'courses', 'list'], { env: home.env })).toMatchObject({
        code: 2,
        stderr: 'error: --memory selects a local store and --base-url a remote service: give one\n',
      });
      expect(await runCli(['--db', home.db, '--base-url', svc.url, 'courses', 'list'], { env: home.env })).toMatchObject({
        code: 2,
        stderr: 'error: --db selects a local store and --base-url a remote service: give one\n',
      });
      expect(await runCli(['--db', home.db, '--memory', 'courses', 'list'], { env: home.env })).toMatchObject({
        code: 2,
        stderr: 'error: --memory and --db both name a local store: give one\n',
      });
      expect(svc.seen).toEqual([]);
    } finally {
      await svc.close();
    }
  });

  it('an acting user from COURSEBOOK_AS or a profile is refused with a remote back end too (exit 2), naming its source, before any request', async () => {
    const svc = await scriptedService(() => ({ body: { user: { id: 'u1', name: 'Una', admin: false }, scopes: [], credential: 'token' } }));
    const other = tempHome();
    try {
      const env = { ...other.env, COURSEBOOK_AS: 'usr_s1' };
      const fromEnv = `error: COURSEBOOK_AS ("usr_s1") acts as a user of a local store; against a remote service the token says who you are (unset COURSEBOOK_AS, or use --db)\n`;
      expect(await runCli(['whoami', '--base-url', svc.url], { env })).toEqual({ code: 2, stdout: '', stderr: fromEnv });
      expect(await runCli(['whoami'], { env: { ...env, COURSEBOOK_BASE_URL: svc.url } })).toEqual({ code: 2, stdout: '', stderr: fromEnv });
      // Set in the shell for local work, it is refused with a remote profile as well: the environment beats the profile.
      await runCli(['config', 'set', 'baseUrl', svc.url, '--name', 'work'], { env: other.env });
      expect(await runCli(['--profile', 'work', 'whoami'], { env })).toEqual({ code: 2, stdout: '', stderr: fromEnv });
      // The flag is named before the environment, as it would have applied.
      expect((await runCli(['--profile', 'work', '--as', 'usr_s2', 'whoami'], { env })).stderr).toMatch(/^error: --as acts as a user/);
      // An empty COURSEBOOK_AS is no acting user.
      expect((await runCli(['--profile', 'work', 'whoami'], { env: { ...other.env, COURSEBOOK_AS: '' } })).code).toBe(0);
      svc.seen.length = 0;

      await runCli(['config', 'set', 'as', 'usr_x', '--name', 'work'], { env: other.env });
      const fromProfile =
        'error: the profile "work" sets as ("usr_x"), which acts as a user of a local store; against a remote service the token says who you are (remove it with coursebook config unset as --name work, or use --db)\n';
      expect(await runCli(['--profile', 'work', 'whoami'], { env: other.env })).toEqual({ code: 2, stdout: '', stderr: fromProfile });
      // The profile in effect by default, with the service from the environment.
      await runCli(['config', 'use', 'work'], { env: other.env });
      expect(await runCli(['whoami'], { env: { ...other.env, COURSEBOOK_BASE_URL: svc.url } })).toEqual({ code: 2, stdout: '', stderr: fromProfile });
      // As the other end of a push, pull or diff.
      expect(await runCli(['courses', 'diff', 'crs_x', '--to', 'work', '--db', other.db], { env: other.env })).toEqual({
        code: 2,
        stdout: '',
        stderr:
          'error: the profile "work" (--to) sets as ("usr_x"), which acts as a user of a local store; against a remote service the token says who you are (remove it with coursebook config unset as --name work)\n',
      });
      expect(svc.seen).toEqual([]);

      // With a local store (--db beside the profile) the profile's acting user applies as always.
      await runCli(['--db', other.db, 'import', '-'], { env: other.env, input: JSON.stringify({ coursebook: 1, users: [{ id: 'usr_x', name: 'X' }] }) });
      const local = await runCli(['--profile', 'work', '--db', other.db, '--json', 'whoami'], { env: other.env });
      expect(local.code).toBe(0);
      expect(JSON.parse(local.stdout).user.id).toBe('usr_x');
      expect(svc.seen).toEqual([]);
    } finally {
      await svc.close();
      other.cleanup();
    }
  });

  it('whoami names the service by its root (as given with /api/v1, a slash, credentials, an upper-case scheme) and the profile', async () => {
    const svc = await scriptedService(() => ({ body: { user: { id: 'u1', name: 'Una', admin: false }, scopes: ['content:read'], credential: 'token' } }));
    try {
      const line = (profile: string) => `u1\tUna\tno\ttoken\tcontent:read\tremote ${svc.url}\t${profile}\n`;
      const withCredentials = `${svc.url.replace('http://', 'HTTP://bob:pw@')}/api/v1/`;
      await runCli(['config', 'set', 'baseUrl', withCredentials, '--name', 'work'], { env: home.env });
      const res = await runCli(['--profile', 'work', 'whoami'], { env: home.env });
      expect(res).toEqual({ code: 0, stdout: line('work'), stderr: '' });
      expect(await runCli(['whoami', '--base-url', `${svc.url}/api/v1/`, '--token', 'secret-token'], { env: home.env })).toEqual({
        code: 0,
        stdout: line(''),
        stderr: '',
      });
      expect(svc.seen).toEqual(['GET /api/v1/me', 'GET /api/v1/me']);
    } finally {
      await svc.close();
    }
  });
});

describe('templates bulk-update against a rate-limited service', () => {
  let served: Served;
  const home = tempHome();
  beforeAll(async () => {
    const demo = (await import(join(ROOT, 'data/demo.json'), { with: { type: 'json' } })).default as { templates: { id: string; name: string }[] };
    const seed = { ...demo, templates: ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => ({ ...demo.templates[0]!, id: `tpl_${k}`, name: `Template ${k}` })) };
    const file = join(home.dir, 'seed.json');
    writeFileSync(file, JSON.stringify(seed));
    // 2 requests at once, then 20 a second: 4 updates at a time are over the limit at once.
    served = await startServe(['--memory', '--seed', file, '--rate-limit', '20/s', '--rate-burst', '2', '--log', 'off']);
  });
  afterAll(async () => {
    await served?.stop();
    home.cleanup();
  });

  it('--concurrency 4 waits out the 429s and updates every template', async () => {
    const args = ['--base-url', served.url, '--token', 'demo-admin-token'];
    const res = await runCli(
      [...args, 'templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=90', '--yes', '--concurrency', '4'],
      {
        env: home.env,
        // Real waits here: the service's token bucket refills on its own clock, 20 tokens a
        // second. A fifth of each wait asked for (Retry-After is whole seconds: 1 s) refills
        // the whole burst of 2 all the same, and keeps the test from sleeping 3 s.
        sleep: (ms) => new Promise((r) => setTimeout(r, ms / 5)),
      },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('updated 6 templates: tpl_a, tpl_b, tpl_c, tpl_d, tpl_e, tpl_f\n');
    expect(res.stderr).toMatch(/rate-limited by http:\/\/127\.0\.0\.1:\d+; retrying in 1 s \(try 2 of 5\)/);
    const after = JSON.parse(
      (await runCli([...args, '--json', 'templates', 'list'], { env: home.env, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) })).stdout,
    );
    expect(after.map((t: { accessFloor: number }) => t.accessFloor)).toEqual([90, 90, 90, 90, 90, 90]);
  });
});

describe('templates bulk-update against a service of another make', () => {
  const TEMPLATES = ['t1', 't2'].map((id, i) => ({ id, name: id.toUpperCase(), owner: { kind: 'institution' }, modules: [], accessFloor: 10 * (i + 1) }));
  const PREVIEW = 't1  T1\n    accessFloor: 10 -> 50\nt2  T2\n    accessFloor: 20 -> 50\n';

  it('--yes: the preview is on stderr before the first PATCH is sent', async () => {
    let stderrAtFirstPatch: string | undefined;
    const io = testIo();
    const svc = await scriptedService((req) => {
      if (req.method === 'GET') return { body: TEMPLATES };
      stderrAtFirstPatch ??= io.err();
      return { body: TEMPLATES[0] };
    });
    try {
      const code = await runInProcess(
        [...remote(svc), 'templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=50', '--yes'],
        io,
      );
      expect({ code, stdout: io.out(), stderr: io.err() }).toEqual({ code: 0, stdout: 'updated 2 templates: t1, t2\n', stderr: PREVIEW });
      expect(stderrAtFirstPatch).toBe(PREVIEW);
      expect(svc.seen).toEqual(['GET /api/v1/templates', 'PATCH /api/v1/templates/t1', 'PATCH /api/v1/templates/t2']);
    } finally {
      await svc.close();
    }
  });

  it('--dry-run on a service without POST /templates/bulk-update: checked here only, with a note; other errors stand', async () => {
    let bulk: Answer = { status: 404, body: { error: { code: 'not-found', message: 'No such route.' } } };
    const svc = await scriptedService((req) => (req.method === 'GET' ? { body: TEMPLATES } : bulk));
    const args = [...remote(svc), 'templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=50', '--dry-run'];
    try {
      expect(await runCli(args)).toEqual({
        code: 0,
        stdout: `${PREVIEW}2 templates would change\n`,
        stderr: 'note: the service has no POST /templates/bulk-update to check a dry run with: only each patch itself was checked\n',
      });
      expect(svc.seen.at(-1)).toBe('POST /api/v1/templates/bulk-update');
      bulk = { status: 403, body: { error: { code: 'forbidden', message: 'This credential lacks the scope templates:write.' } } };
      expect(await runCli(args)).toEqual({ code: 4, stdout: '', stderr: 'error (forbidden): This credential lacks the scope templates:write.\n' });
    } finally {
      await svc.close();
    }
  });
});
