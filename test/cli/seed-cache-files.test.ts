/**
 * serve's seed cache on disk (src/serve/seed-cache-files.ts): where it lives, whole images
 * only, and which images stay.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSeedCache, seedCacheDir } from '../../src/serve/seed-cache-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-seed-cache-'));
  dirs.push(d);
  return join(d, 'seeds');
};
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);
const names = (dir: string) => readdirSync(dir).sort();
/** Makes an image look `secondsAgo` old. */
const age = (dir: string, key: string, secondsAgo: number) => {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(join(dir, `${key}.sqlite`), at, at);
};

describe('the seed cache on disk', () => {
  it('lives in $COURSEBOOK_CACHE_DIR, else $XDG_CACHE_HOME/coursebook/seeds, else ~/.cache/coursebook/seeds', () => {
    expect(seedCacheDir({ COURSEBOOK_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(seedCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/coursebook/seeds');
    expect(seedCacheDir({ HOME: '/h' })).toBe('/h/.cache/coursebook/seeds');
  });

  it('gives back exactly what was written, nothing for an unknown key, and leaves no temporary file', async () => {
    const dir = tempDir();
    const cache = fileSeedCache(dir);
    expect(await cache.read('k1')).toBeNull();
    await cache.write('k1', bytes(100, 7));
    expect(Buffer.from((await cache.read('k1'))!)).toEqual(Buffer.from(bytes(100, 7)));
    expect(names(dir)).toEqual(['k1.sqlite']);
  });

  it('keeps the images used last, by count and by total size, and always the newest', async () => {
    const dir = tempDir();
    const cache = fileSeedCache(dir, { keep: 3, maxBytes: 1000 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) {
      await cache.write(key, bytes(100));
      age(dir, key, 100 - i * 10);
    }
    // Reading "a" makes it the one used last of the three.
    await cache.read('a');
    await cache.write('d', bytes(100));
    expect(names(dir)).toEqual(['a.sqlite', 'c.sqlite', 'd.sqlite']);
    age(dir, 'a', 10);
    age(dir, 'd', 5);
    // Over the byte limit: the ones used longest ago go (d, used 5 s ago, stays beside e; a
    // and c would take the total past 1,000 bytes).
    await cache.write('e', bytes(850));
    expect(names(dir)).toEqual(['d.sqlite', 'e.sqlite']);
    // The image just written stays even when it alone is over the limit.
    await cache.write('f', bytes(2000));
    expect(names(dir)).toEqual(['f.sqlite']);
  });
});
