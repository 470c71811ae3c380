/**
 * #18: a PostgreSQL password reaches the server from the URL, PGPASSWORD or ~/.pgpass, and
 * never shows: not in logs, errors, `whoami`, the serve listening line or `--log` output.
 * Real processes throughout (the binary, `serve`), and every byte they print is searched.
 *
 * The run's cluster trusts local connections, so for the password sources this file adds,
 * for the length of the file, one pg_hba.conf rule that asks one new role for its password
 * on one new database (and restores the file after): nothing else in the cluster changes.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliResult, ROOT, runBin, tempHome } from '../helpers/cli.js';
import { createDatabase, dropDatabase } from '../helpers/postgres.js';
import { startServe } from '../helpers/serve.js';
import { copyOfTemplate, query } from './postgres-cli-helpers.js';

const adminUrl = inject('pgAdminUrl');
const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
const suffix = randomUUID().replaceAll('-', '').slice(0, 12);
const INSTRUCTOR = { authorization: 'Bearer demo-instructor-token', 'content-type': 'application/json' };

/** Everything a process printed, for the search. */
const printed = (r: CliResult) => r.stdout + r.stderr;

describe('a password in the URL never shows', () => {
  const database = `pw_shown_${suffix}`;
  const secret = `Sh0wn-${randomUUID()}`;
  let plain: string;
  let withSecret: string;
  beforeAll(async () => {
    plain = await copyOfTemplate(adminUrl, database);
    withSecret = plain.replace('postgres://postgres@', `postgres://postgres:${secret}@`);
  });
  afterAll(() => dropDatabase(adminUrl, database));

  it('local commands: import, whoami (table and --json), an error, dump', async () => {
    const runs = [
      await runBin(['--db', withSecret, 'import', DEMO], { env: home.env }),
      await runBin(['--db', withSecret, 'whoami'], { env: home.env }),
      await runBin(['--db', withSecret, '--json', 'whoami'], { env: home.env }),
      await runBin(['--db', withSecret, 'courses', 'show', 'crs_missing'], { env: home.env }),
      await runBin(['--db', withSecret, 'dump'], { env: home.env }),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 5, 0]);
    // The search is worth something only if the URL is printed at all: whoami shows it.
    expect(runs[1]!.stdout).toContain(`local ${plain}`);
    for (const run of runs) expect(printed(run)).not.toContain(secret);
  });

  it('errors opening the store, from a command and from serve; a usage error beside the URL', async () => {
    const missing = withSecret.replace(`/${database}`, '/pw_no_such_database');
    const runs = [
      await runBin(['--db', missing, 'courses', 'list'], { env: home.env }),
      await runBin(['--db', missing, 'serve', '--port', '0'], { env: home.env }),
      await runBin(['--db', withSecret, '--json', 'courses', 'list', '--db-pool', '0'], { env: home.env }),
    ];
    expect(runs.map((r) => r.code)).toEqual([3, 3, 2]);
    expect(runs[1]!.stderr).toContain(
      `cannot open store ${plain.replace(`/${database}`, '/pw_no_such_database')}: database "pw_no_such_database" does not exist`,
    );
    for (const run of runs) expect(printed(run)).not.toContain(secret);
  });

  it('serve: the listening line, --log json and pretty, start-up notes, errors answered, shutdown', async () => {
    for (const log of ['json', 'pretty']) {
      // The store already holds data, so --seed prints the note that names the store.
      const served = await startServe(['--db', withSecret, '--seed', DEMO, '--log', log], home.env);
      const answers = [
        await fetch(`${served.url}/api/v1/health`),
        await fetch(`${served.url}/api/v1/courses/crs_data101/assignments`, { headers: INSTRUCTOR }),
        await fetch(`${served.url}/api/v1/courses/crs_missing`, { headers: INSTRUCTOR }),
        await fetch(`${served.url}/api/v1/courses/crs_data101/gradebook/students/usr_s01/final`, {
          method: 'PUT',
          headers: INSTRUCTOR,
          body: JSON.stringify({ reason: 'appeal', expectedVersion: 41, letter: 'A' }),
        }),
      ];
      const bodies = await Promise.all(answers.map((a) => a.text()));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 404, 409]);
      expect(await served.stop()).toBe(0);
      const everything = JSON.stringify(served.line) + served.stderr() + bodies.join('');
      expect(served.stderr()).toContain(`${plain} already holds data`);
      expect(served.stderr()).toMatch(log === 'json' ? /"status":409/ : / 409 /);
      expect(everything).not.toContain(secret);
    }
  });
});

describe('the password reaches the server from the URL, PGPASSWORD or ~/.pgpass', () => {
  const role = `pw_user_${suffix}`;
  const database = `pw_auth_${suffix}`;
  const password = `Right-${randomUUID()}`;
  const wrong = `Wrong-${randomUUID()}`;
  let hbaFile = '';
  let hbaBefore = '';
  let address: URL;

  /** Write pg_hba.conf through the server (it runs as another OS user) and have it read again. */
  async function writeHba(text: string) {
    const lines = text.split('\n').map((line) => pg.escapeLiteral(line));
    await query(
      adminUrl,
      `COPY (SELECT line FROM unnest(ARRAY[${lines.join(',')}]::text[]) WITH ORDINALITY AS t(line, n) ORDER BY n) TO ${pg.escapeLiteral(hbaFile)}`,
    );
    await query(adminUrl, 'SELECT pg_reload_conf()');
  }

  /** Whether the server now asks this role for its password (a reload is applied a moment later). */
  async function passwordAsked(): Promise<boolean> {
    const client = new pg.Client({ connectionString: urlWith(wrong) });
    try {
      await client.connect();
      return false;
    } catch (err) {
      return (err as { code?: string }).code === '28P01';
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  beforeAll(async () => {
    address = new URL(adminUrl);
    await query(adminUrl, `CREATE ROLE ${role} LOGIN PASSWORD ${pg.escapeLiteral(password)}`);
    await createDatabase(adminUrl, database);
    await query(adminUrl, `ALTER DATABASE ${database} OWNER TO ${role}`);
    hbaFile = (await query<{ setting: string }>(adminUrl, "SELECT setting FROM pg_settings WHERE name = 'hba_file'"))[0]!.setting;
    hbaBefore = (await query<{ text: string }>(adminUrl, 'SELECT pg_read_file($1) AS text', [hbaFile]))[0]!.text;
    // First match wins: this rule goes before the cluster's `trust` lines.
    await writeHba(`host ${database} ${role} 127.0.0.1/32 scram-sha-256\n${hbaBefore}`);
    for (let tries = 0; !(await passwordAsked()); tries++) {
      if (tries > 200) throw new Error('the server did not apply the pg_hba.conf rule');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    if (hbaBefore !== '') await writeHba(hbaBefore.replace(/\n$/, ''));
    await dropDatabase(adminUrl, database);
    await query(adminUrl, `DROP ROLE IF EXISTS ${role}`);
  });

  const urlWith = (secret?: string) => `postgres://${role}${secret === undefined ? '' : `:${secret}`}@${address.host}/${database}`;
  const noPasswordEnv = { PGPASSWORD: undefined, PGPASSFILE: undefined };

  it('a wrong or missing password is refused with an error that names neither', async () => {
    const wrongInUrl = await runBin(['--db', urlWith(wrong), 'courses', 'list'], { env: { ...home.env, ...noPasswordEnv } });
    expect(wrongInUrl.code).toBe(3);
    expect(wrongInUrl.stderr).toContain(`cannot open store ${urlWith()}: authentication failed (password authentication failed for user "${role}")`);
    const wrongInEnv = await runBin(['--db', urlWith(), 'courses', 'list'], { env: { ...home.env, PGPASSWORD: wrong } });
    expect(wrongInEnv.code).toBe(3);
    const none = await runBin(['--db', urlWith(), 'courses', 'list'], { env: { ...home.env, ...noPasswordEnv } });
    expect(none.code).not.toBe(0);
    for (const run of [wrongInUrl, wrongInEnv, none]) expect(printed(run)).not.toMatch(new RegExp(`${wrong}|${password}`));
  });

  it('the URL, PGPASSWORD and ~/.pgpass each open the store; the password shows nowhere', async () => {
    const fromUrl = await runBin(['--db', urlWith(password), 'import', DEMO], { env: { ...home.env, ...noPasswordEnv } });
    expect(fromUrl.code).toBe(0);
    const fromEnv = await runBin(['--db', urlWith(), 'whoami'], { env: { ...home.env, PGPASSWORD: password } });
    expect(fromEnv).toMatchObject({ code: 0 });
    expect(fromEnv.stdout).toContain(`local ${urlWith()}`);
    // pg reads ~/.pgpass (HOME here is the test's folder): host:port:database:user:password, mode 0600.
    const pgpassHome = tempHome();
    try {
      writeFileSync(join(pgpassHome.dir, '.pgpass'), `${address.hostname}:${address.port}:${database}:${role}:${password}\n`, { mode: 0o600 });
      const fromPgpass = await runBin(['--db', urlWith(), 'courses', 'list'], { env: { ...pgpassHome.env, ...noPasswordEnv } });
      expect(fromPgpass).toMatchObject({ code: 0, stdout: expect.stringContaining('crs_data101') });
      const served = await startServe(['--db', urlWith(), '--log', 'json'], pgpassHome.env);
      const health = await fetch(`${served.url}/api/v1/courses/crs_data101`, { headers: INSTRUCTOR });
      expect(health.status).toBe(200);
      expect(await served.stop()).toBe(0);
      for (const text of [printed(fromUrl), printed(fromEnv), printed(fromPgpass), JSON.stringify(served.line) + served.stderr()])
        expect(text).not.toContain(password);
    } finally {
      pgpassHome.cleanup();
    }
  });
});

afterAll(() => home.cleanup());
