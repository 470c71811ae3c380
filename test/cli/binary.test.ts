/**
 * The few tests that need the real binary: start-up, exit codes through a real process,
 * and `serve` picking its store the same way every local command does.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, runCli, tempHome } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';

const home = tempHome();
afterAll(() => home.cleanup());

describe('bin/coursebook', () => {
  it('prints its version and exits 0', async () => {
    const res = await runBin(['--version']);
    expect(res).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('an unknown command is a usage error (exit 2) with help on stderr', async () => {
    const res = await runBin(['nonsense']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown command/);
  });

  it('a missing course through a real process exits 5 with the envelope on stderr under --json', async () => {
    const res = await runBin(['--memory', '--json', 'courses', 'show', 'nope']);
    expect(res.code).toBe(5);
    expect(JSON.parse(res.stderr).error.code).toBe('not-found');
  });
});

describe('serve picks its store like every local command', () => {
  it("--profile P serve uses the profile's db (it used to ignore it)", async () => {
    const db = join(home.dir, 'profile-store.db');
    expect((await runCli(['config', 'set', 'db', db, '--name', 'p'], { env: home.env })).code).toBe(0);
    expect((await runCli(['--profile', 'p', 'courses', 'create', '--title', 'Kept in the profile store', '--id', 'crs_prof'], { env: home.env })).code).toBe(0);
    const token = (await runCli(['--profile', 'p', 'tokens', 'create', '--name', 'ci', '--scope', '*'], { env: home.env })).stdout.trim();
    expect(token).toMatch(/^cbk_/);
    const served = await startServe(['--profile', 'p', '--log', 'off'], home.env);
    try {
      // The served store is the profile's: the token and the course made through it are there.
      const res = await fetch(`${served.url}/api/v1/courses/crs_prof`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { title: string }).title).toBe('Kept in the profile store');
    } finally {
      await served.stop();
    }
  });
});

describe('the built binary against a service (its remote client)', () => {
  it('reads a list and checks health through undici, which the bundle loads from node_modules', async () => {
    const served = await startServe(['--memory', '--seed', 'data/demo.json', '--log', 'off']);
    try {
      const list = await runBin(['--base-url', served.url, '--token', 'demo-admin-token', '--json', 'courses', 'list']);
      expect(list.code).toBe(0);
      expect((JSON.parse(list.stdout) as { id: string }[]).map((c) => c.id)).toEqual(['crs_data101']);
      expect(await runBin(['health', served.url])).toMatchObject({ code: 0, stdout: 'ok\n' });
    } finally {
      await served.stop();
    }
  });

  it('a refused token exits 4 with the envelope on stderr under --json', async () => {
    const served = await startServe(['--memory', '--seed', 'data/demo.json', '--log', 'off']);
    try {
      const res = await runBin(['--base-url', served.url, '--token', 'not-a-token', '--json', 'courses', 'list']);
      expect(res.code).toBe(4);
      expect(JSON.parse(res.stderr).error.code).toBe('unauthenticated');
    } finally {
      await served.stop();
    }
  });
});
