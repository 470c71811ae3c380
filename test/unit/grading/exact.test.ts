import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, decimalsOf, hasAtMostDecimals, mul, sub, toUnits, unitsToDecimalString, unitsToNumber } from '../../../src/domain/grading/exact.js';

const MAX = Number.MAX_SAFE_INTEGER; // 2^53 - 1 = 9007199254740991

describe('ExactInt: a number while safe, a BigInt beyond', () => {
  it('sums, differences and products past 2^53 - 1 become BigInt, exactly', () => {
    expect(add(MAX, 1)).toBe(9007199254740992n);
    expect(add(MAX, 2)).toBe(9007199254740993n); // the double MAX + 2 is 9007199254740992
    expect(sub(-MAX, 2)).toBe(-9007199254740993n);
    expect(mul(94906267, 94906267)).toBe(9007199515875289n); // just past 2^53: the double says ...288
    expect(mul(3, 3002399751580331)).toBe(9007199254740993n);
  });

  it('results that fit are numbers again, so typeof tells the path', () => {
    expect(add(MAX, -1)).toBe(9007199254740990);
    expect(sub(9007199254740993n, 2)).toBe(MAX);
    expect(mul(10n ** 20n, 0)).toBe(0);
  });
});

describe('decimal units', () => {
  it('reads a value as its shortest decimal in 10^-d units, however large', () => {
    expect(toUnits(0.1 + 0.2, 17)).toBe(30000000000000004n);
    expect(toUnits(8.333333333333334, 15)).toBe(8333333333333334);
    expect(toUnits(5e-324, 324)).toBe(5);
    expect(toUnits(1e21, 0)).toBe(10n ** 21n);
    expect(toUnits(12.5, 3)).toBe(12500);
  });

  it('16 significant digits: rounding x * 10^d in doubles is off by one past 2^51, so BigInt reads it', () => {
    // 39280751017.93308 * 1e5 rounds to 3928075101793309 in doubles
    expect(Math.round(39280751017.93308 * 1e5)).toBe(3928075101793309);
    expect(toUnits(39280751017.93308, 5)).toBe(3928075101793308);
  });

  it('counts decimal places of the shortest decimal', () => {
    expect(decimalsOf(0.25)).toBe(2);
    expect(decimalsOf(0.1 + 0.2)).toBe(17);
    expect(decimalsOf(33.333333333333336)).toBe(15);
    expect(decimalsOf(5e-324)).toBe(324);
    expect(decimalsOf(9007199254740991)).toBe(0);
  });

  it('converts units back to the nearest number', () => {
    expect(unitsToNumber(6175, 3)).toBe(6.175);
    expect(unitsToNumber(599999999999999976n, 17)).toBe(6);
    expect(unitsToNumber(333333333333333360n, 17)).toBe(3.3333333333333335);
    expect(unitsToNumber(5, 324)).toBe(5e-324);
  });

  it('a number of units converts to what its decimal text parses to, at every digit count (the looked-up powers of ten)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: 0, max: 30 }), (units, digits) => {
        expect(unitsToNumber(units, digits)).toBe(Number(unitsToDecimalString(units, digits)));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads and counts decimals at every place up to 15 as before the lookup (round trips)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 9), max: 10 ** 9 }), fc.integer({ min: 0, max: 6 }), (n, d) => {
        const x = Number(unitsToDecimalString(n, d));
        expect(toUnits(x, d)).toBe(n);
        expect(decimalsOf(x)).toBeLessThanOrEqual(d);
        expect(hasAtMostDecimals(x, d)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
