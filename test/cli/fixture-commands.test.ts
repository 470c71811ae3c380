/**
 * `coursebook fixture ...` in-process against a real `serve` listening in this process
 * (startServer on port 0, the demo seed, --deterministic --allow-admin). Every command has a
 * success and an error test; the remote client is the one CI scripts use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { type InProcessOptions, ROOT, runCli, scriptedPrompter, tempHome } from '../helpers/cli.js';
import { inProcessServeOptions } from '../helpers/serve.js';

const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
let server: RunningServer;
let plain: RunningServer;

const start = (allowAdmin: boolean) =>
  startServer(inProcessServeOptions({ seed: { name: DEMO, text: readFileSync(DEMO, 'utf8') }, deterministic: true, allowAdmin, sleep: async () => {} }));

beforeAll(async () => {
  server = await start(true);
  plain = await start(false);
});
afterAll(async () => {
  await server?.close();
  await plain?.close();
  home.cleanup();
});

/** As the demo admin against the fixture (or another service); `run` sets the terminal, prompts and env. */
const fixture = (args: string[], options: { token?: string; url?: string; run?: InProcessOptions } = {}) =>
  runCli(['--base-url', options.url ?? server.url, '--token', options.token ?? 'demo-admin-token', 'fixture', ...args], {
    ...options.run,
    env: { ...home.env, ...options.run?.env },
  });
/** A terminal: stdin and stdout TTYs, CI unset. */
const TTY = { tty: { stdin: true, stdout: true }, env: { CI: '' } };
const api = (args: string[]) => runCli(['--base-url', server.url, '--token', 'demo-admin-token', ...args], { env: home.env });

beforeEach(async () => {
  // Each test starts from the seed with an empty journal and no fault rules.
  expect((await fixture(['reset', '--yes'])).code).toBe(0);
  expect((await fixture(['requests', 'clear'])).code).toBe(0);
});

describe('fixture reset', () => {
  it('restores the seed (records, ids, clock) and removes fault rules', async () => {
    expect((await api(['courses', 'create', '--title', 'Extra', '--json'])).stdout).toContain('"id":"crs_0001"');
    await fixture(['clock', 'advance', '1d']);
    await fixture(['faults', 'create', '--path', '/nothing', '--status', '500']);
    expect(await fixture(['reset', '--yes'])).toMatchObject({ code: 0, stdout: 'ok\ttrue\n', stderr: '' });
    expect((await api(['courses', 'list'])).stdout).toMatch(/^crs_data101\t[^\n]*\n$/);
    expect((await fixture(['clock', 'show'])).stdout).toBe('now\t2026-01-01T00:00:00.000Z\nfrozen\ttrue\n');
    expect((await fixture(['faults', 'list'])).stdout).toBe('');
    expect((await api(['courses', 'create', '--title', 'Extra', '--json'])).stdout).toContain('"id":"crs_0001"');
  });

  it('a request still waiting on a delay is answered 409 unserved, and its write never lands (a socket, serve’s own timer)', async () => {
    // serve's own sleep: the 10-minute delay ends only because the reset ends it.
    const timed = await startServer(inProcessServeOptions({ seed: { name: DEMO, text: readFileSync(DEMO, 'utf8') }, deterministic: true, allowAdmin: true }));
    try {
      const on = (args: string[]) => runCli(['--base-url', timed.url, '--token', 'demo-admin-token', ...args], { env: home.env });
      expect((await on(['fixture', 'faults', 'create', '--method', 'POST', '--path', '/courses', '--delay', '600000'])).stdout).toBe('flt_1\n');
      const late = fetch(`${timed.url}/api/v1/courses`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Late' }),
      });
      // The rule counts the request once it is waiting.
      let matched = 0;
      for (let i = 0; i < 500 && matched === 0; i++) matched = JSON.parse((await on(['fixture', 'faults', 'list', '--json'])).stdout)[0].matched;
      expect(matched).toBe(1);
      expect(await on(['fixture', 'reset', '--yes'])).toEqual({ code: 0, stdout: 'ok\ttrue\n', stderr: '' });
      const answer = await late;
      expect([answer.status, await answer.json()]).toEqual([
        409,
        {
          error: {
            code: 'conflict',
            message: 'The fixture was reset while this request waited to be served; it was not served.',
            details: { reset: true, faultId: 'flt_1' },
          },
        },
      ]);
      expect((await on(['courses', 'list'])).stdout).toMatch(/^crs_data101\t[^\n]*\n$/);
      expect((await on(['fixture', 'requests', 'list', '--status', '409'])).stdout.split('\t').slice(2, 5)).toEqual(['POST', '/api/v1/courses', '409']);
    } finally {
      await timed.close();
    }
  });

  it('needs a remote fixture: local mode is a usage error (exit 2) that opens no store', async () => {
    const res = await runCli(['--db', home.db, 'fixture', 'reset'], { env: home.env });
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toBe(
      'error: fixture commands control a running `coursebook serve --allow-admin`: give its --base-url (or COURSEBOOK_BASE_URL) and an admin --token\n',
    );
    expect(() => readFileSync(home.db)).toThrow();
  });

  it('a non-admin token is forbidden (exit 4)', async () => {
    expect(await fixture(['reset', '--yes'], { token: 'demo-instructor-token' })).toMatchObject({
      code: 4,
      stderr: 'error (forbidden): Only admins may do this.\n',
    });
  });

  const courseIds = async () => (await api(['courses', 'list', '--query', '[].id', '--json'])).stdout.trim();

  it('asks first on a terminal, naming the fixture: no resets nothing, yes resets', async () => {
    await api(['courses', 'create', '--title', 'Extra']);
    const no = scriptedPrompter([false]);
    expect(await fixture(['reset'], { run: { ...TTY, prompter: no } })).toEqual({ code: 0, stdout: '', stderr: 'nothing reset\n' });
    expect(no.asked).toEqual([`Reset the fixture at ${server.url}/ to its seed, deleting everything written since?`]);
    expect(await courseIds()).toBe('["crs_0001","crs_data101"]');
    const yes = scriptedPrompter([true]);
    expect(await fixture(['reset'], { run: { ...TTY, prompter: yes } })).toEqual({ code: 0, stdout: 'ok  true\n', stderr: '' });
    expect(await courseIds()).toBe('["crs_data101"]');
  });

  it('needs --yes when not interactive (exit 2): nothing is sent, nothing reset', async () => {
    await api(['courses', 'create', '--title', 'Extra']);
    expect(await fixture(['reset'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: resetting the fixture needs --yes when not interactive (it deletes everything written since its seed was loaded)\n',
    });
    expect(await courseIds()).toBe('["crs_0001","crs_data101"]');
  });

  it('a real store (serve --db FILE without --seed) is never reset: exit 6 with the service’s reason and fix, nothing deleted', async () => {
    const db = join(home.dir, 'real.db');
    expect((await runCli(['--db', db, 'import', DEMO], { env: home.env })).code).toBe(0);
    const real = await startServer(inProcessServeOptions({ db, allowAdmin: true }));
    try {
      expect(await fixture(['reset', '--yes'], { url: real.url })).toEqual({
        code: 6,
        stdout: '',
        stderr: `error (conflict): The fixture cannot be reset: ${db} has no seed to restore, and a reset would delete every record and token it holds. Nothing was deleted. For a fixture that resets, start serve with --memory, or with --seed FILE on a new --db file.\n`,
      });
      const left = await runCli(['--base-url', real.url, '--token', 'demo-instructor-token', 'courses', 'list', '--query', '[].id', '--json'], {
        env: home.env,
      });
      expect(left).toMatchObject({ code: 0, stdout: '["crs_data101"]\n' });
    } finally {
      await real.close();
    }
  });
});

describe('fixture requests list', () => {
  it('lists what was served as tab-separated rows (--json: the journal), with filters', async () => {
    await api(['courses', 'show', 'crs_data101']);
    await api(['courses', 'show', 'nope']);
    const rows = (await fixture(['requests', 'list'])).stdout.trim().split('\n');
    expect(rows.map((r) => r.split('\t').slice(2, 6))).toEqual([
      ['GET', '/api/v1/courses/crs_data101', '200', 'usr_admin'],
      ['GET', '/api/v1/courses/nope', '404', 'usr_admin'],
    ]);
    const filtered = await fixture(['requests', 'list', '--status', '4xx', '--method', 'get', '--path', '/courses/*', '--json']);
    expect(filtered.code).toBe(0);
    expect(JSON.parse(filtered.stdout).map((e: { path: string }) => e.path)).toEqual(['/api/v1/courses/nope']);
    expect(JSON.parse((await fixture(['requests', 'list', '--limit', '1', '--json'])).stdout)).toHaveLength(1);
  });

  it('a bad filter is invalid, naming it (exit 3)', async () => {
    expect(await fixture(['requests', 'list', '--status', 'teapot'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): --status: must be a status such as 404 or a class such as 4xx\n',
    });
  });

  it('a service started without --allow-admin says how to get the control routes (exit 5)', async () => {
    expect(await fixture(['requests', 'list'], { url: plain.url })).toMatchObject({
      code: 5,
      stderr: 'error (not-found): The service has no fixture control routes: start it with `coursebook serve --allow-admin`.\n',
    });
  });
});

describe('fixture requests count', () => {
  it('prints the number of matching requests (--json: {"count": N})', async () => {
    await api(['certificates', 'issue', '--user', 'usr_s01', '--course', 'crs_data101']);
    await api(['courses', 'list']);
    expect(await fixture(['requests', 'count', '--method', 'POST', '--path', '/certificates'])).toMatchObject({ code: 0, stdout: '1\n' });
    expect((await fixture(['requests', 'count', '--status', '201', '--json'])).stdout).toBe('{"count":1}\n');
    expect((await fixture(['requests', 'count'])).stdout).toBe('2\n');
    // --path is relative to /api/v1: written without its leading slash, it means the same.
    expect(await fixture(['requests', 'count', '--method', 'POST', '--path', 'certificates'])).toMatchObject({ code: 0, stdout: '1\n' });
  });

  it('a path that is not a pattern is invalid (exit 3)', async () => {
    const res = await fixture(['requests', 'count', '--path', '/certificates?status=1']);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error \(invalid\): --path: must be a path pattern starting with \/ \(no query string\)/);
  });
});

describe('fixture requests clear', () => {
  it('empties the journal and says how many went', async () => {
    await api(['courses', 'list']);
    await api(['courses', 'list']);
    expect(await fixture(['requests', 'clear'])).toMatchObject({ code: 0, stdout: 'ok\ttrue\ncleared\t2\n' });
    expect((await fixture(['requests', 'count'])).stdout).toBe('0\n');
  });

  it('without a token it is unauthenticated (exit 4)', async () => {
    const res = await runCli(['--base-url', server.url, 'fixture', 'requests', 'clear'], { env: home.env });
    expect(res).toMatchObject({ code: 4, stderr: 'error (unauthenticated): A valid bearer token is required.\n' });
  });
});

describe('fixture faults create', () => {
  it('adds a rule; matching requests get its answer, others are served', async () => {
    const added = await fixture(['faults', 'create', '--method', 'POST', '--path', '/certificates', '--status', '503', '--times', '1', '--json']);
    expect(JSON.parse(added.stdout)).toEqual({
      id: expect.stringMatching(/^flt_\d+$/),
      method: 'POST',
      path: '/certificates',
      times: 1,
      delayMs: 0,
      status: 503,
      code: 'internal',
      message: expect.stringMatching(/^Injected fault \(rule flt_\d+\)\.$/),
      retryAfter: null,
      dropConnection: false,
      matched: 0,
    });
    const issue = ['certificates', 'issue', '--user', 'usr_s01', '--course', 'crs_data101'];
    const faulted = await api(issue);
    expect(faulted.code).toBe(1);
    expect(faulted.stderr).toMatch(/^error: the service answered 503: Injected fault/);
    expect((await api(issue)).code).toBe(0); // the rule was good for one request
  });

  it('prints just the new id when piped, so id=$(...) works, and one Created line on a terminal', async () => {
    const piped = await fixture(['faults', 'create', '--path', '/x', '--status', '429']);
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(piped.stdout).toMatch(/^flt_\d+\n$/);
    const id = piped.stdout.trim();
    expect(JSON.parse((await fixture(['faults', 'list', '--json'])).stdout).map((r: { id: string }) => r.id)).toEqual([id]);
    const onTerminal = await runCli(['--base-url', server.url, '--token', 'demo-admin-token', 'fixture', 'faults', 'create', '--path', '/y', '--delay', '5'], {
      env: home.env,
      tty: { stdout: true },
    });
    expect(onTerminal).toMatchObject({ code: 0, stdout: `Created fault flt_${Number(id.slice(4)) + 1}\n`, stderr: '' });
  });

  it('an injected 429 carries Retry-After (default 1 s, --retry-after to change), which the CLI waits out like a real one', async () => {
    const added = await fixture(['faults', 'create', '--path', '/courses', '--method', 'GET', '--status', '429', '--times', '1', '--json']);
    expect(JSON.parse(added.stdout)).toMatchObject({ status: 429, code: 'rate-limited', retryAfter: 1 });
    const sleeps: number[] = [];
    const listed = await runCli(['--base-url', server.url, '--token', 'demo-admin-token', 'courses', 'list'], { env: home.env, sleeps });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe(`rate-limited by ${server.url}; retrying in 1 s (try 2 of 5)\n`);
    expect(sleeps).toEqual([1000]);
    const long = await fixture(['faults', 'create', '--path', '/courses', '--method', 'GET', '--code', 'rate-limited', '--retry-after', '120', '--json']);
    expect(JSON.parse(long.stdout)).toMatchObject({ status: 429, retryAfter: 120 });
    // Longer than a minute: not waited for; the rate-limited error stands (exit 7).
    expect(await api(['courses', 'list'])).toMatchObject({ code: 7, stdout: '', stderr: expect.stringMatching(/^error \(rate-limited\): Injected fault/) });
  });

  it('--retry-after that is not a whole number of seconds up to a day is refused (exit 2, exit 3)', async () => {
    expect(await fixture(['faults', 'create', '--path', '/x', '--status', '429', '--retry-after', 'soon'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --retry-after must be a number (got "soon")\n',
    });
    expect(await fixture(['faults', 'create', '--path', '/x', '--status', '429', '--retry-after', '86401'])).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): --retry-after: must be <= 86400\n',
    });
  });

  it('a --path without its leading slash is the same pattern (relative to /api/v1)', async () => {
    const added = await fixture(['faults', 'create', '--path', 'courses/*/assignments', '--status', '503', '--times', '1', '--json']);
    expect(JSON.parse(added.stdout)).toMatchObject({ path: '/courses/*/assignments', status: 503 });
    expect((await api(['assignments', 'list', '--course', 'crs_data101'])).stderr).toMatch(/^error: the service answered 503: Injected fault/);
  });

  it('a rule without an effect, or --status that is not a number, is refused (exit 3, exit 2)', async () => {
    // Named by the flags typed; --json keeps the API's field names and paths.
    expect(await fixture(['faults', 'create', '--path', '/courses'])).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): a rule needs an effect: --delay, --status (or --code), or --drop\n',
    });
    expect(await fixture(['faults', 'create', '--path', '/courses', '--json'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        '{"error":{"code":"invalid","message":"(root): a rule needs an effect: delayMs, status (or code), or dropConnection","details":[{"path":"(root)","message":"a rule needs an effect: delayMs, status (or code), or dropConnection"}]}}\n',
    });
    expect(await fixture(['faults', 'create', '--path', '/courses', '--drop', '--message', 'x'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error (invalid): 2 problems: --drop, --status\n' +
        '  --drop: cannot be combined with --status, --code, --message or --retry-after (a dropped connection has no answer)\n' +
        '  --status: is required with --message (or give --code)\n',
    });
    expect(await fixture(['faults', 'create', '--path', '/courses', '--retry-after', '5'])).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): --status: is required with --retry-after (or give --code)\n',
    });
    expect(await fixture(['faults', 'create', '--path', '/courses', '--status', 'bad'])).toMatchObject({
      code: 2,
      stderr: 'error: --status must be a number (got "bad")\n',
    });
    expect(await fixture(['faults', 'create', '--status', '500'])).toMatchObject({ code: 2, stderr: 'error: missing --path\n' });
  });
});

describe('fixture faults list', () => {
  it('lists the rules with how often each matched', async () => {
    await fixture(['faults', 'create', '--path', '/courses/**', '--delay', '5']);
    await fixture(['faults', 'create', '--path', '/health', '--drop', '--method', 'GET']);
    await api(['courses', 'show', 'crs_data101']);
    const rows = (await fixture(['faults', 'list'])).stdout.trim().split('\n');
    expect(rows.map((r) => r.split('\t').slice(1))).toEqual([
      ['*', '/courses/**', '', '', '5', 'false', 'always', '1'],
      ['GET', '/health', '', '', '0', 'true', 'always', '0'],
    ]);
  });

  it('as a non-admin it is forbidden (exit 4)', async () => {
    expect((await fixture(['faults', 'list'], { token: 'demo-student-token' })).code).toBe(4);
  });
});

describe('fixture faults delete', () => {
  it('removes one rule', async () => {
    const id = JSON.parse((await fixture(['faults', 'create', '--path', '/x', '--status', '500', '--json'])).stdout).id;
    expect(await fixture(['faults', 'delete', id])).toMatchObject({ code: 0, stdout: 'ok\ttrue\n' });
    expect((await fixture(['faults', 'list'])).stdout).toBe('');
  });

  it('an unknown rule is not found (exit 5)', async () => {
    expect(await fixture(['faults', 'delete', 'flt_999'])).toMatchObject({ code: 5, stderr: 'error (not-found): Fault rule "flt_999" was not found.\n' });
  });
});

describe('fixture faults clear', () => {
  it('removes every rule and says how many went', async () => {
    await fixture(['faults', 'create', '--path', '/x', '--status', '500']);
    await fixture(['faults', 'create', '--path', '/y', '--status', '500']);
    expect(await fixture(['faults', 'clear'])).toMatchObject({ code: 0, stdout: 'ok\ttrue\ncleared\t2\n' });
  });

  it('against a service that is not running it is unreachable (exit 9)', async () => {
    expect((await fixture(['faults', 'clear'], { url: 'http://127.0.0.1:9' })).code).toBe(9);
  });
});

describe('fixture clock show', () => {
  it("shows the fixture's clock (--json: {now, frozen})", async () => {
    expect(await fixture(['clock', 'show'])).toMatchObject({ code: 0, stdout: 'now\t2026-01-01T00:00:00.000Z\nfrozen\ttrue\n' });
    expect((await fixture(['clock', 'show', '--json'])).stdout).toBe('{"now":"2026-01-01T00:00:00.000Z","frozen":true}\n');
  });

  it('as a non-admin it is forbidden (exit 4)', async () => {
    expect((await fixture(['clock', 'show'], { token: 'demo-reviewer-token' })).code).toBe(4);
  });
});

describe('fixture clock set', () => {
  it('sets the clock; new records carry its time', async () => {
    expect(await fixture(['clock', 'set', '2026-12-01T09:00:00+01:00'])).toMatchObject({ code: 0, stdout: 'now\t2026-12-01T08:00:00.000Z\nfrozen\ttrue\n' });
    expect((await fixture(['clock', 'set', '2026-12-02T00:00:00Z', '--running', '--json'])).stdout).toMatch(
      /^\{"now":"2026-12-02T00:00:0\d\.\d{3}Z","frozen":false\}\n$/,
    );
    expect((await fixture(['clock', 'set', '2026-12-03T00:00:00Z', '--frozen'])).stdout).toBe('now\t2026-12-03T00:00:00.000Z\nfrozen\ttrue\n');
    expect((await api(['courses', 'create', '--title', 'Dated', '--json'])).stdout).toContain('"createdAt":"2026-12-03T00:00:00.000Z"');
  });

  it('a time that is not RFC 3339 is invalid (exit 3); --frozen with --running is a usage error (exit 2)', async () => {
    expect(await fixture(['clock', 'set', 'next tuesday'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): now: must be an RFC 3339 timestamp such as 2026-11-22T08:30:00Z\n',
    });
    expect(await fixture(['clock', 'set', '2026-12-03T00:00:00Z', '--frozen', '--running'])).toMatchObject({
      code: 2,
      stderr: 'error: give --frozen or --running, not both\n',
    });
  });
});

describe('fixture clock advance', () => {
  it('moves the clock by seconds or by s, m, h, d, w', async () => {
    expect((await fixture(['clock', 'advance', '90'])).stdout).toBe('now\t2026-01-01T00:01:30.000Z\nfrozen\ttrue\n');
    expect((await fixture(['clock', 'advance', '2h'])).stdout).toBe('now\t2026-01-01T02:01:30.000Z\nfrozen\ttrue\n');
    expect((await fixture(['clock', 'advance', '1.5d'])).stdout).toBe('now\t2026-01-02T14:01:30.000Z\nfrozen\ttrue\n');
    expect((await fixture(['clock', 'advance', '1w', '--json'])).stdout).toBe('{"now":"2026-01-09T14:01:30.000Z","frozen":true}\n');
  });

  it('a duration that does not parse is a usage error (exit 2)', async () => {
    expect(await fixture(['clock', 'advance', 'soon'])).toMatchObject({
      code: 2,
      stderr: 'error: the duration must be seconds or a number with s, m, h, d or w, such as 90, 15m or 3d (got "soon")\n',
    });
  });
});
