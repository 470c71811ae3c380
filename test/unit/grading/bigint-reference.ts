/**
 * All-BigInt references for the grading engine (tests only): the rounding, and a whole
 * gradebook graded straight from the rules of grading.md in exact decimals and fractions,
 * without the engine's units, fast paths or drop search. Plus a generator of gradebooks over
 * a wide domain (values up to 1e15, up to 6 decimals, float artefacts, 5e-324, attempts past
 * 2^31, rounding boundaries) for the property that the engine agrees with it.
 */
import fc from 'fast-check';
import type {
  CategoryResult,
  CourseGrades,
  FinalOverride,
  GradebookSetup,
  GradeItem,
  GradeStudent,
  GradeSubmission,
  StudentGrades,
} from '../../../src/domain/grading/index.js';
import { defaultGradebookSetup } from '../../../src/domain/grading/index.js';
import { dropsByExhaustiveSearch } from './drop-oracle.js';

/** num / den (>= 0) rounded half-up to tenths, in BigInt throughout, as the number its decimal text reads as. */
export function tenthsByBigInt(num: bigint, den: bigint): number {
  const tenths = (20n * num + den) / (2n * den);
  return Number(`${tenths / 10n}.${tenths % 10n}`);
}

/** An exact decimal: digits x 10^-places. */
interface Decimal {
  digits: bigint;
  places: number;
}

/** The decimal a number stands for, read from its shortest exponential form (not the engine's parser). */
function decimal(x: number): Decimal {
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const [whole, fraction = ''] = mantissa.split('.') as [string, string?];
  const places = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return places >= 0 ? { digits, places } : { digits: digits * 10n ** BigInt(-places), places: 0 };
}

const ZERO: Decimal = { digits: 0n, places: 0 };
const HUNDRED: Decimal = { digits: 100n, places: 0 };
const at = (d: Decimal, places: number) => d.digits * 10n ** BigInt(places - d.places);
const plus = (a: Decimal, b: Decimal): Decimal => {
  const places = Math.max(a.places, b.places);
  return { digits: at(a, places) + at(b, places), places };
};
const minus = (a: Decimal, b: Decimal): Decimal => plus(a, { digits: -b.digits, places: b.places });
const times = (a: Decimal, b: Decimal): Decimal => ({ digits: a.digits * b.digits, places: a.places + b.places });
const percentOf = (a: Decimal): Decimal => ({ digits: a.digits, places: a.places + 2 });
const sign = (a: Decimal) => (a.digits > 0n ? 1 : a.digits < 0n ? -1 : 0);
const less = (a: Decimal, b: Decimal) => sign(minus(a, b)) < 0;
const sum = (xs: Decimal[]) => xs.reduce(plus, ZERO);
const toNumber = (a: Decimal) => Number(`${a.digits}e-${a.places}`);

/** An exact fraction num / den, den > 0. */
interface Fraction {
  num: bigint;
  den: bigint;
}
const fraction = (a: Decimal): Fraction => ({ num: a.digits, den: 10n ** BigInt(a.places) });
const divide = (a: Decimal, b: Decimal): Fraction => ({ num: a.digits * 10n ** BigInt(b.places), den: b.digits * 10n ** BigInt(a.places) });

export interface Gradebook {
  setup: GradebookSetup;
  items: GradeItem[];
  students: GradeStudent[];
  submissions: GradeSubmission[];
  now: string;
  releasedOnly: boolean;
  overrides: FinalOverride[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface ItemOutcome {
  status: 'graded' | 'pending' | 'missing' | 'not-due';
  /** Counts toward its category: graded, or missing as zero. */
  counted: boolean;
  missingZero: boolean;
  effective: Decimal;
}

/** Grades straight from the rules, in exact decimals and fractions. */
export function referenceGrades(book: Gradebook): CourseGrades {
  const ordered = [...book.items].sort(
    (a, b) => a.modulePosition - b.modulePosition || byText(a.moduleId, b.moduleId) || a.position - b.position || byText(a.id, b.id),
  );
  const students = [...book.students].sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id));
  return { students: students.map((student) => studentGrades(book, ordered, student)) };
}

function studentGrades(book: Gradebook, ordered: GradeItem[], student: GradeStudent): StudentGrades {
  const { setup } = book;
  const outcomes = new Map(ordered.map((item) => [item.id, itemOutcome(book, item, student)]));
  const categoryTotals = setup.categories.map((category) =>
    categoryGrade(
      setup,
      category,
      ordered.filter((it) => it.categoryId === category.id),
      outcomes,
    ),
  );
  let percent: number | null = null;
  if (setup.mode === 'weighted') {
    const counted = setup.categories.map((c, i) => ({ weight: decimal(c.weight), totals: categoryTotals[i]! })).filter((c) => c.totals.percent !== null);
    const weights = sum(counted.map((c) => c.weight));
    if (sign(weights) > 0) {
      // sum(w x percent) / min(W, 100), with every percent a fraction
      let num = 0n;
      let den = 1n;
      for (const c of counted) {
        const w = fraction(c.weight);
        const p = c.totals.percent!;
        num = num * w.den * p.den + w.num * p.num * den;
        den = den * w.den * p.den;
      }
      const divisor = fraction(less(weights, HUNDRED) ? weights : HUNDRED);
      percent = tenthsByBigInt(num * divisor.den, den * divisor.num);
    }
  } else {
    const earned = sum(categoryTotals.map((c) => c.earned));
    const possible = sum(categoryTotals.map((c) => c.possible));
    const extra = sum(categoryTotals.map((c) => c.extraCredit));
    const cap = setup.extraCredit.courseCapPoints;
    const counted = cap !== null && less(decimal(cap), extra) ? decimal(cap) : extra;
    if (sign(possible) > 0) {
      const f = divide(times(HUNDRED, plus(earned, counted)), possible);
      percent = tenthsByBigInt(f.num, f.den);
    }
  }
  return {
    studentId: student.id,
    studentName: student.name,
    categories: categoryTotals.map((c) => c.result),
    percent,
    letter: letterOf(setup, percent),
    cells: Float64Array.from(book.items, (item) => {
      const o = outcomes.get(item.id)!;
      return o.status === 'graded' ? toNumber(o.effective) : o.missingZero ? 0 : NaN;
    }),
  };
}

function itemOutcome(book: Gradebook, item: GradeItem, student: GradeStudent): ItemOutcome {
  const { setup } = book;
  const mine = book.submissions.filter((s) => s.studentId === student.id && s.assignmentId === item.id);
  const scored = mine.filter((s) => s.score !== null && (!book.releasedOnly || s.releasedAt !== null));
  const record = scored.reduce<GradeSubmission | null>((best, s) => (best === null || s.attempt > best.attempt ? s : best), null);
  const missingZero: ItemOutcome = { status: 'missing', counted: true, missingZero: true, effective: ZERO };
  const due = item.dueAt === null ? null : Date.parse(item.dueAt);
  const graceMs = setup.late.graceMinutes * 60_000;
  if (record) {
    const score = decimal(record.score!);
    const category = setup.categories.find((c) => c.id === item.categoryId);
    const lateMs = due === null ? 0 : Date.parse(record.submittedAt) - due;
    if (!(setup.late.enabled && category?.lateApplies && due !== null && lateMs > graceMs))
      return { status: 'graded', counted: true, missingZero: false, effective: score };
    let periods = Math.ceil(lateMs / (setup.late.period === 'hour' ? 3_600_000 : 86_400_000));
    if (setup.late.maxPeriods !== null && periods > setup.late.maxPeriods) {
      if (setup.late.afterMax === 'missing') return missingZero;
      periods = setup.late.maxPeriods;
    }
    const basis = setup.late.basis === 'possible' ? decimal(item.points) : score;
    const deduction = percentOf(times(times(decimal(setup.late.percentPerPeriod), { digits: BigInt(periods), places: 0 }), basis));
    const left = minus(score, deduction);
    return { status: 'graded', counted: true, missingZero: false, effective: sign(left) < 0 ? ZERO : left };
  }
  if (mine.length > 0) return { status: 'pending', counted: false, missingZero: false, effective: ZERO };
  if (item.points > 0 && due !== null && Date.parse(book.now) > due + graceMs) {
    return setup.missing.treatAs === 'zero-after-due' ? missingZero : { status: 'missing', counted: false, missingZero: false, effective: ZERO };
  }
  return { status: 'not-due', counted: false, missingZero: false, effective: ZERO };
}

function categoryGrade(setup: GradebookSetup, category: GradebookSetup['categories'][number], items: GradeItem[], outcomes: Map<string, ItemOutcome>) {
  const counted = items.filter((it) => outcomes.get(it.id)!.counted);
  const regular = counted.filter((it) => it.points > 0);
  const extraCredit = sum(counted.filter((it) => it.points === 0).map((it) => outcomes.get(it.id)!.effective));
  const droppable = regular.map((it) => setup.missing.droppable || !outcomes.get(it.id)!.missingZero);
  const nDroppable = droppable.filter(Boolean).length;
  const lowest = Math.max(0, Math.min(category.drop.lowest, regular.length - category.drop.keepAtLeast, nDroppable));
  const highest = Math.max(0, Math.min(category.drop.highest, regular.length - category.drop.keepAtLeast - lowest, nDroppable - lowest));
  const capPercent = setup.mode === 'weighted' ? setup.extraCredit.categoryCapPercent : null;
  const dropped = new Set<number>();
  if (lowest > 0 || highest > 0) {
    // The oracle works on integers: every amount at the finest places in the category.
    const amounts = [...regular.flatMap((it) => [outcomes.get(it.id)!.effective, decimal(it.points)]), extraCredit];
    const places = Math.max(...amounts.map((a) => a.places));
    const cap = capPercent === null ? null : decimal(capPercent);
    const choice = dropsByExhaustiveSearch({
      earned: regular.map((it) => at(outcomes.get(it.id)!.effective, places)),
      possible: regular.map((it) => at(decimal(it.points), places)),
      droppable,
      extraCredit: at(extraCredit, places),
      cap: cap === null ? null : { num: cap.digits, den: 100n * 10n ** BigInt(cap.places) },
      lowest,
      highest,
    });
    for (const i of [...choice.lowest, ...choice.highest]) dropped.add(i);
  }
  const kept = regular.filter((_, i) => !dropped.has(i));
  const earned = sum(kept.map((it) => outcomes.get(it.id)!.effective));
  const possible = sum(kept.map((it) => decimal(it.points)));
  let cappedExtra = extraCredit;
  if (capPercent !== null && sign(extraCredit) > 0) {
    const limit = percentOf(times(decimal(capPercent), possible));
    if (less(limit, extraCredit)) cappedExtra = limit;
  }
  const empty = sign(possible) === 0;
  const percentFraction = empty ? null : divide(times(HUNDRED, plus(earned, cappedExtra)), possible);
  const result: CategoryResult = {
    categoryId: category.id,
    name: category.name,
    earned: toNumber(earned),
    possible: toNumber(possible),
    extraCredit: toNumber(cappedExtra),
    percent: percentFraction === null ? null : tenthsByBigInt(percentFraction.num, percentFraction.den),
    empty,
  };
  return { result, earned, possible, extraCredit, percent: percentFraction };
}

function letterOf(setup: GradebookSetup, percent: number | null): string | null {
  if (percent === null) return null;
  let best: { letter: string; min: number } | null = null;
  for (const band of setup.scheme.bands) if (band.min <= percent && (best === null || band.min > best.min)) best = band;
  return best?.letter ?? null;
}

// --- the generator ----------------------------------------------------------------------

const DUE_DATES = ['2026-10-01T00:00:00.000Z', '2026-11-22T11:00:00.000Z', null] as const;
const NOWS = ['2026-11-22T12:00:00.000Z', '2026-11-22T12:00:00.000Z', '2026-09-01T00:00:00.000Z'];
const HOUR = 3_600_000;

/** Float artefacts and edge values that do not fit the engine's fast paths. */
const artefact = fc.constantFrom(
  0.1 + 0.2,
  8.333333333333334,
  33.333333333333336,
  1.0000000000000002,
  9007199254740991,
  4503599627370496,
  5e15,
  1e15,
  5e-324,
  1e-7,
  2.675,
  999999999.999999,
  4503599627370495.5,
  39280751017.93308,
);
/** Up to 1e15 with up to 6 decimals (so up to 1e9 with all six). */
const decimalValue = fc
  .record({ digits: fc.bigInt({ min: 0n, max: 10n ** 15n }), places: fc.integer({ min: 0, max: 6 }) })
  .map(({ digits, places }) => Number(`${digits}e-${places}`));
const quarterPoints = fc.integer({ min: 0, max: 400 }).map((n) => n / 4);
const amount = fc.oneof({ arbitrary: quarterPoints, weight: 3 }, { arbitrary: decimalValue, weight: 2 }, { arbitrary: artefact, weight: 1 });
const percentValue = fc.oneof(
  fc.constantFrom(0, 10, 12.5, 50, 100, 33.333333333333336, 0.30000000000000004),
  decimalValue.map((v) => v % 100),
);
/** true three times in four. */
const mostly = fc.integer({ min: 0, max: 3 }).map((n) => n > 0);
const attempt = fc.constantFrom(1, 2, 3, 2147483647, 2147483648, 4294967296, 9007199254740991);

const setupArbitrary = fc.record({
  mode: fc.constantFrom('weighted' as const, 'points' as const),
  categories: fc.array(
    fc.record({
      weight: fc.oneof(fc.constantFrom(0, 20, 50, 100, 33.333333333333336), percentValue),
      lowest: fc.integer({ min: 0, max: 2 }),
      highest: fc.integer({ min: 0, max: 1 }),
      keepAtLeast: fc.integer({ min: 1, max: 2 }),
      lateApplies: mostly,
    }),
    { minLength: 1, maxLength: 3 },
  ),
  late: fc.record({
    enabled: mostly,
    percentPerPeriod: percentValue,
    period: fc.constantFrom('day' as const, 'hour' as const),
    basis: fc.constantFrom('score' as const, 'possible' as const),
    maxPeriods: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    afterMax: fc.constantFrom('missing' as const, 'hold-at-max' as const),
    graceMinutes: fc.constantFrom(0, 10, 1440),
  }),
  missing: fc.record({ treatAs: fc.constantFrom('zero-after-due' as const, 'exclude-until-graded' as const), droppable: fc.boolean() }),
  categoryCapPercent: fc.option(percentValue, { nil: null }),
  courseCapPoints: fc.option(amount, { nil: null }),
});

const itemArbitrary = fc.record({
  points: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: amount, weight: 5 }),
  /** An index into the categories (clamped), or none (-1), or one the setup does not have (-2). */
  category: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 2 }), weight: 8 }, { arbitrary: fc.constantFrom(-1, -2), weight: 1 }),
  due: fc.constantFrom(...DUE_DATES),
  modulePosition: fc.integer({ min: 0, max: 1 }),
  moduleId: fc.constantFrom('m1', 'm2'),
  position: fc.integer({ min: 0, max: 3 }),
});

const submissionArbitrary = fc.record({
  score: fc.option(amount, { nil: null, freq: 6 }),
  /** A score exactly at a tenth-and-a-half of the item's points: (2t + 1) / 2000 of them. */
  boundaryTenths: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null, freq: 2 }),
  hoursLate: fc.integer({ min: -30, max: 120 }),
  released: mostly,
});

export const gradebookArbitrary: fc.Arbitrary<Gradebook> = fc
  .record({
    setup: setupArbitrary,
    items: fc.array(itemArbitrary, { minLength: 1, maxLength: 6 }),
    students: fc.array(fc.constantFrom('Ann', 'Bo', '=Cy'), { minLength: 1, maxLength: 3 }),
    // per student, per item: up to two submissions with distinct attempts
    cells: fc.array(fc.array(fc.uniqueArray(fc.tuple(attempt, submissionArbitrary), { maxLength: 2, selector: ([a]) => a }), { minLength: 6, maxLength: 6 }), {
      minLength: 3,
      maxLength: 3,
    }),
    now: fc.constantFrom(...NOWS),
    releasedOnly: fc.boolean(),
    overrides: fc.array(
      fc.option(
        fc.record({
          percent: fc.option(fc.oneof(amount, fc.constantFrom(89.95, 89.96, 89.94)), { nil: null }),
          letter: fc.option(fc.constantFrom('A', 'F'), { nil: null }),
        }),
        { nil: null },
      ),
      { minLength: 3, maxLength: 3 },
    ),
  })
  .map((g) => {
    const base = defaultGradebookSetup('c', g.now, 'u');
    const setup: GradebookSetup = {
      ...base,
      mode: g.setup.mode,
      categories: g.setup.categories.map((c, i) => ({
        id: `c${i}`,
        courseId: 'c',
        name: `Category ${i}`,
        position: g.setup.categories.length - i,
        weight: c.weight,
        drop: { lowest: c.lowest, highest: c.highest, keepAtLeast: c.keepAtLeast },
        lateApplies: c.lateApplies,
      })),
      late: g.setup.late,
      missing: g.setup.missing,
      extraCredit: { categoryCapPercent: g.setup.categoryCapPercent, courseCapPoints: g.setup.courseCapPoints },
    };
    const items: GradeItem[] = g.items.map((it, i) => ({
      id: `i${i}`,
      title: `Item ${i}`,
      categoryId: it.category === -2 ? 'ghost' : it.category === -1 ? null : `c${Math.min(it.category, g.setup.categories.length - 1)}`,
      points: it.points,
      dueAt: it.due,
      moduleId: it.moduleId,
      modulePosition: it.modulePosition,
      position: it.position,
    }));
    const students: GradeStudent[] = g.students.map((name, i) => ({ id: `s${i}`, name }));
    const submissions: GradeSubmission[] = [];
    students.forEach((student, si) =>
      items.forEach((item, ii) => {
        for (const [n, s] of g.cells[si]![ii]!) {
          const dueMs = Date.parse(item.dueAt ?? '2026-10-01T00:00:00.000Z');
          const score = s.boundaryTenths !== null ? boundaryScore(item.points, s.boundaryTenths) : s.score;
          submissions.push({
            assignmentId: item.id,
            studentId: student.id,
            attempt: n,
            submittedAt: new Date(dueMs + s.hoursLate * HOUR).toISOString(),
            score,
            releasedAt: s.released ? '2026-11-01T00:00:00.000Z' : null,
          });
        }
      }),
    );
    const overrides = students.flatMap((s, i) => (g.overrides[i] ? [{ studentId: s.id, ...g.overrides[i]! }] : []));
    return { setup, items, students, submissions, now: g.now, releasedOnly: g.releasedOnly, overrides };
  });

/** points x (2t + 1) / 2000: a score whose percentage is exactly t/10 + 0.05 (as far as a double can say it). */
function boundaryScore(points: number, tenths: number): number {
  const p = decimal(points);
  return toNumber({ digits: p.digits * BigInt(2 * tenths + 1) * 5n, places: p.places + 4 });
}
