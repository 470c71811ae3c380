/**
 * serve's seed cache (serve/seed-cache.ts) as files: one image per key in
 * $COURSEBOOK_CACHE_DIR, else $XDG_CACHE_HOME/coursebook/seeds, else ~/.cache/coursebook/seeds.
 * Written to a temporary name and renamed, so a reader never sees half an image. The images
 * used last stay (a read counts as a use), at most 16 of them and 1 GiB in all (the one just
 * written is always kept); the others are removed after each write.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SeedCache } from './seed-cache.js';

const SUFFIX = '.sqlite';

export interface SeedCacheLimits {
  /** How many images stay (the newest). */
  keep: number;
  /** How many bytes they may take in all; the newest image stays whatever its size. */
  maxBytes: number;
}

export const DEFAULT_SEED_CACHE_LIMITS: SeedCacheLimits = { keep: 16, maxBytes: 1024 ** 3 };

export function seedCacheDir(env: Record<string, string | undefined>): string {
  if (env.COURSEBOOK_CACHE_DIR) return env.COURSEBOOK_CACHE_DIR;
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(base, 'coursebook', 'seeds');
}

export function fileSeedCache(dir: string, limits: SeedCacheLimits = DEFAULT_SEED_CACHE_LIMITS): SeedCache {
  return {
    where: dir,
    async read(key) {
      const file = join(dir, key + SUFFIX);
      try {
        const image = await readFile(file);
        // Used now: the images kept are the ones used last, not the ones written last.
        const now = new Date();
        await utimes(file, now, now).catch(() => undefined);
        return image;
      } catch {
        return null;
      }
    },
    async write(key, image) {
      await mkdir(dir, { recursive: true });
      const temporary = join(dir, `${key}.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(temporary, image);
      await rename(temporary, join(dir, key + SUFFIX));
      await prune(dir, limits, key + SUFFIX);
    },
  };
}

/** Removes all but the image just written and those used last, within the limits. */
async function prune(dir: string, limits: SeedCacheLimits, written: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(SUFFIX));
  const images = await Promise.all(
    names.map(async (n) => {
      const info = await stat(join(dir, n)).catch(() => null);
      return { n, at: n === written ? Number.POSITIVE_INFINITY : (info?.mtimeMs ?? 0), size: info?.size ?? 0 };
    }),
  );
  images.sort((a, b) => b.at - a.at || (a.n < b.n ? -1 : 1));
  let total = 0;
  const old = images.filter((image, i) => {
    total += image.size;
    return i > 0 && (i >= limits.keep || total > limits.maxBytes);
  });
  await Promise.all(old.map(({ n }) => rm(join(dir, n), { force: true })));
}
