// serve's reset empties the store with wipeStore and loads the seed again: the store must then
// be as a new one, numbering included, on either dialect (the PostgreSQL test project also
// reuses its databases through it).
import { afterEach, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/store/dataset.js';
import { isStoreEmpty, wipeStore } from '../../src/store/wipe.js';
import { BASE_DATASET, makeService, type TestService } from '../helpers/app.js';
import { column } from '../helpers/store-sql.js';

let svc: TestService;
afterEach(() => svc?.close());

const ASSIGNMENTS = [
  { id: 'a1', moduleId: 'm1', title: 'A1', points: 10, status: 'published' as const },
  { id: 'a2', moduleId: 'm1', title: 'A2', points: 10, status: 'published' as const },
];

describe('wipeStore', () => {
  it('leaves no record, and the numbered tables count from 1 again', async () => {
    svc = await makeService({ assignments: ASSIGNMENTS });
    for (const letter of ['A', 'B']) {
      const version = letter === 'A' ? 0 : 1;
      expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r', expectedVersion: version, letter }, 'inst')).status).toBe(200);
    }
    const numbers = async () => ({
      slots: await column(svc.store, 'SELECT slot FROM grade_slots ORDER BY slot'),
      history: await column(svc.store, 'SELECT seq FROM final_grade_history ORDER BY seq'),
    });
    const first = await numbers();
    expect(first).toEqual({ slots: [1, 2], history: [1, 2] });

    await wipeStore(svc.store);
    expect(await isStoreEmpty(svc.store)).toBe(true);
    await importDataset(svc.store, svc.clock, { ...BASE_DATASET, assignments: ASSIGNMENTS }, { replace: false });
    for (const letter of ['A', 'B']) {
      const version = letter === 'A' ? 0 : 1;
      expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r', expectedVersion: version, letter }, 'inst')).status).toBe(200);
    }
    expect(await numbers()).toEqual(first);
  });
});
