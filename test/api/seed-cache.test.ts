/**
 * serve --memory --seed keeps the store it loaded as an image (serve/seed-cache.ts): a start
 * from the cache must be indistinguishable from an import of the seed (same records, same
 * ids and clock after it, same reset), and anything wrong with the cache falls back to the
 * import.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SeedCache } from '../../src/serve/seed-cache.js';
import { BASE_DATASET } from '../helpers/app.js';
import { fixture } from '../helpers/fixture.js';

/** A cache in a Map, counting reads that found an image and writes. */
function memoryCache(build = 'test-build') {
  const images = new Map<string, Uint8Array>();
  const counts = { hits: 0, writes: 0 };
  const cache: SeedCache = {
    where: 'memory',
    build,
    read: async (key) => {
      const image = images.get(key) ?? null;
      if (image) counts.hits++;
      return image;
    },
    write: async (key, image) => {
      counts.writes++;
      images.set(key, image);
    },
  };
  return { cache, images, counts };
}

const cachedNotes = (logs: Record<string, unknown>[]) => logs.filter((l) => l.event === 'seed-cached');

/** What a client can see of a fixture: every record, and what the next writes are given. */
async function observable(f: Awaited<ReturnType<typeof fixture>>) {
  const dump = await f.call('GET', '/dump');
  const created = await f.call('POST', '/courses', { body: { title: 'After start' } });
  const clock = await f.call('GET', '/_admin/clock');
  return { dump: dump.body, created: created.body, clock: clock.body };
}

describe('serve --memory --seed: the seed cache', () => {
  it('a second start with the same seed opens the kept store and is indistinguishable from an import', async () => {
    const { cache, counts } = memoryCache();
    const first = await fixture({ seedCache: cache });
    expect(counts).toEqual({ hits: 0, writes: 1 });
    expect(cachedNotes(first.logs)).toEqual([]);
    const second = await fixture({ seedCache: cache });
    expect(counts).toEqual({ hits: 1, writes: 1 });
    expect(cachedNotes(second.logs)).toEqual([
      { event: 'seed-cached', message: 'loaded seed.json from the seed cache in memory (--no-seed-cache imports it again)', seed: 'seed.json' },
    ]);
    const plain = await fixture();
    const [a, b, c] = [await observable(first), await observable(second), await observable(plain)];
    expect(b).toEqual(c);
    expect(a).toEqual(c);
    expect(b.created.id).toBeTypeOf('string');
  });

  it('a reset of a start from the cache restores the seed (parsed only then)', async () => {
    const { cache } = memoryCache();
    await fixture({ seedCache: cache });
    const f = await fixture({ seedCache: cache });
    const before = (await f.call('GET', '/dump')).body;
    expect((await f.call('POST', '/courses', { body: { title: 'Scratch' } })).status).toBe(201);
    expect((await f.call('POST', '/_reset')).status).toBe(200);
    expect((await f.call('GET', '/dump')).body).toEqual(before);
  });

  it('another seed, another build or another frozen clock is another key', async () => {
    const { cache, counts, images } = memoryCache();
    await fixture({ seedCache: cache });
    await fixture({ seedCache: cache }, { ...BASE_DATASET, users: [...(BASE_DATASET.users ?? []), { id: 'extra', name: 'Extra' }] });
    await fixture({ seedCache: { ...cache, build: 'another-build' } });
    await fixture({ seedCache: cache, now: '2027-01-01T00:00:00.000Z' });
    expect(counts).toEqual({ hits: 0, writes: 4 });
    expect(images.size).toBe(4);
  });

  it('a seed that takes a time from a running clock is never kept; with a frozen clock it is', async () => {
    const undated = {
      coursebook: 1,
      users: [{ id: 'admin', name: 'A', admin: true }],
      tokens: [{ id: 't1', token: 'tok-admin', userId: 'admin', scopes: ['*'], createdAt: '2026-01-01T00:00:00.000Z' }],
      courses: [{ id: 'c1', title: 'No createdAt' }],
    };
    const running = memoryCache();
    await fixture({ seedCache: running.cache, now: undefined, deterministic: false }, undated);
    await fixture({ seedCache: running.cache, now: undefined, deterministic: false }, undated);
    expect(running.counts).toEqual({ hits: 0, writes: 0 });
    const frozen = memoryCache();
    await fixture({ seedCache: frozen.cache }, undated);
    const again = await fixture({ seedCache: frozen.cache }, undated);
    expect(frozen.counts).toEqual({ hits: 1, writes: 1 });
    expect((await again.call('GET', '/courses/c1')).body.createdAt).toBe('2026-11-22T08:30:00.000Z');
  });

  it('a damaged image, or a cache that fails to read or write, falls back to the import', async () => {
    const { cache, images, counts } = memoryCache();
    await fixture({ seedCache: cache });
    for (const key of images.keys()) images.set(key, new TextEncoder().encode('not a database'));
    const f = await fixture({ seedCache: cache });
    expect(cachedNotes(f.logs)).toEqual([]);
    expect((await f.call('GET', '/courses/c1')).status).toBe(200);
    expect(counts.writes).toBe(2); // imported again, and kept again
    const failing: SeedCache = {
      where: 'nowhere',
      build: 'b',
      read: async () => {
        throw new Error('EACCES');
      },
      write: async () => {
        throw new Error('ENOSPC');
      },
    };
    expect((await (await fixture({ seedCache: failing })).call('GET', '/courses/c1')).status).toBe(200);
  });

  it('is used with --memory only, and not at all without a build identity (an unbundled run)', async () => {
    const { cache, counts } = memoryCache();
    const dir = mkdtempSync(join(tmpdir(), 'cb-seed-cache-'));
    try {
      // A store file keeps its own data between starts: nothing to cache.
      const onFile = await fixture({ seedCache: cache, db: join(dir, 'fixture.db') });
      expect((await onFile.call('GET', '/courses/c1')).status).toBe(200);
      expect(counts).toEqual({ hits: 0, writes: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const { build: _build, ...unnamed } = cache;
    await fixture({ seedCache: unnamed });
    await fixture({ seedCache: unnamed });
    expect(counts).toEqual({ hits: 0, writes: 0 });
  });
});
