import { nodeCrypto } from './crypto.js';

/**
 * The one source of ids and random draws: `next('crs')` -> `crs_...`, certificate codes and
 * token secrets. Random by default, sequential under --deterministic, so a fixture server
 * repeats exactly.
 */
export interface Ids {
  next(prefix: string): string;
  /** `n` Crockford base32 characters (certificate codes). */
  draw(n: number): string;
  /** A bearer-token secret. */
  secret(): string;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Random bytes drawn a block at a time: one call into the system's generator per 4 KiB, not
 * per id (serve makes one per request). The first block is drawn on first use: a CLI call
 * that makes no id never loads node:crypto.
 */
function randomPool(size = 4096): (n: number) => Uint8Array {
  let pool: Uint8Array | null = null;
  let used = size;
  return (n) => {
    if (n > size) return nodeCrypto().randomBytes(n);
    if (pool === null || used + n > size) {
      pool = nodeCrypto().randomBytes(size);
      used = 0;
    }
    used += n;
    return pool.subarray(used - n, used);
  };
}

/** Ids are in lower case: the same digits, without lower-casing each id (serve makes one per request). */
const CROCKFORD_LOWER = CROCKFORD.toLowerCase();

/** `n` random Crockford base32 characters (5 bits each, no modulo bias), from `alphabet`. */
function randomBase32(bytes: Uint8Array, alphabet = CROCKFORD): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += alphabet[bytes[i]! & 31];
  return out;
}

export const randomIds = (): Ids => {
  const draw = randomPool();
  return {
    next: (prefix) => `${prefix}_${randomBase32(draw(12), CROCKFORD_LOWER)}`,
    draw: (n) => randomBase32(draw(n)),
    // A secret never shares a block with ids that are shown.
    secret: () => `cbk_${nodeCrypto().randomBytes(32).toString('base64url')}`,
  };
};

/** `n` as `width` Crockford base32 digits, zero-padded. */
function base32Counter(n: number, width: number): string {
  let out = '';
  for (let v = n; v > 0; v = Math.floor(v / 32)) out = CROCKFORD[v % 32] + out;
  return out.padStart(width, '0').slice(-width);
}

/** What a sequential source must skip: values the store already holds. */
export interface TakenCheck {
  /** True when a record of the store already has this id. */
  id(id: string): boolean;
  /** True when a token of the store already has this secret. */
  secret(secret: string): boolean;
}

/**
 * Sequential ids (`crs_0001`, `crs_0002`, ...), counted per prefix, for reproducible fixtures.
 * With `taken`, every id and secret the store already holds is skipped, so a seed that
 * holds `cert_0001` makes the first new certificate `cert_0002` instead of a collision.
 */
export const sequentialIds = (taken?: TakenCheck): Ids => {
  const counters = new Map<string, number>();
  const count = (key: string): number => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };
  const firstFree = (make: () => string, isTaken: (value: string) => boolean): string => {
    let value = make();
    while (isTaken(value)) value = make();
    return value;
  };
  return {
    next: (prefix) =>
      firstFree(
        () => `${prefix}_${String(count(prefix)).padStart(4, '0')}`,
        (id) => taken?.id(id) ?? false,
      ),
    draw: (n) => base32Counter(count(`draw:${n}`), n),
    // Same shape as a random secret (43 characters), so clients that check it still work.
    secret: () =>
      firstFree(
        () => `cbk_fixture${String(count('secret')).padStart(36, '0')}`,
        (s) => taken?.secret(s) ?? false,
      ),
  };
};
