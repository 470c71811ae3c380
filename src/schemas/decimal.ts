import { z } from '@hono/zod-openapi';

/**
 * Gradebook numbers are stored as a fixed-point gradebook keeps them: rounded half-up to 6
 * decimal places. The rounding works on the number's decimal text (its shortest
 * round-trip form, what the JSON said), never on its binary value: 0.1234565 becomes
 * 0.123457 and 9.9999995 becomes 10, where rounding the double would give 0.123456 and
 * 9.999999. Float artefacts from scripts (0.1 + 0.2 = 0.30000000000000004, 25 / 3) become
 * the value the person meant (0.3, 8.333333).
 */
export const DECIMAL_PLACES = 6;

/** The largest points, score or course cap a gradebook accepts. */
export const MAX_POINTS = 1_000_000_000;

/** `x` (finite) rounded half away from zero to `places` decimals of its decimal text. */
export function roundDecimalText(x: number, places = DECIMAL_PLACES): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  // Nearly every number sent already has at most `places` decimals in its text: kept as it is.
  const text = String(x);
  const point = text.indexOf('.');
  if (point >= 0 && text.length - point - 1 <= places && !text.includes('e')) return x;
  const negative = x < 0;
  const { digits, pointAt } = decimalDigits(Math.abs(x));
  // digits[0..pointAt) is the integer part; keep `places` digits after the point.
  const keep = pointAt + places;
  if (keep >= digits.length) return x;
  if (keep < 0) return 0;
  const kept = digits.slice(0, keep).split('').map(Number);
  if (Number(digits[keep]) >= 5) {
    let i = kept.length - 1;
    for (; i >= 0; i--) {
      if (kept[i]! < 9) {
        kept[i]!++;
        break;
      }
      kept[i] = 0;
    }
    if (i < 0) {
      kept.unshift(1);
      return signed(Number(joinDigits(kept, pointAt + 1)), negative);
    }
  }
  return signed(Number(joinDigits(kept, pointAt)), negative);
}

const signed = (v: number, negative: boolean) => (negative && v !== 0 ? -v : v);

function joinDigits(digits: number[], pointAt: number): string {
  const text = digits.join('');
  if (pointAt <= 0) return `0.${'0'.repeat(-pointAt)}${text}`;
  return pointAt >= text.length ? text : `${text.slice(0, pointAt)}.${text.slice(pointAt)}`;
}

/** The shortest round-trip decimal digits of a non-negative finite number and where its point sits. */
function decimalDigits(x: number): { digits: string; pointAt: number } {
  const [mantissa, exponentText] = String(x).split('e');
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const [whole, fraction = ''] = mantissa!.split('.');
  const digits = `${whole}${fraction}`;
  return { digits, pointAt: whole!.length + exponent };
}

/** A non-negative gradebook number, stored at 6 decimals; `max` bounds it after rounding. */
export function decimal6(max?: number) {
  const checked = max === undefined ? z.number().min(0) : z.number().min(0).max(max);
  return z
    .number()
    .transform((v) => roundDecimalText(v))
    .pipe(checked);
}

/**
 * A number rounded to 6 decimals and not yet bounded: a spreadsheet cell's score, whose
 * bounds the import checks itself so that a refusal can name the cell's row and column.
 */
export const RoundedNumber = z
  .number()
  .transform((v) => roundDecimalText(v))
  .pipe(z.number());

/** Points, scores and course caps: at most 1,000,000,000, stored at 6 decimals. */
export const GradePoints = decimal6(MAX_POINTS);
/** A percentage from 0 to 100 (weights, late penalty per period), stored at 6 decimals. */
export const Percent100 = decimal6(100);
/** A percentage with no upper bound (a final-grade override, a category's extra-credit cap). */
export const OpenPercent = decimal6();
