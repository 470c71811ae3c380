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

/** The general check as it was before the output form got its own path: the reference. */
function generalIsRfc3339(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (day > daysInMonth || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  return !Number.isNaN(Date.parse(value));
}

describe('isRfc3339', () => {
  const digits = (n: number, max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, '0'));
  it('answers any text of the output form as the general check does (leap years, month ends, out-of-range parts)', () => {
    fc.assert(
      fc.property(
        fc.oneof(digits(4, 9999), fc.constantFrom('2000', '1900', '2024', '2100', '0100', '0099', '0000', '0400')),
        digits(2, 13),
        digits(2, 32),
        digits(2, 25),
        digits(2, 61),
        digits(2, 61),
        digits(3, 999),
        (y, mo, d, h, mi, s, ms) => {
          const text = `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`;
          expect(isRfc3339(text)).toBe(generalIsRfc3339(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['2024-02-29T00:00:00.000Z', true],
    ['2100-02-29T00:00:00.000Z', false],
    ['2000-02-29T00:00:00.000Z', true],
    ['2026-04-31T00:00:00.000Z', false],
    ['2026-12-31T23:59:59.999Z', true],
    ['2026-13-01T00:00:00.000Z', false],
    ['2026-11-22T24:00:00.000Z', false],
  ])('%s -> %s', (text, want) => {
    expect(isRfc3339(text)).toBe(want);
    expect(generalIsRfc3339(text)).toBe(want);
  });
});
