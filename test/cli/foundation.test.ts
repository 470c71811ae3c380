import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';
import { type Served, startServe } from '../helpers/serve.js';

const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
let served: Served;

beforeAll(async () => {
  served = await startServe(['--memory', '--seed', DEMO, '--allow-reset', '--deterministic', '--log', 'off']);
  const imported = await runCli(['--db', home.db, 'import', DEMO], { env: home.env });
  expect(imported.code).toBe(0);
});
afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

describe('serve', () => {
  it('prints exactly one JSON listening line on stdout', () => {
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
    expect(served.port).toBeGreaterThan(0);
  });

  it('answers health with no credential', async () => {
    const res = await fetch(`${served.url}/api/v1/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    const cli = await runCli(['health', served.url]);
    expect(cli).toMatchObject({ code: 0, stdout: 'ok\n' });
  });

  it('health of an unreachable service exits 9', async () => {
    const cli = await runCli(['health', 'http://127.0.0.1:9']);
    expect(cli.code).toBe(9);
    expect(cli.stderr).toMatch(/cannot reach/);
  });

  it('courses list --json prints the same bytes from --db and from --base-url', async () => {
    const local = await runCli(['--db', home.db, 'courses', 'list', '--json'], { env: home.env });
    const remote = await runCli(['--base-url', served.url, '--token', 'demo-admin-token', 'courses', 'list', '--json'], { env: home.env });
    expect(local.code).toBe(0);
    expect(remote.code).toBe(0);
    expect(remote.stdout).toBe(local.stdout);
    expect(JSON.parse(local.stdout)[0].id).toBe('crs_data101');
  });

  it('reset restores the seed exactly (records, ids and clock)', async () => {
    const auth = { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${served.url}/api/v1/courses`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Extra' }) })
    ).json()) as { id: string; createdAt: string };
    expect(created.id).toBe('crs_0001');
    expect(created.createdAt).toBe('2026-01-01T00:00:00.000Z');
    const dumpBefore = await (await fetch(`${served.url}/api/v1/dump`, { headers: auth })).text();
    expect(dumpBefore).toContain('crs_0001');
    const reset = await fetch(`${served.url}/api/v1/_reset`, { method: 'POST', headers: auth });
    expect(reset.status).toBe(200);
    const list = (await (await fetch(`${served.url}/api/v1/courses`, { headers: auth })).json()) as { id: string }[];
    expect(list.map((c: { id: string }) => c.id)).toEqual(['crs_data101']);
    const again = (await (await fetch(`${served.url}/api/v1/courses`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Extra' }) })).json()) as {
      id: string;
    };
    expect(again.id).toBe('crs_0001');
    await fetch(`${served.url}/api/v1/_reset`, { method: 'POST', headers: auth });
  });

  it('reset needs an admin credential', async () => {
    const res = await fetch(`${served.url}/api/v1/_reset`, { method: 'POST', headers: { authorization: 'Bearer demo-instructor-token' } });
    expect(res.status).toBe(403);
  });

  it('without --allow-reset there is no reset route', async () => {
    const other = await startServe(['--memory', '--seed', DEMO, '--log', 'off']);
    const res = await fetch(`${other.url}/api/v1/_reset`, { method: 'POST', headers: { authorization: 'Bearer demo-admin-token' } });
    expect(res.status).toBe(404);
    expect(await other.stop('SIGINT')).toBe(0);
  });

  it('stops on SIGTERM with exit 0 and writes the port file', async () => {
    const portFile = join(home.dir, 'port');
    const other = await startServe(['--memory', '--port-file', portFile, '--log', 'off']);
    expect(readFileSync(portFile, 'utf8').trim()).toBe(String(other.port));
    expect(await other.stop('SIGTERM')).toBe(0);
  });

  it('a bad seed fails to start with the problems listed and exit 3', async () => {
    const bad = join(home.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ coursebook: 1, users: [{ id: 'u' }] }));
    const cli = await runCli(['serve', '--memory', '--seed', bad, '--port', '0']);
    expect(cli.code).toBe(3);
    expect(cli.stderr).toMatch(/users\[0\]\.name/);
    expect(cli.stdout).toBe('');
  });
});

describe('CLI basics', () => {
  it('errors go to stderr with the exit code of the table', async () => {
    const notFound = await runCli(['--db', home.db, 'courses', 'show', 'nope'], { env: home.env });
    expect(notFound.code).toBe(5);
    expect(notFound.stdout).toBe('');
    expect(notFound.stderr).toMatch(/not-found/);
    const json = await runCli(['--db', home.db, '--json', 'courses', 'show', 'nope'], { env: home.env });
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'not-found' } });
    const invalid = await runCli(['--db', home.db, 'courses', 'create', '--title', ''], { env: home.env });
    expect(invalid.code).toBe(2); // an empty required flag is a usage error before any request
  });

  it('a missing required value is a usage error naming the flag when not interactive', async () => {
    const res = await runCli(['--db', home.db, 'modules', 'create', '--title', 'X'], { env: home.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--course/);
  });

  it('unknown commands and options exit 2', async () => {
    expect((await runCli(['frobnicate'], { env: home.env })).code).toBe(2);
    expect((await runCli(['courses', 'list', '--bogus'], { env: home.env })).code).toBe(2);
  });

  it('piped output is tab-separated without colour', async () => {
    const res = await runCli(['--db', home.db, 'courses', 'list'], { env: { ...home.env, FORCE_COLOR: '' } });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^crs_data101\tData Literacy 101\tdraft\t/);
    expect(res.stdout).not.toMatch(/\x1b\[/);
  });

  it('api METHOD PATH works in both modes with the same JSON', async () => {
    const local = await runCli(['--db', home.db, '--json', 'api', 'GET', '/courses/crs_data101/modules'], { env: home.env });
    const remote = await runCli(['--base-url', served.url, '--token', 'demo-admin-token', '--json', 'api', 'GET', '/courses/crs_data101/modules']);
    expect(local.code).toBe(0);
    expect(remote.stdout).toBe(local.stdout);
  });

  it('remote without a token is unauthenticated (exit 4)', async () => {
    const res = await runCli(['--base-url', served.url, 'courses', 'list']);
    expect(res.code).toBe(4);
  });

  it('local mode acts as the first admin, or --as another user with their roles', async () => {
    const me = await runCli(['--db', home.db, '--json', 'whoami'], { env: home.env });
    expect(JSON.parse(me.stdout).user.id).toBe('usr_admin');
    const student = await runCli(['--db', home.db, '--as', 'usr_s01', 'users', 'list'], { env: home.env });
    expect(student.code).toBe(4);
    const missing = await runCli(['--db', home.db, '--as', 'ghost', 'courses', 'list'], { env: home.env });
    expect(missing.code).toBe(4);
  });

  it('a fresh default store gets a local admin on first use', async () => {
    const fresh = tempHome();
    const res = await runCli(['--json', 'whoami'], { env: fresh.env });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).user).toMatchObject({ id: 'local', admin: true });
    fresh.cleanup();
  });

  it('import errors list every problem with its path and exit 3', async () => {
    const bad = join(home.dir, 'bad-import.json');
    writeFileSync(bad, JSON.stringify({ coursebook: 1, users: [{ id: 'a', name: 'A' }], assignments: [{ id: 'x', moduleId: 'm', title: 'T', points: -1 }] }));
    const fresh = tempHome();
    const res = await runCli(['--db', fresh.db, 'import', bad], { env: fresh.env });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/assignments\[0\]\.points: must be >= 0/);
    const dump = await runCli(['--db', fresh.db, 'dump'], { env: fresh.env });
    expect(JSON.parse(dump.stdout).users).toEqual([]);
    fresh.cleanup();
  });

  it('import then dump, into a new store, round-trips to the same bytes', async () => {
    const first = await runCli(['--db', home.db, 'dump'], { env: home.env });
    const fresh = tempHome();
    const file = join(fresh.dir, 'dump.json');
    writeFileSync(file, first.stdout);
    expect((await runCli(['--db', fresh.db, 'import', file], { env: fresh.env })).code).toBe(0);
    const second = await runCli(['--db', fresh.db, 'dump'], { env: fresh.env });
    expect(second.stdout).toBe(first.stdout);
    fresh.cleanup();
  });

  it('config profiles are stored with mode 0600 and tokens are redacted', async () => {
    const set = await runCli(['config', 'set', 'baseUrl', served.url, '--name', 'ci'], { env: home.env });
    expect(set.code).toBe(0);
    await runCli(['config', 'set', 'token', 'demo-admin-token', '--name', 'ci'], { env: home.env });
    const path = join(home.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const list = await runCli(['config', 'list'], { env: home.env });
    expect(list.stdout).not.toContain('demo-admin-token');
    expect(list.stdout).toContain('****oken');
    const viaProfile = await runCli(['--profile', 'ci', '--json', 'courses', 'list'], { env: home.env });
    expect(viaProfile.code).toBe(0);
    expect(JSON.parse(viaProfile.stdout)[0].id).toBe('crs_data101');
  });
});
