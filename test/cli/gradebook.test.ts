import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';
import { type Served, startServe } from '../helpers/serve.js';

const DEMO = join(ROOT, 'data/demo.json');
const home = tempHome();
let served: Served;
const NOW = '2026-11-22T12:00:00Z';

beforeAll(async () => {
  served = await startServe(['--memory', '--seed', DEMO, '--now', NOW, '--log', 'off', '--rate-limit', 'off']);
  expect((await runCli(['--db', home.db, 'import', DEMO], { env: home.env })).code).toBe(0);
});
afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

const remote = ['--base-url', () => served.url, '--token', 'demo-instructor-token'] as const;
const remoteArgs = () => remote.map((a) => (typeof a === 'function' ? a() : a));

describe('gradebook through the CLI', () => {
  it('export writes the CSV itself, the same from the remote service', async () => {
    const remoteCsv = await runCli([...remoteArgs(), 'gradebook', 'export', '--course', 'crs_data101']);
    expect(remoteCsv.code).toBe(0);
    expect(remoteCsv.stdout.startsWith('Student,Student ID,')).toBe(true);
    expect(remoteCsv.stdout.endsWith('\r\n')).toBe(true);
    const lines = remoteCsv.stdout.split('\r\n');
    expect(lines).toHaveLength(2 + 25 + 1);
    expect(lines[1]!.startsWith('Points Possible,,')).toBe(true);
    const fields = lines.slice(0, -1).map((l) => l.split(',').length);
    expect(new Set(fields).size).toBe(1);
  });

  it('export --out writes a file and prints nothing', async () => {
    const out = join(home.dir, 'grades.csv');
    const res = await runCli([...remoteArgs(), 'gradebook', 'export', '--course', 'crs_data101', '--out', out]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(readFileSync(out, 'utf8').startsWith('Student,Student ID,')).toBe(true);
  });

  it('grades prints one row per student', async () => {
    const res = await runCli([...remoteArgs(), 'gradebook', 'grades', '--course', 'crs_data101']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(25);
  });

  it('checks and a conflicting final-grade write exit with the table codes', async () => {
    const checks = await runCli([...remoteArgs(), '--json', 'gradebook', 'checks', '--course', 'crs_data101']);
    expect(checks.code).toBe(0);
    expect(Array.isArray(JSON.parse(checks.stdout))).toBe(true);
    const stale = await runCli([
      ...remoteArgs(),
      'gradebook',
      'final',
      'set',
      '--course',
      'crs_data101',
      '--user',
      'usr_s07',
      '--letter',
      'A',
      '--reason',
      'x',
      '--expected-version',
      '0',
    ]);
    expect(stale.code).toBe(6);
    expect(stale.stderr).toMatch(/conflict/);
    const badLetter = await runCli([
      ...remoteArgs(),
      'gradebook',
      'final',
      'set',
      '--course',
      'crs_data101',
      '--user',
      'usr_s07',
      '--letter',
      'Q',
      '--reason',
      'x',
    ]);
    expect(badLetter.code).toBe(3);
    const ok = await runCli([
      ...remoteArgs(),
      '--json',
      'gradebook',
      'final',
      'set',
      '--course',
      'crs_data101',
      '--user',
      'usr_s07',
      '--letter',
      'A-',
      '--reason',
      'Regrade',
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, version: 2 });
  });

  it('20 parallel final-grade writes over HTTP with the same expectedVersion: exactly one succeeds', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${served.url}/api/v1/courses/crs_data101/gradebook/students/usr_s10/final`, {
          method: 'PUT',
          headers: { authorization: 'Bearer demo-instructor-token', 'content-type': 'application/json' },
          body: JSON.stringify({ reason: `writer ${i}`, expectedVersion: 0, percent: 80 + i / 10 }),
        }).then((r) => r.status),
      ),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(19);
  });
});
