import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../helpers/cli.js';
import { type Served, startServe } from '../helpers/serve.js';

const home = tempHome();
const FIXTURE = join(home.dir, 'fixture.json');
let served: Served;

beforeAll(async () => {
  writeFileSync(
    FIXTURE,
    JSON.stringify({
      coursebook: 1,
      users: [
        { id: 'admin', name: 'Admin', admin: true },
        { id: 'owner', name: 'Owner' },
        { id: 'm', name: 'M' },
        { id: 'r', name: 'R' },
        ...[1, 2, 3].flatMap((k) => [
          { id: `x${k}`, name: `X${k}` },
          { id: `y${k}`, name: `Y${k}` },
        ]),
      ],
      tokens: [
        { token: 'admin-token', userId: 'admin', scopes: ['*'] },
        { token: 'owner-token', userId: 'owner', scopes: ['*'] },
      ],
      templates: [
        { id: 'tpl_a', name: 'A', accessFloor: 50 },
        { id: 'tpl_b', name: 'B', accessFloor: 60 },
        { id: 'tpl_u', name: 'Personal', owner: { kind: 'user', userId: 'owner' }, accessFloor: 10 },
      ],
    }),
  );
  expect((await runCli(['--db', home.db, 'import', FIXTURE], { env: home.env })).code).toBe(0);
  served = await startServe(['--memory', '--seed', FIXTURE, '--log', 'off', '--deterministic', '--allow-admin']);
});
afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

const local = (args: string[]) => runCli(['--db', home.db, ...args], { env: home.env });
const remote = (token: string, args: string[]) => runCli(['--base-url', served.url, '--token', token, ...args], { env: home.env });

describe('templates bulk-update', () => {
  it('--dry-run previews each change and changes nothing', async () => {
    const res = await local(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=80', '--dry-run']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('tpl_a  A\n    accessFloor: 50 -> 80');
    expect(res.stdout).toContain('tpl_b  B\n    accessFloor: 60 -> 80');
    expect(res.stdout).not.toContain('tpl_u');
    expect(res.stdout).toMatch(/2 templates would change/);
    expect(JSON.parse((await local(['--json', 'templates', 'show', 'tpl_a'])).stdout).accessFloor).toBe(50);
  });

  it('needs --yes when not interactive (exit 2); --where is required', async () => {
    const res = await local(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=80']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--yes/);
    expect((await local(['templates', 'bulk-update', '--set', 'accessFloor=80', '--yes'])).code).toBe(2);
  });

  it('locally applies all in one transaction: an invalid value changes nothing (exit 3)', async () => {
    const bad = await local(['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=180', '--yes']);
    expect(bad.code).toBe(3);
    expect(JSON.parse((await local(['--json', 'templates', 'show', 'tpl_a'])).stdout).accessFloor).toBe(50);
    const ok = await local([
      'templates',
      'bulk-update',
      '--where',
      'owner.kind=institution',
      '--set',
      'accessFloor=80',
      '--set',
      'tutorDefaults.lesson=on',
      '--yes',
    ]);
    expect(ok.code).toBe(0);
    const a = JSON.parse((await local(['--json', 'templates', 'show', 'tpl_a'])).stdout);
    expect(a).toMatchObject({ accessFloor: 80, tutorDefaults: { lesson: 'on', assignment: 'off' } });
  });

  it('remotely sends one PATCH each and reports failures with a non-zero exit', async () => {
    // The owner may change only their own template: two of three fail with forbidden.
    const res = await remote('owner-token', ['templates', 'bulk-update', '--where', 'accessFloor=10', '--set', 'name=Mine', '--yes']);
    expect(res).toEqual({ code: 0, stdout: 'updated 1 template: tpl_u\n', stderr: 'tpl_u  Personal\n    name: "Personal" -> "Mine"\n' });
    const mixed = await remote('owner-token', ['templates', 'bulk-update', '--where', 'description=""', '--set', 'accessFloor=70', '--yes']);
    const refused = 'forbidden: Only admins or the owner of a user-owned template may change it.';
    expect(mixed).toMatchObject({
      code: 4,
      stdout: `updated 1 of 3: tpl_u\nfailed 2 of 3:\n  tpl_a: ${refused}\n  tpl_b: ${refused}\n`,
      stderr: expect.stringMatching(/\nerror \(forbidden\): 2 of 3 template updates failed\.\n$/),
    });
  });

  it("remotely every template is tried: a 5xx and a dropped connection are named with the rest, and the exit is the first failure's", async () => {
    const fault = (path: string, ...how: string[]) =>
      remote('admin-token', ['fixture', 'faults', 'create', '--method', 'PATCH', '--path', path, '--times', '1', ...how]);
    expect((await fault('/templates/tpl_a', '--status', '503')).code).toBe(0);
    expect((await fault('/templates/tpl_b', '--drop')).code).toBe(0);
    const args = ['templates', 'bulk-update', '--where', 'description=""', '--set', 'accessFloor=33', '--yes', '--concurrency', '1'];
    const res = await remote('admin-token', args);
    expect(res).toMatchObject({
      code: 1,
      stdout:
        'updated 1 of 3: tpl_u\nfailed 2 of 3:\n' +
        '  tpl_a: unexpected: the service answered 503: Injected fault (rule flt_1).\n' +
        `  tpl_b: unreachable: cannot reach ${served.url}: the connection was closed before a complete answer (UND_ERR_SOCKET)\n`,
    });
    // The preview comes first, whatever happens next; then the error, with the first failure's exit.
    expect(res.stderr).toBe(
      'tpl_a  A\n    accessFloor: 50 -> 33\ntpl_b  B\n    accessFloor: 60 -> 33\ntpl_u  Mine\n    accessFloor: 70 -> 33\nerror: 2 of 3 template updates failed.\n',
    );
    // Failures with different codes: the exit is the first one's, in preview order (tpl_a: conflict, 6).
    expect((await fault('/templates/tpl_a', '--status', '409')).code).toBe(0);
    expect((await fault('/templates/tpl_b', '--drop')).code).toBe(0);
    const json = await remote('admin-token', ['--json', ...args.map((a) => (a === 'accessFloor=33' ? 'accessFloor=34' : a))]);
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toMatchObject({
      changed: ['tpl_u'],
      failed: [
        { id: 'tpl_a', code: 'conflict', message: 'Injected fault (rule flt_3).' },
        { id: 'tpl_b', code: 'unreachable', message: `cannot reach ${served.url}: the connection was closed before a complete answer (UND_ERR_SOCKET)` },
      ],
    });
    expect(json.stderr).toBe('{"error":{"code":"conflict","message":"2 of 3 template updates failed."}}\n');
    const floors = JSON.parse((await remote('admin-token', ['--json', 'templates', 'list'])).stdout).map((t: { accessFloor: number }) => t.accessFloor);
    expect(floors).toEqual([50, 60, 34]);
  });
});

describe('templates bulk-update: the same answer locally and remotely', () => {
  beforeAll(async () => {
    // Both sides as the fixture made them (the tests above changed each differently).
    const reset = ['templates', 'bulk-update', '--yes'];
    for (const [where, set] of [
      ['id=tpl_a', 'accessFloor=50'],
      ['id=tpl_b', 'accessFloor=60'],
      ['id=tpl_u', 'accessFloor=10'],
      ['id=tpl_u', 'name=Personal'],
      ['id=tpl_a', 'tutorDefaults={"lesson":"off","assignment":"off"}'],
      ['id=tpl_b', 'tutorDefaults={"lesson":"off","assignment":"off"}'],
    ]) {
      await local([...reset, '--where', where!, '--set', set!]);
      await remote('admin-token', [...reset, '--where', where!, '--set', set!]);
    }
    expect((await local(['--json', 'templates', 'list'])).stdout.replace(/"updated(By|At)":"[^"]*"/g, '')).toBe(
      (await remote('admin-token', ['--json', 'templates', 'list'])).stdout.replace(/"updated(By|At)":"[^"]*"/g, ''),
    );
  });
  const both = async (token: string, args: string[]) => {
    const [here, there] = [await local(['--as', token === 'owner-token' ? 'owner' : 'admin', ...args]), await remote(token, args)];
    expect(here).toEqual(there);
    return here;
  };

  it('an owner updates their own template: the same bytes, the same exit (0)', async () => {
    const args = ['templates', 'bulk-update', '--where', 'owner.kind=user', '--set', 'accessFloor=70', '--yes'];
    expect(await both('owner-token', args)).toEqual({ code: 0, stdout: 'updated 1 template: tpl_u\n', stderr: 'tpl_u  Personal\n    accessFloor: 10 -> 70\n' });
    expect((await both('owner-token', ['--json', ...args.map((a) => (a === 'accessFloor=70' ? 'accessFloor=71' : a))])).stdout).toBe(
      '{"preview":[{"id":"tpl_u","patch":{"accessFloor":71},"changes":["accessFloor: 70 -> 71"]}],"changed":["tpl_u"],"failed":[]}\n',
    );
  });

  it('templates that are not theirs: forbidden for each, the same bytes, the same exit (4)', async () => {
    const args = ['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=5'];
    const refused = 'forbidden: Only admins or the owner of a user-owned template may change it.';
    for (const mode of ['--dry-run', '--yes']) expect((await both('owner-token', [...args, mode])).code).toBe(4);
    expect((await both('owner-token', [...args, '--yes'])).stdout).toBe(`updated 0 of 2\nfailed 2 of 2:\n  tpl_a: ${refused}\n  tpl_b: ${refused}\n`);
    expect(await both('owner-token', ['--json', ...args, '--dry-run'])).toMatchObject({
      stderr: '{"error":{"code":"forbidden","message":"2 of 2 template updates would fail."}}\n',
    });
  });

  it('an owner that does not exist: not-found for each, in the dry run as in the real run (exit 5)', async () => {
    const args = ['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'owner={"kind":"user","userId":"nobody"}'];
    const dry = await both('admin-token', [...args, '--dry-run']);
    expect(dry.code).toBe(5);
    expect(
      dry.stdout.endsWith(
        'would update 0 of 2\nwould fail 2 of 2:\n  tpl_a: not-found: User "nobody" was not found.\n  tpl_b: not-found: User "nobody" was not found.\n',
      ),
    ).toBe(true);
    expect((await both('admin-token', [...args, '--yes'])).code).toBe(5);
  });
});

describe('reporting lines and certificates via the CLI', () => {
  it('separate processes adding opposite lines at once: exactly one of each pair wins', async () => {
    const runs = await Promise.all(
      [1, 2, 3].flatMap((k) => [local(['reporting-lines', 'create', `x${k}`, `y${k}`]), local(['reporting-lines', 'create', `y${k}`, `x${k}`])]),
    );
    for (let k = 0; k < 3; k++) {
      expect([runs[2 * k]!.code, runs[2 * k + 1]!.code].sort(), `pair ${k + 1}: ${runs[2 * k]!.stderr} ${runs[2 * k + 1]!.stderr}`).toEqual([0, 6]);
    }
  });

  it('a loop is refused with exit 6 and named', async () => {
    expect((await local(['reporting-lines', 'create', 'm', 'r'])).code).toBe(0);
    const loop = await local(['reporting-lines', 'create', 'r', 'm']);
    expect(loop.code).toBe(6);
    expect(loop.stderr).toContain('r -> m -> r');
  });
});
