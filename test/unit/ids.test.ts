// runtime/ids.ts: random ids are `prefix_` and 12 lower-case Crockford base32 digits (no i, l,
// o or u); certificate codes are upper-case; secrets are base64url. Drawn from one pool.
import { describe, expect, it } from 'vitest';
import { randomIds, sequentialIds } from '../../src/runtime/ids.js';

describe('ids', () => {
  it('a random id is its prefix and 12 lower-case Crockford digits; codes are upper case; no two alike', () => {
    const ids = randomIds();
    const drawn = Array.from({ length: 2000 }, () => ids.next('req'));
    for (const id of drawn) expect(id).toMatch(/^req_[0-9abcdefghjkmnpqrstvwxyz]{12}$/);
    expect(new Set(drawn).size).toBe(drawn.length);
    // Every digit turns up: the alphabet is all 32, in either case.
    expect(new Set(drawn.join('').replaceAll('req_', '')).size).toBe(32);
    expect(ids.draw(8)).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{8}$/);
    expect(ids.secret()).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
  });

  it('sequential ids count in the same digits', () => {
    const ids = sequentialIds();
    expect([ids.next('req'), ids.next('req')]).toEqual(['req_0001', 'req_0002']);
  });
});
