/**
 * The drop oracle: every subset, in BigInt, with grading.md's tie rules, written
 * independently of the engine's drop search (tests only; exponential in the item count).
 */
import type { DropChoice, DropInput } from '../../../src/domain/grading/index.js';

type Ratio = [bigint, bigint];

export function dropsByExhaustiveSearch(input: DropInput): DropChoice {
  const earned = input.earned.map(BigInt);
  const possible = input.possible.map(BigInt);
  const totalEarned = earned.reduce((a, b) => a + b, 0n);
  const totalPossible = possible.reduce((a, b) => a + b, 0n);
  const candidates = input.earned.map((_, i) => i).filter((i) => input.droppable[i]);
  const ratioAfter = (removed: number[]): Ratio => {
    let e = totalEarned;
    let q = totalPossible;
    for (const i of removed) {
      e -= earned[i]!;
      q -= possible[i]!;
    }
    const x = BigInt(input.extraCredit);
    if (!input.cap) return [e + x, q];
    const num = BigInt(input.cap.num);
    const den = BigInt(input.cap.den);
    const cappedX = x * den < q * num ? x * den : q * num;
    return [e * den + cappedX, q * den];
  };
  const compareRatios = (a: Ratio, b: Ratio) => {
    const l = a[0] * b[1];
    const r = b[0] * a[1];
    return l < r ? -1 : l > r ? 1 : 0;
  };
  const low = input.lowest > 0 ? bestSubset(candidates, Math.min(input.lowest, candidates.length), true, ratioAfter, compareRatios) : [];
  const rest = candidates.filter((i) => !low.includes(i));
  const h = Math.min(input.highest, rest.length);
  const high =
    h > 0
      ? bestSubset(
          rest,
          h,
          false,
          (r) => ratioAfter([...low, ...r]),
          (a, b) => -compareRatios(a, b),
        )
      : [];
  return { lowest: low, highest: high };
}

/**
 * The preferred subset of D (sizes 0..k when atMost, else exactly k): the best ratio, then
 * the most items, then the earliest items compared as lists.
 */
function bestSubset(D: number[], k: number, atMost: boolean, ratioOf: (removed: number[]) => Ratio, better: (a: Ratio, b: Ratio) => number): number[] {
  let best: { set: number[]; ratio: Ratio } | null = null;
  for (const set of subsets(D, k, atMost)) {
    const ratio = ratioOf(set);
    const c = best === null ? 1 : better(ratio, best.ratio);
    if (best === null || c > 0 || (c === 0 && (set.length > best.set.length || (set.length === best.set.length && listLess(set, best.set)))))
      best = { set, ratio };
  }
  return best?.set ?? [];
}

function* subsets(D: number[], k: number, atMost: boolean, from = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === k || (atMost && prefix.length <= k)) {
    if (atMost || prefix.length === k) yield prefix;
    if (prefix.length === k) return;
  }
  for (let i = from; i < D.length; i++) yield* subsets(D, k, atMost, i + 1, [...prefix, D[i]!]);
}

function listLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}
