/**
 * Issue 12: the engine never throws on stored data. Values that do not fit the fast paths
 * (17 significant digits, 2^53 - 1, 5e-324, percentages with 15 decimals, attempts past
 * 2^31) are graded exactly in wider (BigInt) arithmetic. Hand-worked cases first, then a
 * property against an all-BigInt reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCourseGrades, type GradebookSetup, renderGradebookCsv } from '../../../src/domain/grading/index.js';
import { type Gradebook, gradebookArbitrary, referenceGrades } from './bigint-reference.js';
import { gradeOf, item, setupWith, sub } from './fixtures.js';

const DUE = '2026-10-01T00:00:00.000Z';
const lateByScore = (percentPerPeriod: number): Partial<GradebookSetup> => ({
  late: { enabled: true, percentPerPeriod, period: 'day', basis: 'score', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
});

describe('values past the fast paths are graded exactly', () => {
  it('a score with 17 significant digits: 8.333333333333334 of 10 is 83.3%, B', () => {
    const g = gradeOf(setupWith(), [item('a', 10)], [sub('a', 8.333333333333334)]);
    expect(g).toMatchObject({ percent: 83.3, letter: 'B' });
    expect([...g.cells]).toEqual([8.333333333333334]);
  });

  it('0.1 + 0.2 as a score is 0.30000000000000004, not 0.3: 30.000000000000004% of 1 -> 30.0', () => {
    const g = gradeOf(setupWith(), [item('a', 1)], [sub('a', 0.1 + 0.2)]);
    expect(g.percent).toBe(30);
    expect([...g.cells]).toEqual([0.30000000000000004]);
    expect(g.categories[0]).toMatchObject({ earned: 0.30000000000000004, possible: 1 });
  });

  it('2^53 - 1 points with a quarter point: 9007199254740991 + 0.25 in units of 0.01 is past 2^53', () => {
    // 9007199254740991 of 9007199254740991 plus 0.25 of 1: 100% less 0.75 in 9e15, 100.0
    const g = gradeOf(setupWith({ mode: 'points' }), [item('a', 9007199254740991), item('b', 1)], [sub('a', 9007199254740991), sub('b', 0.25)]);
    expect(g).toMatchObject({ percent: 100, letter: 'A' });
    // earned 9007199254740991.25 is shown as its nearest double, 9007199254740991
    expect(g.categories[0]).toMatchObject({ earned: 9007199254740991, possible: 9007199254740992 });
  });

  it('points of 1e15 with a late penalty: 5e14 one day late at 10% of the score is 4.5e14, 45.0%', () => {
    const g = gradeOf(setupWith(lateByScore(10)), [item('a', 1e15, 'q', DUE)], [sub('a', 5e14, '2026-10-01T12:00:00.000Z')]);
    expect(g.items![0]).toMatchObject({ effectiveScore: 4.5e14, late: { periods: 1, deduction: 5e13 } });
    expect(g.percent).toBe(45);
  });

  it('5e-324 points (324 decimal places): 5e-324 of 5e-324 and 0 of 1e-323 is 33.3%', () => {
    const g = gradeOf(setupWith({ mode: 'points' }), [item('a', 5e-324), item('b', 1e-323)], [sub('a', 5e-324), sub('b', 0)]);
    expect(g.percent).toBe(33.3);
    expect([...g.cells]).toEqual([5e-324, 0]);
  });

  it('a late penalty of 33.333333333333336% per day: 9 one day late keeps 5.99999999999999976, 60.0%', () => {
    // 9 x 0.33333333333333336 = 3.00000000000000024 deducted; 5.99999999999999976 of 10 is 59.999999999999997...%
    const g = gradeOf(setupWith(lateByScore(33.333333333333336)), [item('a', 10, 'q', DUE)], [sub('a', 9, '2026-10-01T12:00:00.000Z')]);
    expect(g).toMatchObject({ percent: 60, letter: 'D-' });
    expect(g.items![0]!.effectiveScore).toBe(Number('5.99999999999999976'));
  });

  it('an extra-credit cap of 33.333333333333336%: 5 extra on 5 of 10 counts 3.3333333333333336, 83.3%', () => {
    const s = setupWith({ extraCredit: { categoryCapPercent: 33.333333333333336, courseCapPoints: null } });
    const g = gradeOf(s, [item('a', 10), item('ec', 0)], [sub('a', 5), sub('ec', 5)]);
    expect(g.categories[0]).toMatchObject({ earned: 5, possible: 10, extraCredit: Number('3.3333333333333336'), percent: 83.3 });
  });

  it('attempts past 2^31: attempt 2147483648 is the record over 2147483647, and 4294967296 is not pending', () => {
    const two = gradeOf(setupWith(), [item('a', 10)], [sub('a', 3, undefined, { attempt: 2147483647 }), sub('a', 7, undefined, { attempt: 2147483648 })]);
    expect(two.percent).toBe(70);
    expect([...two.cells]).toEqual([7]);
    const big = gradeOf(setupWith(), [item('a', 10)], [sub('a', 7, undefined, { attempt: 4294967296 })]);
    expect(big.items![0]).toMatchObject({ status: 'graded', score: 7 });
  });
});

describe('any gradebook is graded like the all-BigInt reference', () => {
  const engineAndReference = (book: Gradebook) => {
    const input = {
      setup: book.setup,
      items: book.items,
      students: book.students,
      submissions: book.submissions,
      now: book.now,
      releasedOnly: book.releasedOnly,
    };
    return { engine: computeCourseGrades(input), reference: referenceGrades(book) };
  };

  it('grades and CSV equal the reference, and nothing throws', () => {
    fc.assert(
      fc.property(gradebookArbitrary, (book) => {
        const { engine, reference } = engineAndReference(book);
        expect(engine).toEqual(reference);
        const csv = (grades: typeof engine) =>
          renderGradebookCsv({ setup: book.setup, items: book.items, students: book.students, grades, overrides: book.overrides });
        expect(csv(engine)).toBe(csv(reference));
      }),
      { numRuns: 1000 },
    );
  });
});
