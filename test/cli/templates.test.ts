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
  served = await startServe(['--memory', '--seed', FIXTURE, '--log', 'off', '--deterministic']);
});
afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

const local = (args: string[]) => runCli(['--db', home.db, ...args], { env: home.env });

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
    const remote = ['--base-url', served.url, '--token', 'owner-token'];
    // The owner may change only their own template: two of three fail with forbidden.
    const res = await runCli([...remote, 'templates', 'bulk-update', '--where', 'accessFloor=10', '--set', 'name=Mine', '--yes']);
    expect(res.code).toBe(0);
    const mixed = await runCli([...remote, 'templates', 'bulk-update', '--where', 'description=""', '--set', 'accessFloor=70', '--yes']);
    expect(mixed.code).toBe(4);
    expect(mixed.stderr).toMatch(/updated 1, failed 2/);
    expect(mixed.stderr).toMatch(/tpl_a: forbidden/);
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
