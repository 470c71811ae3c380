/**
 * #17: CLI processes started together on a new store file used to fail now and then with
 * "table users already exists" (the schema version was read outside the migration's
 * transaction). Real processes running the built binary, all started at once.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { runBin, tempHome } from '../helpers/cli.js';

const home = tempHome();
afterAll(() => home.cleanup());

describe('a new store file opened by 8 processes at once', () => {
  it('every process succeeds, the schema is created once and every write lands', async () => {
    const db = join(home.dir, 'fresh.db');
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runBin(['--db', db, '--json', 'courses', 'create', '--title', `Course ${i}`, '--id', `crs_p${i}`], { env: home.env }),
      ),
    );
    for (const [i, run] of runs.entries()) {
      // Each may announce the new store (several can see it missing at once); nothing else.
      expect(run.stderr, `process ${i}`).toMatch(/^(creating a new store at [^\n]+\n)?$/);
      expect(run.code, `process ${i}`).toBe(0);
      expect(JSON.parse(run.stdout).id).toBe(`crs_p${i}`);
    }
    const raw = new Database(db, { readonly: true });
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const ids = (raw.prepare('SELECT id FROM courses ORDER BY id').all() as { id: string }[]).map((r) => r.id);
      expect(ids).toEqual(Array.from({ length: 8 }, (_, i) => `crs_p${i}`));
      // One local admin, made by whichever process came first.
      expect(raw.prepare('SELECT id FROM users').all()).toEqual([{ id: 'local' }]);
    } finally {
      raw.close();
    }
  });

  it('a store from a newer build is still refused by every process, with no stack trace (exit 3)', async () => {
    const db = join(home.dir, 'newer.db');
    const raw = new Database(db);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const runs = await Promise.all(Array.from({ length: 3 }, () => runBin(['--db', db, 'courses', 'list'], { env: home.env })));
    for (const run of runs) {
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/newer coursebook/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
