/**
 * #18, choosing PostgreSQL from the command line: `--db postgres://...`, COURSEBOOK_DB and a
 * profile's db select it for local commands and serve; a path or `:memory:` keeps SQLite;
 * `--memory` and `--deterministic` refuse a PostgreSQL URL; `--db-pool` sizes the pool and
 * is refused where it would do nothing. The run's cluster (test/setup/postgres-global.ts)
 * trusts local connections, so a password in a URL is accepted and ignored: enough to check
 * that it never shows (test/cli/postgres-password.test.ts checks that it is used).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';
import { dropDatabase } from '../helpers/postgres.js';
import { startServe } from '../helpers/serve.js';
import { copyOfTemplate, query } from './postgres-cli-helpers.js';

const adminUrl = inject('pgAdminUrl');
const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
const databases: string[] = [];

/** A new database copied from the run's migrated template; its URL. */
async function newDatabase(): Promise<string> {
  const name = `cli_${randomUUID().replaceAll('-', '')}`;
  databases.push(name);
  return copyOfTemplate(adminUrl, name);
}

/** The same URL with a password (the cluster trusts local connections: it is accepted, never checked). */
const withPassword = (url: string, password: string) => url.replace('postgres://postgres@', `postgres://postgres:${password}@`);

let url: string;
beforeAll(async () => {
  url = await newDatabase();
  expect((await runCli(['--db', url, 'import', DEMO], { env: home.env })).code).toBe(0);
});
afterAll(async () => {
  home.cleanup();
  for (const name of databases) await dropDatabase(adminUrl, name);
});

describe('--db postgres://USER@HOST:PORT/DB', () => {
  it('local commands read and write the PostgreSQL database, and no SQLite file is made', async () => {
    const created = await runCli(['--db', url, 'courses', 'create', '--id', 'crs_pg', '--title', 'Made on PostgreSQL'], { env: home.env });
    expect(created.code).toBe(0);
    const rows = await query<{ id: string; title: string }>(url, 'SELECT id, title FROM courses ORDER BY id');
    expect(rows).toEqual([
      { id: 'crs_data101', title: 'Data Literacy 101' },
      { id: 'crs_pg', title: 'Made on PostgreSQL' },
    ]);
    const listed = await runCli(['--db', url, '--json', 'courses', 'list'], { env: home.env });
    expect(JSON.parse(listed.stdout).map((c: { id: string }) => c.id)).toEqual(['crs_data101', 'crs_pg']);
    expect(existsSync(join(home.env.XDG_DATA_HOME!, 'coursebook'))).toBe(false);
  });

  it('COURSEBOOK_DB and a profile db select it the same way; whoami shows the URL without its password', async () => {
    const secret = `pw-${randomUUID()}`;
    const viaEnv = await runCli(['whoami'], { env: { ...home.env, COURSEBOOK_DB: withPassword(url, secret) } });
    expect(viaEnv.code).toBe(0);
    expect(viaEnv.stdout).toContain(`local ${url}`);

    const set = await runCli(['config', 'set', 'db', withPassword(url, secret), '--name', 'pg', '--default'], { env: home.env });
    expect(set.code).toBe(0);
    const got = await runCli(['config', 'get', 'db', '--name', 'pg'], { env: home.env });
    expect(got.stdout).toBe(`${url}\n`);
    const viaProfile = await runCli(['whoami'], { env: home.env });
    expect(viaProfile.stdout).toMatch(new RegExp(`local ${url.replaceAll('.', '\\.')}\\tpg\\n$`));
    for (const output of [viaEnv, set, got, viaProfile]) expect(output.stdout + output.stderr).not.toContain(secret);
    expect((await runCli(['config', 'use', '--none'], { env: home.env })).code).toBe(0);
  });

  it('a PostgreSQL store as the other end of a pull is named in sync marks by host, port and database, without user or password', async () => {
    const secret = `pw-${randomUUID()}`;
    const laptop = join(home.dir, 'laptop.db');
    expect((await runCli(['config', 'set', 'db', withPassword(url, secret), '--name', 'hub'], { env: home.env })).code).toBe(0);
    const pulled = await runCli(['--db', laptop, 'courses', 'pull', 'crs_data101', '--from', 'hub', '--yes'], { env: home.env });
    expect(pulled.code).toBe(0);
    const key = `store:${url.replace('postgres://postgres@', 'postgres://')}`;
    expect(pulled.stdout).toContain(`pulled crs_data101 from ${key}`);
    const sqlite = new Database(laptop, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT course_id, remote FROM course_sync_marks').all()).toEqual([{ course_id: 'crs_data101', remote: key }]);
    } finally {
      sqlite.close();
    }
    expect(pulled.stdout + pulled.stderr).not.toContain(secret);
  });

  it('a path keeps SQLite beside it: the same commands on a file never reach the database', async () => {
    const file = join(home.dir, 'beside.db');
    expect((await runCli(['--db', file, 'courses', 'create', '--id', 'crs_file', '--title', 'On SQLite'], { env: home.env })).code).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(await query(url, "SELECT id FROM courses WHERE id = 'crs_file'")).toEqual([]);
  });

  it('--memory and --deterministic stay SQLite: combined with a PostgreSQL URL they are usage errors', async () => {
    const memory = await runCli(['--memory', '--db', url, 'courses', 'list'], { env: home.env });
    expect(memory).toMatchObject({
      code: 2,
      stderr: 'error: --memory is a throwaway SQLite store and --db names a database server (PostgreSQL): give one, not both\n',
    });
    const serveMemory = await runCli(['--memory', '--db', url, 'serve', '--port', '0'], { env: home.env });
    expect(serveMemory.code).toBe(2);
    expect(serveMemory.stderr).toBe(memory.stderr);
    for (const env of [{ COURSEBOOK_DB: url }, {}]) {
      const args = 'COURSEBOOK_DB' in env ? ['serve', '--deterministic', '--port', '0'] : ['--db', url, 'serve', '--deterministic', '--port', '0'];
      const deterministic = await runCli(args, { env: { ...home.env, ...env } });
      expect(deterministic.code).toBe(2);
      expect(deterministic.stderr).toMatch(/^error: --deterministic needs a SQLite store \(a file or --memory\)/);
    }
    // --memory still wins over COURSEBOOK_DB (flags before the environment): no combination.
    const memoryOverEnv = await runCli(['--memory', '--json', 'courses', 'list'], { env: { ...home.env, COURSEBOOK_DB: url } });
    expect(memoryOverEnv).toMatchObject({ code: 0, stdout: '[]\n' });
  });

  it('another scheme, or a password given as ?password=, is a usage error that never shows the password', async () => {
    const mysql = await runCli(['--db', 'mysql://app:hush-1@db/x', 'courses', 'list'], { env: home.env });
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toBe('error: --db takes a SQLite file path, :memory: or a PostgreSQL URL (postgres://USER@HOST:PORT/DB); got "mysql://app@db/x"\n');
    const query = await runCli(['--db', `${url}?password=hush-2`, 'courses', 'list'], { env: home.env });
    expect(query.code).toBe(2);
    expect(query.stderr).toContain('not as ?password=');
    expect(query.stderr).not.toContain('hush-2');
  });

  it('an unreachable server or a missing database is an error naming the URL without its password', async () => {
    const secret = `pw-${randomUUID()}`;
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    const noDatabase = await runCli(['--db', withPassword(missing.toString(), secret), 'courses', 'list'], { env: home.env });
    expect(noDatabase.code).toBe(3);
    expect(noDatabase.stderr).toContain('database "no_such_database" does not exist (create it first: createdb)');
    const noServer = await runCli(['--db', `postgres://postgres:${secret}@127.0.0.1:1/x`, 'courses', 'list'], { env: home.env });
    expect(noServer).toMatchObject({
      code: 3,
      stderr: 'error (invalid): cannot open store postgres://postgres@127.0.0.1:1/x: no PostgreSQL server answers at that address\n',
    });
    expect(noDatabase.stderr + noServer.stderr).not.toContain(secret);
  });
});

describe('--db-pool N', () => {
  it('works on a PostgreSQL store and is refused where it would do nothing', async () => {
    expect((await runCli(['--db', url, '--db-pool', '1', 'courses', 'show', 'crs_data101'], { env: home.env })).code).toBe(0);
    const sqlite = await runCli(['--db', join(home.dir, 'pool.db'), '--db-pool', '4', 'courses', 'list'], { env: home.env });
    expect(sqlite).toMatchObject({
      code: 2,
      stderr: 'error: --db-pool sizes the connection pool of a PostgreSQL store (--db postgres://...); a SQLite store has one connection\n',
    });
    const remote = await runCli(['--base-url', 'http://127.0.0.1:1', '--db-pool', '4', 'courses', 'list'], { env: home.env });
    expect(remote).toMatchObject({ code: 2, stderr: 'error: --db-pool sizes the connection pool of a local PostgreSQL store; a remote service has its own\n' });
    const serveSqlite = await runCli(['--memory', '--db-pool', '4', 'serve', '--port', '0'], { env: home.env });
    expect(serveSqlite.code).toBe(2);
    for (const bad of ['0', '1001', 'ten', '2.5']) {
      const res = await runCli(['--db', url, '--db-pool', bad, 'courses', 'list'], { env: home.env });
      expect(res).toMatchObject({ code: 2, stderr: `error: --db-pool must be a whole number of connections from 1 to 1000 (got "${bad}")\n` });
    }
  });

  it('caps the connections serve opens: a burst of requests never takes more than N, where the default 10 takes more', async () => {
    const database = await newDatabase();
    expect((await runCli(['--db', database, 'import', DEMO], { env: home.env })).code).toBe(0);
    const name = new URL(database).pathname.slice(1);
    // Connections stay in the pool, idle, for 10 s after use: counted once the burst is answered.
    const connections = async () =>
      Number((await query<{ n: string }>(adminUrl, 'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]))[0]!.n);
    const burst = async (extra: string[]) => {
      const served = await startServe(['--db', database, '--log', 'off', '--rate-limit', 'off', ...extra], home.env);
      try {
        const headers = { authorization: 'Bearer demo-instructor-token' };
        const answers = await Promise.all(
          Array.from({ length: 40 }, () => fetch(`${served.url}/api/v1/courses/crs_data101/assignments`, { headers }).then((r) => r.status)),
        );
        expect(answers.every((status) => status === 200)).toBe(true);
        return await connections();
      } finally {
        await served.stop();
      }
    };
    const capped = await burst(['--db-pool', '2']);
    expect(capped).toBeGreaterThanOrEqual(1);
    expect(capped).toBeLessThanOrEqual(2);
    expect(await burst([])).toBeGreaterThan(2);
  });
});

describe('closing a PostgreSQL store', () => {
  it('leaves no connection behind, even when the store ran no statement after opening', async () => {
    const name = `cli_${randomUUID().replaceAll('-', '')}`;
    databases.push(name);
    const fresh = await copyOfTemplate(adminUrl, name);
    const connections = async () => (await query<{ n: number }>(adminUrl, 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]))[0]!.n;
    // A server process leaves pg_stat_activity shortly after its client hangs up, not at once.
    const connectionsOnceSettled = async () => {
      for (let tries = 0; tries < 50 && (await connections()) > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      return connections();
    };
    const unused = await openStore(fresh);
    expect(await connections()).toBeGreaterThan(0);
    await unused.close();
    expect(await connectionsOnceSettled()).toBe(0);
    const used = await openStore(fresh);
    expect((await used.all('SELECT id FROM courses')).length).toBe(0);
    await used.close();
    await used.close();
    expect(await connectionsOnceSettled()).toBe(0);
  });
});
