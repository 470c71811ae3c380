/**
 * serve's seed cache (serve/seed-cache.ts) as files: one image per key in
 * $COURSEBOOK_CACHE_DIR, else $XDG_CACHE_HOME/coursebook/seeds, else ~/.cache/coursebook/seeds.
 * Written to a temporary name and renamed, so a reader never sees half an image; the newest
 * KEEP images stay and older ones are removed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SeedCache } from '../serve/seed-cache.js';

const KEEP = 16;
const SUFFIX = '.sqlite';

export function seedCacheDir(env: Record<string, string | undefined>): string {
  if (env.COURSEBOOK_CACHE_DIR) return env.COURSEBOOK_CACHE_DIR;
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(base, 'coursebook', 'seeds');
}

export function fileSeedCache(dir: string): SeedCache {
  return {
    where: dir,
    async read(key) {
      try {
        return await readFile(join(dir, key + SUFFIX));
      } catch {
        return null;
      }
    },
    async write(key, image) {
      await mkdir(dir, { recursive: true });
      const temporary = join(dir, `${key}.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(temporary, image);
      await rename(temporary, join(dir, key + SUFFIX));
      await prune(dir);
    },
  };
}

async function prune(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(SUFFIX));
  if (names.length <= KEEP) return;
  const aged = await Promise.all(names.map(async (n) => ({ n, at: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  aged.sort((a, b) => b.at - a.at);
  await Promise.all(aged.slice(KEEP).map(({ n }) => rm(join(dir, n), { force: true })));
}
