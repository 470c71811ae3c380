import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { weightedCoursePercent } from '../../../src/domain/grading/course-phase.js';
import { chooseDrops, computeCourseGrades, renderGradebookCsv } from '../../../src/domain/grading/index.js';
import { tenthsByBigInt } from './bigint-reference.js';
import { dropsByExhaustiveSearch } from './drop-oracle.js';
import { item, NOW, setupWith, sub } from './fixtures.js';

const dropInput = fc
  .record({
    n: fc.integer({ min: 1, max: 7 }),
    seedS: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 7, maxLength: 7 }),
    seedP: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 7, maxLength: 7 }),
    droppable: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
    x: fc.integer({ min: 0, max: 20 }),
    cap: fc.option(fc.record({ num: fc.integer({ min: 0, max: 30 }), den: fc.constant(100) }), { nil: null }),
    lowest: fc.integer({ min: 0, max: 4 }),
    highest: fc.integer({ min: 0, max: 3 }),
  })
  .map((r) => {
    const s = r.seedS.slice(0, r.n);
    const p = r.seedP.slice(0, r.n);
    const droppable = r.droppable.slice(0, r.n);
    const nD = droppable.filter(Boolean).length;
    const l = Math.max(0, Math.min(r.lowest, r.n - 1, nD));
    const h = Math.max(0, Math.min(r.highest, r.n - 1 - l, nD - l));
    return { earned: s, possible: p, droppable, extraCredit: r.x, cap: r.cap, lowest: l, highest: h };
  });

describe('grading properties', () => {
  it('the fast drop selection equals exhaustive search, tie rules included', () => {
    fc.assert(
      fc.property(dropInput, (input) => {
        expect(chooseDrops(input)).toEqual(dropsByExhaustiveSearch(input));
      }),
      { numRuns: 3000 },
    );
  });

  const course = fc.record({
    points: fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 8 }),
    scores: fc.array(
      fc.option(
        fc.integer({ min: 0, max: 200 }).map((n) => n / 4),
        { nil: null },
      ),
      { minLength: 8, maxLength: 8 },
    ),
    cats: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 8, maxLength: 8 }),
    lowest: fc.integer({ min: 0, max: 2 }),
    seed: fc.integer(),
  });

  const build = (c: typeof course extends fc.Arbitrary<infer T> ? T : never, lowest: number) => {
    const setup = setupWith({
      cats: [
        ['c0', 50, { drop: { lowest, highest: 0, keepAtLeast: 1 } }],
        ['c1', 30],
        ['c2', 20, { drop: { lowest, highest: 1, keepAtLeast: 1 } }],
      ],
    });
    setup.missing = { treatAs: 'zero-after-due', droppable: true };
    const items = c.points.map((p, i) => ({ ...item(`i${i}`, p, `c${c.cats[i]}`), position: i }));
    const subs = c.points.flatMap((_, i) => (c.scores[i] === null ? [] : [sub(`i${i}`, c.scores[i]!)]));
    return { setup, items, subs };
  };

  it('large scaled values take the BigInt drop path and choose the same drops as small ones', () => {
    fc.assert(
      fc.property(dropInput, (input) => {
        const scale = 10_000_000; // pushes the products past 2^53: the exact (BigInt) Dinkelbach and enumeration run
        const big = {
          ...input,
          earned: input.earned.map((v) => v * scale),
          possible: input.possible.map((v) => v * scale),
          extraCredit: input.extraCredit * scale,
        };
        expect(chooseDrops(big)).toEqual(chooseDrops(input));
        expect(chooseDrops(big)).toEqual(dropsByExhaustiveSearch(big));
      }),
    );
  });

  it('the weighted course percentage equals the all-BigInt sum, near rounding boundaries too', () => {
    const category = fc.record({
      num: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      den: fc.bigInt({ min: 1n, max: 10n ** 10n }),
      weight: fc.bigInt({ min: 0n, max: 5000n }),
      empty: fc.boolean(),
    });
    const reference = (cats: { num: bigint; den: bigint; weight: bigint; empty: boolean }[], hundredW: bigint) => {
      let n = 0n;
      let d = 1n;
      let W = 0n;
      for (const c of cats) {
        if (c.empty) continue;
        W += c.weight;
        n = n * c.den + c.weight * c.num * d;
        d *= c.den;
      }
      return W > 0n ? tenthsByBigInt(n, d * (W < hundredW ? W : hundredW)) : null;
    };
    const run = (cats: { num: bigint; den: bigint; weight: bigint; empty: boolean }[]) => {
      const nums = cats.map((c) => (c.empty ? 0 : c.num <= 2n ** 40n ? Number(c.num) : c.num));
      const dens = cats.map((c) => (c.empty ? 0 : c.den <= 2n ** 40n ? Number(c.den) : c.den));
      return weightedCoursePercent(
        nums,
        dens,
        cats.map((c) => c.weight),
        1000n,
      );
    };
    fc.assert(
      fc.property(fc.array(category, { minLength: 1, maxLength: 6 }), (cats) => {
        expect(run(cats)).toBe(reference(cats, 1000n));
      }),
      { numRuns: 2000 },
    );
    // Exactly on a boundary: weights 60/40 (tenths of a percent units: 600/400 of 1000) of 89.9% and 90.025% = 89.95 -> 90.0
    const onBoundary = [
      { num: 8990n, den: 100n, weight: 600n, empty: false },
      { num: 90025n, den: 1000n, weight: 400n, empty: false },
    ];
    expect(reference(onBoundary, 1000n)).toBe(90);
    expect(run(onBoundary)).toBe(90);
    // Huge percentages exactly on a boundary: the double estimate's error grows with the value,
    // so it must not decide the rounding there (it used to, up to 1e11 %).
    const hugeOnBoundary = fc
      .record({ tenths: fc.bigInt({ min: 10n ** 9n, max: 10n ** 12n }), scale: fc.bigInt({ min: 1n, max: 1000n }), weight: fc.bigInt({ min: 1n, max: 1000n }) })
      .map(({ tenths, scale, weight }) => [{ num: (2n * tenths + 1n) * scale, den: 20n * scale, weight, empty: false }]);
    fc.assert(
      fc.property(hugeOnBoundary, (cats) => {
        expect(run(cats)).toBe(reference(cats, 1000n));
      }),
      { numRuns: 2000 },
    );
    // 10484533469121 / 2580 = 4063772662.45 % exactly, weight 12 of 100: 4063772662.5 (the estimate said 4063772662.4)
    expect(weightedCoursePercent([10484533469121], [2580], [12n], 100n)).toBe(4063772662.5);
  });

  it('item order does not change any grade', () => {
    fc.assert(
      fc.property(course, (c) => {
        const { setup, items, subs } = build(c, c.lowest);
        const shuffled = [...items].reverse();
        const a = computeCourseGrades({ setup, items, students: [{ id: 's1', name: 'S' }], submissions: subs, now: NOW });
        const b = computeCourseGrades({ setup, items: shuffled, students: [{ id: 's1', name: 'S' }], submissions: [...subs].reverse(), now: NOW });
        expect(b.students[0]!.percent).toBe(a.students[0]!.percent);
        expect(b.students[0]!.categories).toEqual(a.students[0]!.categories);
      }),
      { numRuns: 300 },
    );
  });

  it('a lowest drop never lowers a category percentage', () => {
    fc.assert(
      fc.property(course, (c) => {
        const withDrop = build(c, 2);
        const without = build(c, 0);
        const pct = (b: ReturnType<typeof build>) =>
          computeCourseGrades({ setup: b.setup, items: b.items, students: [{ id: 's1', name: 'S' }], submissions: b.subs, now: NOW }).students[0]!
            .categories[0]!;
        const a = pct(withDrop);
        const z = pct(without);
        if (z.percent !== null) expect(a.percent!).toBeGreaterThanOrEqual(z.percent);
      }),
      { numRuns: 300 },
    );
  });

  it('every CSV row has the same number of fields, whatever the titles and names', () => {
    const text = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), fc.array(text, { minLength: 1, maxLength: 4 }), (titles, names) => {
        const setup = setupWith({ cats: [['q', 100]] });
        const items = titles.map((t, i) => ({ ...item(`i${i}`, 10), title: t }));
        const students = names.map((n, i) => ({ id: `s${i}`, name: n }));
        const grades = computeCourseGrades({ setup, items, students, submissions: [], now: NOW });
        const csv = renderGradebookCsv({ setup, items, students, grades, overrides: [] });
        const rows = parseCsv(csv);
        expect(new Set(rows.map((r) => r.length)).size).toBe(1);
        expect(rows).toHaveLength(2 + names.length);
      }),
      { numRuns: 200 },
    );
  });
});

/** A strict RFC 4180 reader (CRLF rows, quoted fields) for the property above. */
function parseCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < csv.length) {
    const ch = csv[i]!;
    if (quoted) {
      if (ch === '"' && csv[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
      } else {
        field += ch;
        i++;
      }
    } else if (ch === '"') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' && csv[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      field += ch;
      i++;
    }
  }
  expect(field).toBe('');
  return rows;
}
