/**
 * Exact integer and decimal arithmetic for grading.
 *
 * Scores, points, weights and penalties are JS numbers that stand for their shortest decimal
 * (0.1 is exactly 1/10). Per course they become integers in one decimal unit (grade-units.ts)
 * and all arithmetic is on integers. An integer here is an ExactInt: a double while it is a
 * safe integer (the fast path: machine arithmetic, no allocation) and a BigInt beyond, so no
 * value is too large and no result is ever rounded. The helpers keep the form canonical (a
 * value that fits is always a number), so `typeof` tells which path a value is on.
 */
import { shortestDecimal } from '../rounding.js';

/** An exact integer: a number while |value| <= 2^53 - 1, a BigInt beyond. */
export type ExactInt = number | bigint;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

/** A BigInt in canonical form: a number when it fits. */
export function exactInt(value: bigint): ExactInt {
  return value <= MAX_SAFE_BIG && value >= -MAX_SAFE_BIG ? Number(value) : value;
}

// For safe integers a and b, the double a + b, a - b or a * b is exact whenever the true
// result is a safe integer, and at least 2^53 in size otherwise (rounding is monotonic and
// 2^53 is a double): one range check tells whether the fast result is the exact one.

export function add(a: ExactInt, b: ExactInt): ExactInt {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    if (sum <= MAX_SAFE && sum >= -MAX_SAFE) return sum;
  }
  return exactInt(BigInt(a) + BigInt(b));
}

export function sub(a: ExactInt, b: ExactInt): ExactInt {
  if (typeof a === 'number' && typeof b === 'number') {
    const difference = a - b;
    if (difference <= MAX_SAFE && difference >= -MAX_SAFE) return difference;
  }
  return exactInt(BigInt(a) - BigInt(b));
}

export function mul(a: ExactInt, b: ExactInt): ExactInt {
  if (typeof a === 'number' && typeof b === 'number') {
    const product = a * b;
    if (product <= MAX_SAFE && product >= -MAX_SAFE) return product;
  }
  return exactInt(BigInt(a) * BigInt(b));
}

// JavaScript compares a number with a BigInt by their exact values.
export const compare = (a: ExactInt, b: ExactInt): number => (a < b ? -1 : a > b ? 1 : 0);
export const min = (a: ExactInt, b: ExactInt): ExactInt => (a < b ? a : b);
export const max = (a: ExactInt, b: ExactInt): ExactInt => (a > b ? a : b);

/** Whether every value is a number (then sums and products can be bounded in doubles). */
export function allNumbers(values: readonly ExactInt[]): values is number[] {
  for (const v of values) if (typeof v !== 'number') return false;
  return true;
}

/**
 * 10^d for d = 0..22, each exact in a double: the same values `10 ** d` gives, looked up
 * instead of computed (the export converts two million cells, and Math.pow was a tenth of it).
 */
const POW10: readonly number[] = Object.freeze(Array.from({ length: 23 }, (_, d) => 10 ** d));

/** Whether x's shortest representation has at most d decimal places (the test decimalsOf makes at d). */
export function hasAtMostDecimals(x: number, d: number): boolean {
  if (d > 15) return decimalsOf(x) <= d;
  const p = POW10[d] ?? 10 ** d;
  return Math.round(x * p) / p === x;
}

/** Decimal places of x's shortest representation (0.25 -> 2, 10 -> 0, 1e-7 -> 7, 5e-324 -> 324). */
export function decimalsOf(x: number): number {
  if (Number.isInteger(x)) return 0;
  for (let d = 1; d <= 15; d++) {
    const p = POW10[d] ?? 10 ** d;
    if (Math.round(x * p) / p === x) return d;
  }
  return Math.max(0, -shortestDecimal(x).exponent);
}

/** x as an exact count of 10^-d units (x must have at most d decimals), however large. */
export function toUnits(x: number, d: number): ExactInt {
  if (d <= 15) {
    // x is the double nearest its d-decimal value N / 10^d, and x * 10^d adds one more
    // rounding: together under |N| * 2^-52, so below 2^51 rounding recovers N exactly. The
    // second test catches an x with more than d decimals.
    const p = POW10[d] ?? 10 ** d;
    const scaled = Math.round(x * p);
    if (Math.abs(scaled) < 2 ** 51 && Math.abs(scaled / p - x) <= Math.abs(x) * 1e-15) return scaled;
  }
  // Past that (more digits than a double spells exactly, or a value too large): BigInt.
  return exactInt(toUnitsBig(x, d));
}

/** x as an exact BigInt count of 10^-d units (x must have at most d decimals). */
export function toUnitsBig(x: number, d: number): bigint {
  const { significand, exponent } = shortestDecimal(x);
  const shift = d + exponent;
  return shift >= 0 ? significand * 10n ** BigInt(shift) : significand / 10n ** BigInt(-shift);
}

/** units / 10^digits as the nearest JS number (what parsing its decimal text gives). */
export function unitsToNumber(units: ExactInt, digits: number): number {
  // One division of two exact doubles is correctly rounded: the same nearest number.
  if (typeof units === 'number' && digits <= 22) return units / (POW10[digits] ?? 10 ** digits);
  return Number(unitsToDecimalString(units, digits));
}

/** n / 10^d as a plain decimal string: no exponent, no trailing zeros. */
export function unitsToDecimalString(n: ExactInt, d: number): string {
  let v = BigInt(n);
  const neg = v < 0n;
  if (neg) v = -v;
  let s = v.toString();
  if (d > 0) {
    s = s.padStart(d + 1, '0');
    s = `${s.slice(0, -d)}.${s.slice(-d)}`.replace(/\.?0+$/, '');
  }
  return (neg ? '-' : '') + s;
}

/** A number written plainly: 87.5, 10, 0.25, 1000000000000000000000; never 1e+21. */
export function plainNumber(x: number): string {
  const s = String(x);
  const a = Math.abs(x);
  // String() writes an exponent only below 1e-6 and from 1e21 on.
  if (a === 0 || (a >= 1e-6 && a < 1e21) || !/e/i.test(s)) return s;
  return unitsToDecimalString(toUnitsBig(x, decimalsOf(x)), decimalsOf(x));
}
