/**
 * `serve --memory --seed FILE` keeps the store it loaded as an image, so the next start with
 * the same seed opens the image instead of validating and importing the file again: a CI
 * pipeline that starts a fixture server per test file pays for its seed once.
 *
 * An image is reused only when it is exactly what importing would give now:
 * - the key covers the seed's bytes, the build (the bundle's content-hashed chunk name, so
 *   any change to the code gives new keys), the schema version, and the fixed clock if any;
 * - an image is saved only when the import never read a running clock (a record without a
 *   time takes the import's "now", which a later start would give differently). With
 *   `--now` or `--deterministic` the clock is frozen at a known instant, part of the key.
 * Anything that goes wrong with the cache (unreadable, damaged, unwritable) falls back to
 * the import: the cache can make a start faster, never different.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION } from '../store/migrations.js';

/** Where images are kept (the command line gives a folder under the user's cache directory). */
export interface SeedCache {
  read(key: string): Promise<Uint8Array | null>;
  write(key: string, image: Uint8Array): Promise<void>;
  /** Where it is, for the note a start from the cache prints. */
  where: string;
  /** The build's identity; by default the content hash in the bundled module's file name. */
  build?: string;
}

/** Bumped when what an image holds, or how it is keyed, changes. */
const FORMAT = 1;

/**
 * The CLI's bundle is one file named `coursebook-<HASH>.cjs`, esbuild's hash of all of its
 * code (a module's URL in it is the bundle's): so the name changes with any change to the
 * code. Run unbundled (tsc's dist/, the tests) there is no hash, and no cache unless the
 * caller names a build.
 */
export function bundledBuild(moduleUrl: string): string | null {
  const name = basename(fileURLToPath(moduleUrl));
  return /-[A-Z0-9]{8}\.c?js$/.test(name) ? name : null;
}

/** The key of a seed's image: its bytes (or its text, as UTF-8) with everything else it depends on. */
export function seedCacheKey(build: string, seed: string | Uint8Array, frozenClock: string | null): string {
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, build, SCHEMA_VERSION, frozenClock]))
    .update('\n')
    .update(seed)
    .digest('hex');
}
