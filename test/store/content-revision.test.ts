/**
 * The content revision (#14, migration 5): triggers bump it on every real change to what a
 * course file holds, whatever the path; an upgrade from version 3 starts every course at 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/runtime/clock.js';
import { contentRevision } from '../../src/store/course-content.js';
import { importDataset } from '../../src/store/dataset.js';
import { openStore } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const CLOCK = fixedClock('2026-11-22T00:00:00.000Z');
const DATASET = {
  coursebook: 1,
  courses: [
    { id: 'c1', title: 'One' },
    { id: 'c2', title: 'Two' },
  ],
  modules: [{ id: 'm1', courseId: 'c1', title: 'M' }],
  lessons: [{ id: 'l1', moduleId: 'm1', title: 'L', minutes: 5 }],
  blocks: [{ id: 'b1', lessonId: 'l1', type: 'divider' }],
  assignments: [{ id: 'a1', moduleId: 'm1', title: 'A', points: 1, instructions: [{ id: 'i1', type: 'divider' }] }],
};

describe('content revision triggers', () => {
  it('count each inserted, changed or deleted row of the course content; identical rewrites and other courses do not count', async () => {
    const store = await openStore(':memory:');
    await importDataset(store, CLOCK, DATASET, { replace: false });
    // c1: module, lesson, assignment, two blocks, the default setup: six rows.
    expect(await contentRevision(store, 'c1')).toBe(6);
    expect(await contentRevision(store, 'c2')).toBe(1);
    // Re-importing the same records (upserts of identical rows) changes nothing.
    await importDataset(store, CLOCK, DATASET, { replace: true });
    expect(await contentRevision(store, 'c1')).toBe(6);
    await store.run("UPDATE lessons SET title = 'L2' WHERE id = 'l1'");
    await store.run("UPDATE blocks SET updated_at = '2027-01-01T00:00:00.000Z' WHERE id = 'b1'"); // bookkeeping only
    await store.run("UPDATE courses SET updated_at = '2027-01-01T00:00:00.000Z' WHERE id = 'c1'");
    expect(await contentRevision(store, 'c1')).toBe(7);
    await store.run("UPDATE blocks SET content = '{\"x\":1}' WHERE id = 'i1'"); // an instruction block counts for its course
    expect(await contentRevision(store, 'c1')).toBe(8);
    // The module and what cascades with it: how many rows still find their course is SQLite's order; it only grows.
    await store.run("DELETE FROM modules WHERE id = 'm1'");
    expect(await contentRevision(store, 'c1')).toBeGreaterThanOrEqual(9);
    expect(await contentRevision(store, 'c2')).toBe(1);
    await store.run("DELETE FROM courses WHERE id = 'c2'");
    expect(await contentRevision(store, 'c2')).toBeNull();
    await store.close();
  });

  it('an upgrade from schema version 3 keeps every course, each at revision 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-rev-'));
    dirs.push(dir);
    const path = join(dir, 'old.db');
    const raw = new Database(path);
    for (const m of MIGRATIONS.filter((x) => x.version <= 3)) raw.exec(m.sqlite);
    raw.pragma('user_version = 3');
    raw.prepare("INSERT INTO courses (id, title, created_at, updated_at) VALUES ('old', 'Old', 'x', 'x')").run();
    raw.close();
    const store = await openStore(path);
    expect(await contentRevision(store, 'old')).toBe(0);
    await store.run("UPDATE courses SET title = 'Older' WHERE id = 'old'");
    expect(await contentRevision(store, 'old')).toBe(1);
    await store.close();
  });
});
