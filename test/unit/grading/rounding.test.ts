import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundDecimalToTenths, roundFractionToTenths, shortestDecimal } from '../../../src/domain/rounding.js';
import { tenthsByBigInt } from './bigint-reference.js';

describe('half-up rounding to tenths', () => {
  it('rounds fractions exactly, half a tenth up', () => {
    expect(roundFractionToTenths(8995, 100)).toBe(90); // 89.95 -> 90.0
    expect(roundFractionToTenths(89949999, 1_000_000)).toBe(89.9);
    expect(roundFractionToTenths(100 * 1799, 20 * 100)).toBe(90); // 17.99 of 20 is 89.95%, where 100 * 17.99 / 20 in doubles is 89.94999999999999
    expect(roundFractionToTenths(2, 3)).toBe(0.7);
    expect(roundFractionToTenths(0, 7)).toBe(0);
    expect(roundFractionToTenths(10n ** 30n + 5n, 10n)).toBe(1e29); // BigInt in, the nearest double out
  });

  it('in doubles equals the BigInt rounding, boundaries included', () => {
    const nearBoundary = fc
      .record({ den: fc.integer({ min: 1, max: 10 ** 9 }), tenths: fc.integer({ min: 0, max: 20_000 }), off: fc.integer({ min: -2, max: 2 }) })
      // num/den = (tenths + 0.5) / 10 exactly, give or take a unit
      .map(({ den, tenths, off }) => ({ num: Math.max(0, ((2 * tenths + 1) * den) / 20 + off), den }))
      .filter(({ num }) => Number.isInteger(num));
    const anyPair = fc.record({ num: fc.maxSafeNat(), den: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) });
    fc.assert(
      fc.property(fc.oneof(nearBoundary, anyPair), ({ num, den }) => {
        expect(roundFractionToTenths(num, den)).toBe(tenthsByBigInt(BigInt(num), BigInt(den)));
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds a stored decimal by its digits, not by its binary value', () => {
    expect(roundDecimalToTenths(89.95)).toBe(90); // the double is 89.9499999999999957...
    expect(roundDecimalToTenths(89.96)).toBe(90);
    expect(roundDecimalToTenths(89.94)).toBe(89.9);
    expect(roundDecimalToTenths(61.25)).toBe(61.3);
    expect(roundDecimalToTenths(0.05)).toBe(0.1);
    expect(roundDecimalToTenths(70)).toBe(70);
    expect(roundDecimalToTenths(87.5)).toBe(87.5);
    expect(roundDecimalToTenths(0.30000000000000004)).toBe(0.3);
    expect(roundDecimalToTenths(1e-7)).toBe(0);
  });

  it('a stored decimal rounds like its digits as a fraction, for any number of decimals', () => {
    const decimal = fc.record({ digits: fc.bigInt({ min: 0n, max: 10n ** 15n }), places: fc.integer({ min: 0, max: 12 }) });
    fc.assert(
      fc.property(decimal, ({ digits, places }) => {
        const value = Number(`${digits}e-${places}`);
        const { significand, exponent } = shortestDecimal(value);
        const den = 10n ** BigInt(Math.max(0, -exponent));
        const num = exponent >= 0 ? significand * 10n ** BigInt(exponent) : significand;
        expect(roundDecimalToTenths(value)).toBe(tenthsByBigInt(num, den));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the shortest decimal of a number', () => {
    expect(shortestDecimal(89.95)).toEqual({ significand: 8995n, exponent: -2 });
    expect(shortestDecimal(1e21)).toEqual({ significand: 1n, exponent: 21 });
    expect(shortestDecimal(5e-324)).toEqual({ significand: 5n, exponent: -324 });
    expect(shortestDecimal(-0.25)).toEqual({ significand: -25n, exponent: -2 });
    expect(shortestDecimal(1.5e-7)).toEqual({ significand: 15n, exponent: -8 });
  });
});
