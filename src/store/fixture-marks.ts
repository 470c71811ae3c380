/**
 * The mark serve leaves in a store it made from its --seed (migration 7): the seed's
 * SHA-256 and name. A restart on the same store with the same seed reads it to know the
 * store as the fixture's own, whose reset may run (domain/fixture/reset-refusal.ts).
 */
import type { Store } from './db.js';

export interface FixtureMark {
  seedSha256: string;
  seedName: string;
}

/** Marks the store as made from this seed (the one mark it holds). */
export async function markFixtureStore(store: Store, mark: FixtureMark): Promise<void> {
  await store.run('DELETE FROM fixture_marks');
  await store.run('INSERT INTO fixture_marks (seed_sha256, seed_name) VALUES (?, ?)', mark.seedSha256, mark.seedName);
}

/** The store's mark, or null for a store no fixture made. */
export async function fixtureMark(store: Store): Promise<FixtureMark | null> {
  const row = (await store.get('SELECT seed_sha256, seed_name FROM fixture_marks')) as { seed_sha256: string; seed_name: string } | undefined;
  return row ? { seedSha256: row.seed_sha256, seedName: row.seed_name } : null;
}
