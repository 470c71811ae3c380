/** All-BigInt references for the grading engine's fast paths (tests only). */

/** num / den (>= 0) rounded half-up to tenths, in BigInt throughout, as the number its decimal text reads as. */
export function tenthsByBigInt(num: bigint, den: bigint): number {
  const tenths = (20n * num + den) / (2n * den);
  return Number(`${tenths / 10n}.${tenths % 10n}`);
}
