/**
 * Optimal drops (grading.md, "Per category, per student", step 1).
 *
 * Lowest drops maximise the category percentage over subsets of the droppable items with at
 * most `l` items; highest drops then minimise it with exactly `h` items. Without a binding
 * extra-credit cap the percentage is a ratio of sums, and Dinkelbach's method solves it
 * exactly: at the current ratio q, the best removal set is the items with the largest
 * q*p - s (sorting), and q rises (or falls) until the set stops changing. With a category
 * cap on extra credit the objective is min(two ratios), which is not a ratio of sums, so we
 * enumerate subsets (exact) while that stays small.
 *
 * Ties follow grading.md: lowest drops prefer the most drops, then the items that come first
 * (sets compared as lists in item order); highest drops prefer the items that come first.
 * Item indexes here are already in course item order.
 */
import { type Arith, BIG, NUM } from './exact.js';

export interface DropInput {
  /** Effective scores and points of the counted items with points > 0, in item order (scaled integers). */
  s: number[];
  p: number[];
  droppable: boolean[];
  /** Extra credit of the category (scaled), before any cap. */
  x: number;
  /** Category cap on extra credit as a fraction of possible points: capped X = min(X, Q * num / den). */
  cap: { num: number; den: number } | null;
  lowest: number;
  highest: number;
}

export interface DropChoice {
  lowest: number[];
  highest: number[];
}

/** Enumerate-all limit: beyond this many subsets the capped case falls back to Dinkelbach. */
const ENUMERATION_LIMIT = 200_000;

export function chooseDrops(input: DropInput): DropChoice {
  const { s, p, droppable } = input;
  const n = s.length;
  let sumS = 0;
  let sumP = 0;
  let maxV = 1;
  for (let i = 0; i < n; i++) {
    sumS += s[i]!;
    sumP += p[i]!;
    if (s[i]! > maxV) maxV = s[i]!;
    if (p[i]! > maxV) maxV = p[i]!;
  }
  const capScale = input.cap ? input.cap.den + input.cap.num : 1;
  const bound = (sumS + input.x + sumP + 1) * capScale;
  // Products of two such quantities must stay exact in doubles; otherwise use BigInt.
  const arith = bound * bound * 4 < Number.MAX_SAFE_INTEGER ? NUM : BIG;
  // Dinkelbach's products are e * p_i and q * s_i with e <= sumS + x and q <= sumP: exact
  // in doubles under this (smaller) bound, which the cap's scale does not enter.
  const plain = sumS + input.x + sumP + 1;
  const exactInDoubles = plain * plain * 2 < Number.MAX_SAFE_INTEGER;
  return choose(arith as Arith<number | bigint>, input, sumS, sumP, exactInDoubles);
}

function choose<T>(A: Arith<T>, input: DropInput, sumS: number, sumP: number, exactInDoubles: boolean): DropChoice {
  const { s, p, droppable, lowest, highest } = input;
  const D: number[] = [];
  for (let i = 0; i < s.length; i++) if (droppable[i]) D.push(i);
  // The cap matters only if it can bind for some allowed removal: X > (Q - the largest
  // removable points) * rate. When it cannot, the objective is a plain ratio of sums.
  let capped = false;
  if (input.cap !== null && input.x > 0) {
    const largest = D.map((i) => p[i]!).sort((a, b) => b - a).slice(0, lowest + highest).reduce((a, b) => a + b, 0);
    capped = A.cmp(A.mul(A.of(input.x), A.of(input.cap.den)), A.mul(A.of(sumP - largest), A.of(input.cap.num))) > 0;
  }

  // ratio(R) as a fraction [num, den] after removing R from everything.
  const ratio = (removed: number[]): [T, T] => {
    let e = sumS;
    let q = sumP;
    for (const i of removed) {
      e -= s[i]!;
      q -= p[i]!;
    }
    if (!capped) return [A.add(A.of(e), A.of(input.x)), A.of(q)];
    const { num, den } = input.cap!;
    const x = A.min(A.mul(A.of(input.x), A.of(den)), A.mul(A.of(q), A.of(num)));
    return [A.add(A.mul(A.of(e), A.of(den)), x), A.mul(A.of(q), A.of(den))];
  };
  const cmpRatio = (a: [T, T], b: [T, T]) => A.cmp(A.mul(a[0], b[1]), A.mul(b[0], a[1]));

  const useEnumeration = capped && combinations(D.length, lowest, true) + combinations(D.length, highest, false) <= ENUMERATION_LIMIT;

  let low: number[];
  if (lowest <= 0 || D.length === 0) low = [];
  else if (useEnumeration) low = enumerateBest(D, lowest, true, (r) => ratio(r), (a, b) => cmpRatio(a, b));
  else low = exactInDoubles ? dinkelbachExact(D, s, p, sumS, sumP, input.x, lowest, true) : dinkelbach(A, D, s, p, sumS, sumP, input.x, lowest, true);

  const lowSet = new Set(low);
  const rest = D.filter((i) => !lowSet.has(i));
  let high: number[] = [];
  if (highest > 0 && rest.length > 0) {
    const h = Math.min(highest, rest.length);
    let remS = sumS;
    let remP = sumP;
    for (const i of low) {
      remS -= s[i]!;
      remP -= p[i]!;
    }
    if (useEnumeration) {
      high = enumerateBest(rest, h, false, (r) => ratio([...low, ...r]), (a, b) => -cmpRatio(a, b));
    } else {
      high = exactInDoubles ? dinkelbachExact(rest, s, p, remS, remP, input.x, h, false) : dinkelbach(A, rest, s, p, remS, remP, input.x, h, false);
    }
  }
  return { lowest: low, highest: high };
}

/**
 * maximise=true: at most k items, maximising (E - sum s + X) / (Q - sum p).
 * maximise=false: exactly k items, minimising it.
 */
function dinkelbach<T>(A: Arith<T>, D: number[], s: number[], p: number[], sumS: number, sumP: number, x: number, k: number, maximise: boolean): number[] {
  let chosen: number[] = [];
  for (let iter = 0; iter < 200; iter++) {
    const [e, q] = remaining(chosen, s, p, sumS + x, sumP);
    const num = A.of(e);
    const den = A.of(q);
    // v_i is proportional to (q* p_i - s_i): positive means removing i raises the ratio.
    const scored = D.map((i) => ({ i, v: A.sub(A.mul(num, A.of(p[i]!)), A.mul(den, A.of(s[i]!))) }));
    if (maximise) {
      scored.sort((a, b) => -A.cmp(a.v, b.v) || a.i - b.i);
    } else {
      scored.sort((a, b) => A.cmp(a.v, b.v) || a.i - b.i);
    }
    const next: number[] = [];
    for (const { i, v } of scored) {
      if (next.length >= k) break;
      if (maximise && A.cmp(v, A.of(0)) < 0) break;
      next.push(i);
    }
    next.sort((a, b) => a - b);
    if (sameList(next, chosen)) return next;
    chosen = next;
  }
  return chosen;
}

/**
 * dinkelbach() for values whose products are exact in doubles (checked by chooseDrops):
 * the same iteration without BigInt or per-item objects, and a top-k selection instead of
 * a sort. It runs for every category of every student, so this is the grading hot path.
 */
function dinkelbachExact(D: number[], s: number[], p: number[], sumS: number, sumP: number, x: number, k: number, maximise: boolean): number[] {
  const v = new Float64Array(D.length);
  let chosen: number[] = [];
  for (let iter = 0; iter < 200; iter++) {
    const [e, q] = remaining(chosen, s, p, sumS + x, sumP);
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

/** Exhaustive search with the tie rules; `better(a, b) > 0` when ratio a is preferred. */
function enumerateBest<R>(D: number[], k: number, atMost: boolean, ratioOf: (removed: number[]) => R, better: (a: R, b: R) => number): number[] {
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

function combinations(n: number, k: number, atMost: boolean): number {
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
function remaining(chosen: number[], s: number[], p: number[], e: number, q: number): [number, number] {
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

/** Reference implementation for tests: every subset, exact, with the tie rules. */
export function chooseDropsBruteForce(input: DropInput): DropChoice {
  const { s, p, droppable } = input;
  let sumS = 0;
  let sumP = 0;
  for (let i = 0; i < s.length; i++) {
    sumS += s[i]!;
    sumP += p[i]!;
  }
  const D: number[] = [];
  for (let i = 0; i < s.length; i++) if (droppable[i]) D.push(i);
  const ratio = (removed: number[]): [bigint, bigint] => {
    let e = BigInt(sumS);
    let q = BigInt(sumP);
    for (const i of removed) {
      e -= BigInt(s[i]!);
      q -= BigInt(p[i]!);
    }
    const x = BigInt(input.x);
    if (!input.cap) return [e + x, q];
    const num = BigInt(input.cap.num);
    const den = BigInt(input.cap.den);
    const cx = x * den < q * num ? x * den : q * num;
    return [e * den + cx, q * den];
  };
  const cmp = (a: [bigint, bigint], b: [bigint, bigint]) => {
    const l = a[0] * b[1];
    const r = b[0] * a[1];
    return l < r ? -1 : l > r ? 1 : 0;
  };
  const low = input.lowest > 0 ? enumerateBest(D, Math.min(input.lowest, D.length), true, ratio, cmp) : [];
  const rest = D.filter((i) => !low.includes(i));
  const h = Math.min(input.highest, rest.length);
  const high = h > 0 ? enumerateBest(rest, h, false, (r) => ratio([...low, ...r]), (a, b) => -cmp(a, b)) : [];
  return { lowest: low, highest: high };
}
