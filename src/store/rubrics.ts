/** Standards rubrics: the built-in one, and those imported into the store. */
import { DEFAULT_RUBRIC, type Rubric } from '../domain/readiness/index.js';
import type { StandardsRubricValue } from '../schemas/readiness.js';
import type { Store } from './db.js';
import { insertRecord, type Row, RUBRICS, recordExists } from './tables.js';

export async function getStoredRubric(store: Store, id: string): Promise<StandardsRubricValue | null> {
  const row = (await store.get('SELECT * FROM rubrics WHERE id = ?', id)) as Row | undefined;
  return row ? RUBRICS.fromRow(row) : null;
}

export async function listStoredRubrics(store: Store): Promise<StandardsRubricValue[]> {
  return ((await store.all('SELECT * FROM rubrics ORDER BY id')) as Row[]).map(RUBRICS.fromRow);
}

export async function putRubric(store: Store, rubric: StandardsRubricValue): Promise<void> {
  await insertRecord(store, RUBRICS, rubric, 'upsert');
}

/** The built-in rubric, or one imported into the store. */
export async function rubricExists(store: Store, id: string): Promise<boolean> {
  return id === DEFAULT_RUBRIC.id || (await recordExists(store, RUBRICS, [id]));
}

export async function rubricById(store: Store, id: string): Promise<Rubric | null> {
  return id === DEFAULT_RUBRIC.id ? DEFAULT_RUBRIC : await getStoredRubric(store, id);
}
