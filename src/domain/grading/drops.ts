/**
 * Optimal drops (grading.md, "Per category, per student", step 1).
 *
 * Lowest drops maximise the category percentage over subsets of the droppable items with at
 * most `lowest` items; highest drops then minimise it with exactly `highest` items. Without
 * a binding extra-credit cap the percentage is a ratio of sums, and Dinkelbach's method
 * solves it exactly: at the current ratio q, the best removal set is the items with the
 * largest q*p - s, and q rises (or falls) until the set stops changing. With a category cap
 * on extra credit that can bind, the objective is min(two ratios), which is not a ratio of
 * sums, so subsets are enumerated (exact) while there are at most ENUMERATION_LIMIT of them.
 *
 * Ties follow grading.md: lowest drops prefer the most drops, then the items that come first
 * (sets compared as lists in item order); highest drops prefer the items that come first.
 * Item indexes here are already in course item order.
 */
import { add, allNumbers, compare, type ExactInt, min, mul, sub } from './exact.js';

export interface DropInput {
  /** Effective scores and points (grade units) of the counted items with points > 0, in course order. */
  earned: ExactInt[];
  possible: ExactInt[];
  droppable: boolean[];
  /** Extra credit of the category (grade units), before any cap. */
  extraCredit: ExactInt;
  /** The category cap on extra credit as a share of the possible points: capped X = min(X, Q * num / den). */
  cap: { num: ExactInt; den: ExactInt } | null;
  lowest: number;
  highest: number;
}

export interface DropChoice {
  lowest: number[];
  highest: number[];
}

/** Beyond this many subsets a binding cap is not enumerated; the drops then ignore the cap (see docs/grading.md). */
const ENUMERATION_LIMIT = 200_000;

/** A category percentage before the factor 100, as an exact fraction. */
type Ratio = [num: ExactInt, den: ExactInt];

export function chooseDrops(input: DropInput): DropChoice {
  const { lowest, highest } = input;
  const candidates: number[] = [];
  for (let i = 0; i < input.earned.length; i++) if (input.droppable[i]) candidates.push(i);
  const totals = categoryTotals(input);
  if (
    capCanBind(input, candidates, totals.possible) &&
    subsetCount(candidates.length, lowest, true) + subsetCount(candidates.length, highest, false) <= ENUMERATION_LIMIT
  ) {
    return enumerateCappedDrops(input, candidates, totals.earned, totals.possible);
  }
  const solve = ratioOfSumsSolver(input, totals);
  const low = lowest > 0 && candidates.length > 0 ? solve(candidates, [], lowest, true) : [];
  const lowSet = new Set(low);
  const rest = candidates.filter((i) => !lowSet.has(i));
  return { lowest: low, highest: highest > 0 && rest.length > 0 ? solve(rest, low, Math.min(highest, rest.length), false) : [] };
}

interface CategoryTotals {
  earned: ExactInt;
  possible: ExactInt;
  /**
   * Every value is a number and (E + X + Q + 1)^2 * 2 < 2^53: Dinkelbach's products
   * (e * p_i and q * s_i with e <= E + X, q <= Q) are then exact in doubles.
   */
  smallEnoughForDoubles: boolean;
}

function categoryTotals(input: DropInput): CategoryTotals {
  const { earned, possible, extraCredit } = input;
  if (typeof extraCredit === 'number') {
    let e = 0;
    let q = 0;
    let numbers = true;
    for (let i = 0; i < earned.length; i++) {
      const s = earned[i]!;
      const p = possible[i]!;
      if (typeof s !== 'number' || typeof p !== 'number') {
        numbers = false;
        break;
      }
      e += s;
      q += p;
    }
    // Every partial sum is below the bound, so the sums are exact when it holds.
    const bound = e + extraCredit + q + 1;
    if (numbers && bound * bound * 2 < Number.MAX_SAFE_INTEGER) return { earned: e, possible: q, smallEnoughForDoubles: true };
  }
  let exactEarned: ExactInt = 0;
  let exactPossible: ExactInt = 0;
  for (let i = 0; i < earned.length; i++) {
    exactEarned = add(exactEarned, earned[i]!);
    exactPossible = add(exactPossible, possible[i]!);
  }
  return { earned: exactEarned, possible: exactPossible, smallEnoughForDoubles: false };
}

/** Dinkelbach over D after `removed` is taken out: k items maximising (lowest drops) or minimising the ratio. */
type RatioOfSumsSolver = (D: number[], removed: number[], k: number, maximise: boolean) => number[];

/** The fast iteration in doubles when the totals allow it, otherwise the ExactInt one. */
function ratioOfSumsSolver(input: DropInput, totals: CategoryTotals): RatioOfSumsSolver {
  const { earned, possible } = input;
  const earnedWithExtra = add(totals.earned, input.extraCredit);
  const totalPossible = totals.possible;
  if (totals.smallEnoughForDoubles && typeof earnedWithExtra === 'number' && typeof totalPossible === 'number' && allNumbers(earned) && allNumbers(possible)) {
    return (D, removed, k, maximise) => {
      const [e, q] = remainingInDoubles(removed, earned, possible, earnedWithExtra, totalPossible);
      return dinkelbachInDoubles(D, earned, possible, e, q, k, maximise);
    };
  }
  return (D, removed, k, maximise) => {
    const [e, q] = remaining(removed, earned, possible, earnedWithExtra, totalPossible);
    return dinkelbachExact(D, earned, possible, e, q, k, maximise);
  };
}

/**
 * The cap matters only if it can bind for some allowed removal: X > (Q - the largest
 * removable points) * rate. When it cannot, the objective is a plain ratio of sums.
 */
function capCanBind(input: DropInput, candidates: number[], totalPossible: ExactInt): boolean {
  const { cap, extraCredit } = input;
  if (cap === null || !(extraCredit > 0)) return false;
  const removable = candidates
    .map((i) => input.possible[i]!)
    .sort(compare)
    .reverse()
    .slice(0, input.lowest + input.highest);
  const largestRemoval = removable.reduce(add, 0);
  return compare(mul(extraCredit, cap.den), mul(sub(totalPossible, largestRemoval), cap.num)) > 0;
}

/**
 * maximise=true: at most k items of D, maximising (E - sum s) / (Q - sum p).
 * maximise=false: exactly k items, minimising it. E includes the extra credit.
 * Exact for any sizes (ExactInt arithmetic); dinkelbachInDoubles is the same iteration
 * for values small enough to multiply in doubles.
 */
function dinkelbachExact(D: number[], s: ExactInt[], p: ExactInt[], totalEarned: ExactInt, totalPossible: ExactInt, k: number, maximise: boolean): number[] {
  let chosen: number[] = [];
  const estimate = new Float64Array(D.length);
  const error = new Float64Array(D.length);
  for (let iter = 0; iter < 200; iter++) {
    const [e, q] = remaining(chosen, s, p, totalEarned, totalPossible);
    // v_i is proportional to (ratio * p_i - s_i): positive means removing i raises the ratio.
    const next = selectByEstimate(D, s, p, e, q, k, maximise, estimate, error) ?? selectExact(D, s, p, e, q, k, maximise);
    if (sameList(next, chosen)) return next;
    chosen = next;
  }
  return chosen;
}

/** The exact step: every v_i in ExactInt, sorted with the tie rule. */
function selectExact(D: number[], s: ExactInt[], p: ExactInt[], e: ExactInt, q: ExactInt, k: number, maximise: boolean): number[] {
  const scored = D.map((i) => ({ i, v: sub(mul(e, p[i]!), mul(q, s[i]!)) }));
  scored.sort(maximise ? (a, b) => compare(b.v, a.v) || a.i - b.i : (a, b) => compare(a.v, b.v) || a.i - b.i);
  const next: number[] = [];
  for (const { i, v } of scored) {
    if (next.length >= k || (maximise && v < 0)) break;
    next.push(i);
  }
  return next.sort((a, b) => a - b);
}

/**
 * The same step decided in doubles when that is provably the exact decision: each v_i is
 * estimated with an error bound, the k best are chosen by the estimates, and the choice
 * stands only if no item's estimate is within error of the boundary the choice depends on
 * (the k-th best value, and 0 when maximising). Otherwise (near ties) it answers null and
 * the exact step decides. Products past 2^53 (scores at 6 decimals) would otherwise take
 * BigInt for every item of every iteration.
 */
function selectByEstimate(
  D: number[],
  s: ExactInt[],
  p: ExactInt[],
  e: ExactInt,
  q: ExactInt,
  k: number,
  maximise: boolean,
  v: Float64Array,
  error: Float64Array,
): number[] | null {
  const ed = Number(e);
  const qd = Number(q);
  // Every operand is within 2^-53 relative of its exact value and each product and the
  // difference add one rounding each: 8 ulps of the two products bound each item's error.
  const ERROR = 8 * 2 ** -53;
  for (let j = 0; j < D.length; j++) {
    const a = ed * Number(p[D[j]!]!);
    const b = qd * Number(s[D[j]!]!);
    v[j] = a - b;
    error[j] = (Math.abs(a) + Math.abs(b)) * ERROR;
    if (!Number.isFinite(error[j]!)) return null;
  }
  const chosen = selectBest(D, v, k, maximise);
  // The choice stands when every comparison it rests on is certain: each chosen item against
  // each item left out (k is small), and, when maximising, every item's sign.
  const chosenAt: number[] = [];
  const inChosen = new Set(chosen);
  for (let j = 0; j < D.length; j++) if (inChosen.has(D[j]!)) chosenAt.push(j);
  for (let j = 0; j < D.length; j++) {
    if (maximise && Math.abs(v[j]!) <= error[j]!) return null;
    if (inChosen.has(D[j]!)) continue;
    for (const c of chosenAt) {
      const margin = maximise ? v[c]! - v[j]! : v[j]! - v[c]!;
      if (margin > error[c]! + error[j]!) continue;
      // Equal (score, points) pairs have equal exact values, and equal estimates, so the tie
      // rule selectBest applied (the earlier item) is the exact one: common for missing work.
      if (s[D[j]!] === s[D[c]!] && p[D[j]!] === p[D[c]!]) continue;
      return null;
    }
  }
  return chosen;
}

/**
 * dinkelbachExact for values whose products are exact in doubles (checked by the caller):
 * no BigInt, no per-item objects, and a top-k selection instead of a sort. It runs for
 * every category of every student, so this is the grading hot path.
 */
function dinkelbachInDoubles(D: number[], s: number[], p: number[], totalEarned: number, totalPossible: number, k: number, maximise: boolean): number[] {
  const v = new Float64Array(D.length);
  let chosen: number[] = [];
  for (let iter = 0; iter < 200; iter++) {
    const [e, q] = remainingInDoubles(chosen, s, p, totalEarned, totalPossible);
    for (let j = 0; j < D.length; j++) v[j] = e * p[D[j]!]! - q * s[D[j]!]!;
    const next = selectBest(D, v, k, maximise);
    if (sameList(next, chosen)) return next;
    chosen = next;
  }
  return chosen;
}

/**
 * The k best of D by v (largest first when maximising, and then only v >= 0; smallest
 * first otherwise), ties to the earlier item; returned in item order. D is in item order,
 * so scanning it forward and inserting after equal values keeps the tie rule.
 */
function selectBest(D: number[], v: Float64Array, k: number, maximise: boolean): number[] {
  const best: number[] = []; // positions in D, best first
  for (let j = 0; j < D.length; j++) {
    const vj = v[j]!;
    if (maximise && vj < 0) continue;
    let pos = best.length;
    while (pos > 0 && (maximise ? v[best[pos - 1]!]! < vj : v[best[pos - 1]!]! > vj)) pos--;
    if (pos >= k) continue;
    best.splice(pos, 0, j);
    if (best.length > k) best.pop();
  }
  return best.map((j) => D[j]!).sort((a, b) => a - b);
}

/** Both drop kinds by exhaustive search when the cap can bind: the objective is min(two ratios). */
function enumerateCappedDrops(input: DropInput, candidates: number[], totalEarned: ExactInt, totalPossible: ExactInt): DropChoice {
  const { earned, possible, extraCredit } = input;
  const { num, den } = input.cap!;
  const ratioAfter = (removed: number[]): Ratio => {
    const [e, q] = remaining(removed, earned, possible, totalEarned, totalPossible);
    return [add(mul(e, den), min(mul(extraCredit, den), mul(q, num))), mul(q, den)];
  };
  const low = input.lowest > 0 && candidates.length > 0 ? enumerateBest(candidates, input.lowest, true, ratioAfter, compareRatios) : [];
  const rest = candidates.filter((i) => !low.includes(i));
  const h = Math.min(input.highest, rest.length);
  const high =
    h > 0
      ? enumerateBest(
          rest,
          h,
          false,
          (r) => ratioAfter([...low, ...r]),
          (a, b) => -compareRatios(a, b),
        )
      : [];
  return { lowest: low, highest: high };
}

const compareRatios = (a: Ratio, b: Ratio) => compare(mul(a[0], b[1]), mul(b[0], a[1]));

/** Exhaustive search with the tie rules; `better(a, b) > 0` when ratio a is preferred. */
export function enumerateBest<R>(D: number[], k: number, atMost: boolean, ratioOf: (removed: number[]) => R, better: (a: R, b: R) => number): number[] {
  let best: number[] | null = null;
  let bestRatio: R | null = null;
  const consider = (set: number[]) => {
    const r = ratioOf(set);
    if (best === null) {
      best = set;
      bestRatio = r;
      return;
    }
    const c = better(r, bestRatio as R);
    if (c > 0 || (c === 0 && (set.length > best.length || (set.length === best.length && lexLess(set, best))))) {
      best = set;
      bestRatio = r;
    }
  };
  const sizes = atMost ? Array.from({ length: Math.min(k, D.length) + 1 }, (_, i) => i) : [Math.min(k, D.length)];
  for (const size of sizes) forEachCombination(D, size, consider);
  return best ?? [];
}

function forEachCombination(D: number[], size: number, visit: (set: number[]) => void): void {
  const idx = Array.from({ length: size }, (_, i) => i);
  if (size > D.length) return;
  for (;;) {
    visit(idx.map((i) => D[i]!));
    let j = size - 1;
    while (j >= 0 && idx[j] === D.length - size + j) j--;
    if (j < 0) return;
    idx[j]!++;
    for (let t = j + 1; t < size; t++) idx[t] = idx[t - 1]! + 1;
  }
}

/** How many subsets enumeration visits (sizes 0..k, or exactly k); stops counting past the limit. */
function subsetCount(n: number, k: number, atMost: boolean): number {
  let total = 0;
  for (let size = atMost ? 0 : k; size <= k; size++) {
    let c = 1;
    for (let i = 0; i < size; i++) c = (c * (n - i)) / (i + 1);
    total += c;
    if (total > ENUMERATION_LIMIT) return total;
  }
  return total;
}

/** Earned and possible left after removing `chosen` from totals e and q. */
function remaining(chosen: number[], s: ExactInt[], p: ExactInt[], e: ExactInt, q: ExactInt): [ExactInt, ExactInt] {
  for (const i of chosen) {
    e = sub(e, s[i]!);
    q = sub(q, p[i]!);
  }
  return [e, q];
}

/** remaining() for values known to be small numbers (the hot path: no checks). */
function remainingInDoubles(chosen: number[], s: number[], p: number[], e: number, q: number): [number, number] {
  for (const i of chosen) {
    e -= s[i]!;
    q -= p[i]!;
  }
  return [e, q];
}

const sameList = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function lexLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}
