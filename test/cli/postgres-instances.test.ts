/**
 * #18, several `serve` instances on one PostgreSQL database (real processes, a database of
 * the run's cluster each): what one instance acknowledges, the others see; same-version
 * writers split across instances get exactly one winner; an instance killed with SIGKILL
 * loses no write it acknowledged; instances started together on an empty database migrate
 * it once (the advisory lock of src/store/postgres.ts) and load their shared --seed once.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';
import { createDatabase, dropDatabase } from '../helpers/postgres.js';
import { type Served, startServe } from '../helpers/serve.js';
import { copyOfTemplate, query } from './postgres-cli-helpers.js';

const adminUrl = inject('pgAdminUrl');
const DEMO = join(ROOT, 'data/demo.json');
const INSTRUCTOR = { authorization: 'Bearer demo-instructor-token', 'content-type': 'application/json' };
const ADMIN = { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' };
const home = tempHome();
const databases: string[] = [];
const running: Served[] = [];

const databaseName = (what: string) => {
  const name = `inst_${what}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  databases.push(name);
  return name;
};

async function serveOn(url: string): Promise<Served> {
  const served = await startServe(['--db', url, '--log', 'off', '--rate-limit', 'off'], home.env);
  running.push(served);
  return served;
}

afterAll(async () => {
  for (const served of running) if (served.child.exitCode === null && served.child.signalCode === null) await served.stop('SIGKILL');
  home.cleanup();
  for (const name of databases) await dropDatabase(adminUrl, name);
});

const finalPath = (student: string) => `/api/v1/courses/crs_data101/gradebook/students/${student}/final`;

interface HistoryEntry {
  version: number;
  newLetter: string | null;
  reason: string;
}

async function history(server: Served, student: string): Promise<HistoryEntry[]> {
  const res = await fetch(`${server.url}${finalPath(student)}/history`, { headers: INSTRUCTOR });
  expect(res.status).toBe(200);
  return (await res.json()) as HistoryEntry[];
}

function putFinal(server: Served, student: string, expectedVersion: number, letter: string, reason: string) {
  return fetch(`${server.url}${finalPath(student)}`, { method: 'PUT', headers: INSTRUCTOR, body: JSON.stringify({ reason, expectedVersion, letter }) });
}

describe('two serve instances on one PostgreSQL database', () => {
  let a: Served;
  let b: Served;
  beforeAll(async () => {
    const url = await copyOfTemplate(adminUrl, databaseName('shared'));
    expect((await runCli(['--db', url, 'import', DEMO], { env: home.env })).code).toBe(0);
    [a, b] = await Promise.all([serveOn(url), serveOn(url)]);
  });

  it('20 concurrent same-version final-grade PUTs split across them: exactly one 200 and 19 409 conflicts', async () => {
    const letters = ['A', 'B', 'C', 'D'];
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await putFinal(i % 2 === 0 ? a : b, 'usr_s02', 0, letters[i % letters.length]!, `writer ${i}`);
        return { i, status: res.status, body: await res.json() };
      }),
    );
    const winners = answers.filter((x) => x.status === 200);
    const conflicts = answers.filter((x) => x.status === 409);
    expect(winners).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    expect(winners[0]!.body).toEqual({ ok: true, version: 1 });
    for (const c of conflicts) expect((c.body as { error: unknown }).error).toMatchObject({ code: 'conflict', details: { currentVersion: 1 } });
    // Both instances read the one write that won, and nothing else.
    const won = winners[0]!.i;
    for (const server of [a, b])
      expect((await history(server, 'usr_s02')).map((h) => [h.version, h.newLetter, h.reason])).toEqual([[1, letters[won % letters.length], `writer ${won}`]]);
  });

  it('a kill -9 of one instance during a stream of writes loses no acknowledged write (read through the other)', async () => {
    // Four writers per instance, one student each, one request at a time: each writer sends
    // the version its last acknowledged write returned, so every write is one the service
    // accepts, and at most one write per writer is in flight when its instance dies.
    const acked: { student: string; version: number; reason: string }[] = [];
    const ackedOn = { a: 0, b: 0 };
    let killed = false;
    let ackedOnBAtKill = 0;
    const KILL_AFTER = 20;
    const MORE_ON_B_AFTER_KILL = 12;
    const writer = async (name: 'a' | 'b', server: Served, student: string) => {
      let version = 0;
      for (let n = 0; ; n++) {
        if (name === 'b' && killed && ackedOn.b >= ackedOnBAtKill + MORE_ON_B_AFTER_KILL) return;
        const reason = `${name}:${student}:${n}`;
        let res: Response;
        try {
          res = await putFinal(server, student, version, ['A', 'B', 'C'][n % 3]!, reason);
        } catch (err) {
          // The killed instance: the socket is gone, the write is unacknowledged.
          if (name === 'a' && killed) return;
          throw err;
        }
        const body = (await res.json().catch(() => null)) as { version: number } | null;
        if (name === 'a' && killed && res.status !== 200) return;
        expect(res.status, JSON.stringify(body)).toBe(200);
        version = body!.version;
        acked.push({ student, version, reason });
        ackedOn[name]++;
        if (name === 'a' && !killed && ackedOn.a >= KILL_AFTER) {
          killed = true;
          ackedOnBAtKill = ackedOn.b;
          a.child.kill('SIGKILL');
        }
      }
    };
    const studentsOfA = ['usr_s10', 'usr_s11', 'usr_s12', 'usr_s13'];
    const studentsOfB = ['usr_s14', 'usr_s15', 'usr_s16', 'usr_s17'];
    await Promise.all([...studentsOfA.map((s) => writer('a', a, s)), ...studentsOfB.map((s) => writer('b', b, s))]);
    const signal = a.child.signalCode ?? (await new Promise((resolve) => a.child.once('exit', (_code, sig) => resolve(sig))));
    expect(signal).toBe('SIGKILL');
    expect(ackedOn.a).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(ackedOn.b).toBeGreaterThanOrEqual(MORE_ON_B_AFTER_KILL);

    for (const student of [...studentsOfA, ...studentsOfB]) {
      const seen = await history(b, student);
      const mine = acked.filter((w) => w.student === student);
      // Every acknowledged write is there, with its own reason at its own version.
      for (const w of mine) expect(seen.find((h) => h.version === w.version)?.reason).toBe(w.reason);
      // Beyond them, at most the one write that was in flight when the instance died.
      expect(seen.length - mine.length).toBeGreaterThanOrEqual(0);
      expect(seen.length - mine.length).toBeLessThanOrEqual(studentsOfA.includes(student) ? 1 : 0);
    }
  });
});

describe('instances started at the same moment on an empty database', () => {
  it('both migrate it and only one loads the --seed they share: one schema, the seed once, and what one writes the other reads', async () => {
    const url = await createDatabase(adminUrl, databaseName('empty'));
    const start = () => startServe(['--db', url, '--seed', DEMO, '--log', 'off', '--rate-limit', 'off'], home.env);
    const [first, second] = await Promise.all([start(), start()]);
    running.push(first, second);
    expect(await query(url, 'SELECT version FROM coursebook_schema')).toEqual([{ version: SCHEMA_VERSION }]);
    // The other one found the seed loaded, said so, and serves it.
    const skipped = [first, second].filter((s) => s.stderr().includes('already holds data, so'));
    expect(skipped).toHaveLength(1);
    expect(await query(url, 'SELECT count(*)::int AS n FROM users')).toEqual([{ n: 29 }]);
    const created = await fetch(`${first.url}/api/v1/courses`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ id: 'crs_from_first', title: 'Written through the first instance' }),
    });
    expect(created.status).toBe(201);
    const read = await fetch(`${second.url}/api/v1/courses/crs_from_first`, { headers: ADMIN });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { title: string }).title).toBe('Written through the first instance');
  });
});
