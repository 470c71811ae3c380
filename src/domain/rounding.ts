/**
 * Half-up rounding to tenths: the one rule for every percentage coursebook shows (category
 * and course grades, override and final grades, the gradebook export, readiness).
 *
 * Exact on purpose. A fraction is rounded in integers, and a stored decimal by its decimal
 * digits, never through a product of doubles: 100 * 17.99 / 20 is 89.94999999999999 in
 * floating point and the double written 89.95 is 89.9499999999999957..., yet both are
 * 90.0 here, as on paper.
 */

/** A finite number as the decimal it stands for: `significand` x 10^`exponent`, both exact. */
export interface ShortestDecimal {
  significand: bigint;
  exponent: number;
}

/**
 * The shortest decimal that reads back as `value` (what String(value) writes): the number a
 * person typed or stored, so 0.1 is exactly 1/10 and 89.95 is exactly 8995/100.
 */
export function shortestDecimal(value: number): ShortestDecimal {
  const text = String(value);
  const m = /^(-?)(\d*)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!m) throw new Error(`not a finite number: ${text}`);
  const fraction = m[3] ?? '';
  const digits = BigInt((m[2] || '0') + fraction);
  return { significand: m[1] ? -digits : digits, exponent: Number(m[4] ?? 0) - fraction.length };
}

/** num / den (integers, num >= 0, den > 0) rounded half-up to tenths. */
export function roundFractionToTenths(num: number | bigint, den: number | bigint): number {
  if (typeof num === 'number' && typeof den === 'number') {
    // tenths = floor((20 num + den) / (2 den)): integers, which doubles hold exactly below
    // 2^53; the quotient of one division is off by at most one, and corrected here.
    const a = 20 * num + den;
    const b = 2 * den;
    if (a + b < Number.MAX_SAFE_INTEGER) {
      let tenths = Math.floor(a / b);
      if (tenths * b > a) tenths--;
      else if ((tenths + 1) * b <= a) tenths++;
      return tenths / 10;
    }
  }
  const bigDen = BigInt(den);
  return tenthsToNumber((20n * BigInt(num) + bigDen) / (2n * bigDen));
}

/** A stored decimal >= 0 (an override percent, say) rounded half-up to tenths by its digits: 89.95 -> 90, 89.94 -> 89.9. */
export function roundDecimalToTenths(value: number): number {
  const { significand, exponent } = shortestDecimal(value);
  if (exponent >= -1) return value; // at most one decimal already
  return roundFractionToTenths(significand, 10n ** BigInt(-exponent));
}

/** A count of tenths as the number nearest to it / 10: one division when exact, else the decimal text parsed. */
function tenthsToNumber(tenths: bigint): number {
  if (tenths <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(tenths) / 10;
  return Number(`${tenths / 10n}.${tenths % 10n}`);
}
