/**
 * #18, moving a store between dialects with real processes, as docs/deployment.md says:
 * `coursebook dump --db FILE | coursebook import - --db postgres://...` and the reverse. The
 * store moved is the demo after writes made on its own dialect (override history, a revoked
 * token, a certificate, an attestation, text beyond ASCII), and dump -> import -> dump gives
 * the same bytes across dialects, there and back.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ROOT, runBin, runCli, tempHome } from '../helpers/cli.js';
import { createDatabase, dropDatabase } from '../helpers/postgres.js';
import { copyOfTemplate, pipeBin } from './postgres-cli-helpers.js';

const adminUrl = inject('pgAdminUrl');
const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
const databases: string[] = [];
afterAll(async () => {
  home.cleanup();
  for (const name of databases) await dropDatabase(adminUrl, name);
});

const databaseName = (what: string) => {
  const name = `move_${what}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  databases.push(name);
  return name;
};

/** The demo, then writes through the CLI on this store's own dialect. */
async function storeWithHistory(db: string) {
  const run = async (args: string[]) => {
    const res = await runCli(['--db', db, ...args], { env: home.env });
    expect(res.stderr.replace(/^importing .*\n|^creating a new store .*\n/gm, '')).toBe('');
    expect(res.code).toBe(0);
  };
  await run(['import', DEMO]);
  await run(['gradebook', 'final', 'set', '--course', 'crs_data101', '--user', 'usr_s03', '--letter', 'B', '--reason', 'Re-weighted after appeal']);
  await run(['gradebook', 'final', 'set', '--course', 'crs_data101', '--user', 'usr_s03', '--percent', '84.125', '--reason', 'Second look']);
  await run(['tokens', 'revoke', 'tok_demo_reviewer']);
  await run(['certificates', 'issue', '--course', 'crs_data101', '--user', 'usr_s04']);
  await run(['readiness', 'attest', '--course', 'crs_data101', '--item', '7.1', '--note', 'Support links — in the syllabus ✓']);
  await run(['users', 'create', '--name', 'Zoë Ünïcode 𝔘', '--email', 'zoe@example.org']);
  await run(['courses', 'create', '--id', 'crs_quoted', '--title', 'A "quoted" title \\ with a backslash']);
}

/** `coursebook dump --db FROM | coursebook import - --db TO`; then TO's dump. */
async function move(from: string, to: string): Promise<string> {
  const piped = await pipeBin(['dump', '--db', from], ['import', '-', '--db', to], home.env);
  expect(piped.from).toMatchObject({ code: 0, stderr: '' });
  expect(piped.to.code).toBe(0);
  const dumped = await runBin(['dump', '--db', to], { env: home.env });
  expect(dumped.code).toBe(0);
  return dumped.stdout;
}

describe('moving a store between SQLite and PostgreSQL', () => {
  it('SQLite -> PostgreSQL (a new, empty database) -> SQLite: every dump has the same bytes', async () => {
    const file = join(home.dir, 'from-sqlite.db');
    await storeWithHistory(file);
    const original = (await runBin(['dump', '--db', file], { env: home.env })).stdout;
    expect(JSON.parse(original).finalGradeHistory.length).toBeGreaterThan(2);
    const postgres = await createDatabase(adminUrl, databaseName('empty'));
    expect(await move(file, postgres)).toBe(original);
    expect(await move(postgres, join(home.dir, 'back-to-sqlite.db'))).toBe(original);
  });

  it('PostgreSQL -> SQLite -> PostgreSQL: every dump has the same bytes', async () => {
    const postgres = await copyOfTemplate(adminUrl, databaseName('source'));
    await storeWithHistory(postgres);
    const original = (await runBin(['dump', '--db', postgres], { env: home.env })).stdout;
    expect(JSON.parse(original).courses.map((c: { id: string }) => c.id)).toEqual(['crs_data101', 'crs_quoted']);
    const file = join(home.dir, 'from-postgres.db');
    expect(await move(postgres, file)).toBe(original);
    expect(await move(file, await copyOfTemplate(adminUrl, databaseName('back')))).toBe(original);
  });
});
