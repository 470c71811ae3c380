/**
 * Exact decimal arithmetic for grading. Inputs are JS numbers standing for their shortest
 * decimal; they become integers in a common unit (10^k) so sums are exact in doubles while
 * below 2^53, with BigInt used wherever a product could go past that.
 */
import { roundFractionToTenths, shortestDecimal } from '../rounding.js';

/** Decimal places of x's shortest representation (0.25 -> 2, 10 -> 0, 1e-7 -> 7). */
export function decimalsOf(x: number): number {
  if (Number.isInteger(x)) return 0;
  for (let d = 1; d <= 15; d++) {
    const p = 10 ** d;
    if (Math.round(x * p) / p === x) return d;
  }
  return Math.max(0, -shortestDecimal(x).exponent);
}

/** x as an exact BigInt count of 10^-d units (x must have at most d decimals). */
export function toUnitsBig(x: number, d: number): bigint {
  const { significand, exponent } = shortestDecimal(x);
  const shift = d + exponent;
  return shift >= 0 ? significand * 10n ** BigInt(shift) : significand / 10n ** BigInt(-shift);
}

/** x in 10^-d units as a number, exact while below 2^53 (checked). */
export function toUnits(x: number, d: number): number {
  const fast = Math.round(x * 10 ** d);
  if (Math.abs(fast) < 2 ** 52 && d <= 15 && Math.abs(fast / 10 ** d - x) <= Math.abs(x) * 1e-15) return fast;
  const big = toUnitsBig(x, d);
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`value ${x} is too large for exact grading at ${d} decimal places`);
  }
  return Number(big);
}

/** n / 10^d as a plain decimal string: no exponent, no trailing zeros. */
export function unitsToDecimalString(n: bigint | number, d: number): string {
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

/** Integer arithmetic on either exact doubles (fast) or BigInt (when products may pass 2^53). */
export interface Arith<T> {
  of(n: number): T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  cmp(a: T, b: T): number;
  min(a: T, b: T): T;
  toBig(a: T): bigint;
}

export const NUM: Arith<number> = {
  of: (n) => n,
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  min: (a, b) => (a < b ? a : b),
  toBig: (a) => BigInt(a),
};

export const BIG: Arith<bigint> = {
  of: (n) => BigInt(n),
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  min: (a, b) => (a < b ? a : b),
  toBig: (a) => a,
};

/**
 * The weighted course percentage, sum(w * category %) / min(sum of the non-empty weights,
 * 100), rounded half-up to one decimal; null when every category is empty. A double
 * estimate is within 1e-9 of the exact value (a handful of correctly rounded operations on
 * values below 1e4), so when it is more than 1e-6 away from a rounding boundary it decides
 * the rounding; otherwise the exact BigInt sum does. Either way the result is exact.
 */
export function weightedCoursePercent(catNum: (number | bigint)[], catDen: (number | bigint)[], weights: bigint[], hundredW: bigint): number | null {
  let W = 0n;
  let estimate = 0;
  for (let ci = 0; ci < catNum.length; ci++) {
    if (catDen[ci] === 0) continue;
    W += weights[ci]!;
    estimate += Number(weights[ci]!) * (Number(catNum[ci]!) / Number(catDen[ci]!));
  }
  if (W <= 0n) return null;
  const t = (estimate / Number(W < hundredW ? W : hundredW)) * 10 + 0.5;
  const f = t - Math.floor(t);
  if (f > 1e-6 && f < 1 - 1e-6 && t < 1e12) return Math.floor(t) / 10;
  let accN = 0n;
  let accD = 1n;
  for (let ci = 0; ci < catNum.length; ci++) {
    if (catDen[ci] === 0) continue;
    const num = BigInt(catNum[ci]!);
    const den = BigInt(catDen[ci]!);
    accN = accN * den + weights[ci]! * num * accD;
    accD *= den;
  }
  return roundFractionToTenths(accN, accD * (W < hundredW ? W : hundredW));
}
