/** Timestamps in: RFC 3339 checked, then written one way (UTC, milliseconds, `Z`). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRfc3339, normalizeTimestamp } from '../../src/schemas/common.js';

describe('normalizeTimestamp', () => {
  it.each([
    ['2026-11-22T08:30:00Z', '2026-11-22T08:30:00.000Z'],
    ['2026-11-22T08:30:00.5Z', '2026-11-22T08:30:00.500Z'],
    ['2026-11-22t08:30:00.123456+01:00', '2026-11-22T07:30:00.123Z'],
    ['2026-11-22T08:30:00.000z', '2026-11-22T08:30:00.000Z'],
    ['2026-11-22T00:30:00.000-01:00', '2026-11-22T01:30:00.000Z'],
    ['2026-11-22T08:30:00.000Z', '2026-11-22T08:30:00.000Z'],
  ])('%s -> %s', (input, want) => {
    expect(isRfc3339(input)).toBe(true);
    expect(normalizeTimestamp(input)).toBe(want);
  });

  it('a timestamp already in the output form is its own normal form (the shortcut agrees with the Date round trip)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString();
        expect(isRfc3339(iso)).toBe(true);
        expect(normalizeTimestamp(iso)).toBe(new Date(Date.parse(iso)).toISOString());
      }),
      { numRuns: 500 },
    );
  });
});
