import { randomBytes } from 'node:crypto';

/** Id generator: `next('crs')` -> `crs_...`. Random by default, sequential under --deterministic. */
export interface Ids {
  next(prefix: string): string;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `n` random Crockford base32 characters (5 bits each, no modulo bias). */
export function randomBase32(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += CROCKFORD[bytes[i]! & 31];
  return out;
}

export const randomIds = (): Ids => ({ next: (prefix) => `${prefix}_${randomBase32(12).toLowerCase()}` });

/** Sequential ids (`crs_0001`, `crs_0002`, ...), counted per prefix, for reproducible fixtures. */
export const sequentialIds = (): Ids => {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${String(n).padStart(4, '0')}`;
    },
  };
};
