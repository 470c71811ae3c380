import { describe, expect, it } from 'vitest';
import { gradeOf, item, NOW, setupWith, sub } from './fixtures.js';

const cat = (g: ReturnType<typeof gradeOf>, id = 'q') => g.categories.find((c) => c.categoryId === id)!;
const itemOf = (g: ReturnType<typeof gradeOf>, id: string) => g.items!.find((i) => i.itemId === id)!;

describe('drops', () => {
  it('drops the item whose removal gives the highest percentage, not the lowest score (31/40, 17/24, 7/10)', () => {
    // none: 55/74 = 74.3%; drop 31/40: 24/34 = 70.6%; drop 17/24: 38/50 = 76.0%; drop 7/10: 48/64 = 75.0%
    const g = gradeOf(
      setupWith({ cats: [['q', 100, { drop: { lowest: 1, highest: 0, keepAtLeast: 1 } }]] }),
      [item('a', 40), item('b', 24), item('c', 10)],
      [sub('a', 31), sub('b', 17), sub('c', 7)],
    );
    expect(itemOf(g, 'b').dropped).toBe('lowest');
    expect(cat(g)).toMatchObject({ earned: 38, possible: 50, percent: 76 });
    expect(g.percent).toBe(76);
    expect(g.letter).toBe('C');
  });

  it('highest drops remove the item that lowers the percentage most', () => {
    // 10/10, 5/10, 6/10 with one highest drop: 11/20 = 55.0%
    const g = gradeOf(
      setupWith({ cats: [['q', 100, { drop: { lowest: 0, highest: 1, keepAtLeast: 1 } }]] }),
      [item('a', 10), item('b', 10), item('c', 10)],
      [sub('a', 10), sub('b', 5), sub('c', 6)],
    );
    expect(itemOf(g, 'a').dropped).toBe('highest');
    expect(cat(g).percent).toBe(55);
  });

  it('keepAtLeast limits the drops: lowest 2, keep 2 of 3 items drops one', () => {
    // 2/10, 4/10, 9/10: l = min(2, 3 - 2, 3) = 1 -> drop 2/10 -> 13/20 = 65.0%
    const g = gradeOf(
      setupWith({ cats: [['q', 100, { drop: { lowest: 2, highest: 0, keepAtLeast: 2 } }]] }),
      [item('a', 10), item('b', 10), item('c', 10)],
      [sub('a', 2), sub('b', 4), sub('c', 9)],
    );
    expect(g.items!.filter((i) => i.dropped).map((i) => i.itemId)).toEqual(['a']);
    expect(cat(g).percent).toBe(65);
  });

  it('a lowest drop that is not made never makes room for a highest drop', () => {
    // lowest 1, highest 1, keep 1, three items 10/10: l = min(1, 2, 3) = 1, h = min(1, 3-1-1, 3-1) = 1.
    // All 100%: dropping keeps 100% so the lowest drop is made (most drops), on the first item;
    // then exactly one highest drop, the first of the rest.
    const g = gradeOf(
      setupWith({ cats: [['q', 100, { drop: { lowest: 1, highest: 1, keepAtLeast: 1 } }]] }),
      [item('a', 10), item('b', 10), item('c', 10)],
      [sub('a', 10), sub('b', 10), sub('c', 10)],
    );
    expect(g.items!.map((i) => i.dropped)).toEqual(['lowest', 'highest', null]);
    expect(cat(g)).toMatchObject({ earned: 10, possible: 10, percent: 100 });
  });

  it('ties: equal results prefer the most drops, then the items that come first', () => {
    // 5/10, 5/10, 9/10, one lowest drop: dropping either 5/10 gives 14/20; the first is dropped.
    const g = gradeOf(
      setupWith({ cats: [['q', 100, { drop: { lowest: 1, highest: 0, keepAtLeast: 1 } }]] }),
      [item('a', 10), item('b', 10), item('c', 10)],
      [sub('a', 5), sub('b', 5), sub('c', 9)],
    );
    expect(g.items!.map((i) => i.dropped)).toEqual(['lowest', null, null]);
    // all equal, lowest 2: dropping keeps 100%, so both allowed drops are made on the first two.
    const all = gradeOf(
      setupWith({ cats: [['q', 100, { drop: { lowest: 2, highest: 0, keepAtLeast: 1 } }]] }),
      [item('x', 10), item('y', 10), item('z', 10)],
      [sub('x', 7), sub('y', 7), sub('z', 7)],
    );
    expect(all.items!.map((i) => i.dropped)).toEqual(['lowest', 'lowest', null]);
  });

  it('"first" is course item order: module position, module id, item position, id', () => {
    const items = [
      { ...item('late-module', 10), moduleId: 'm2', modulePosition: 1, position: 0 },
      { ...item('early-module', 10), moduleId: 'm1', modulePosition: 0, position: 5 },
      { ...item('z-keep', 10), moduleId: 'm1', modulePosition: 0, position: 9 },
    ];
    const g = gradeOf(setupWith({ cats: [['q', 100, { drop: { lowest: 1, highest: 0, keepAtLeast: 1 } }]] }), items, [
      sub('late-module', 5),
      sub('early-module', 5),
      sub('z-keep', 9),
    ]);
    expect(g.items!.find((i) => i.dropped)!.itemId).toBe('early-module');
  });
});

describe('rounding and letters', () => {
  it('89.95 rounds half-up to 90.0 and gets A- (naive float gives 89.94999999999999)', () => {
    // 100 * 17.99 / 20 in binary floating point is 89.94999999999999
    expect((100 * 17.99) / 20).toBeLessThan(89.95);
    const g = gradeOf(setupWith({ mode: 'points' }), [item('a', 20)], [sub('a', 17.99)]);
    expect(g.percent).toBe(90);
    expect(g.letter).toBe('A-');
  });

  it('89.94999 rounds to 89.9 and gets B+', () => {
    const g = gradeOf(setupWith({ mode: 'points' }), [item('a', 100000)], [sub('a', 89949.99)]);
    expect(g.percent).toBe(89.9);
    expect(g.letter).toBe('B+');
  });

  it('0.1 + 0.2 is exactly 0.3', () => {
    // 0.1 + 0.2 of 0.3 possible = 100.0%, not 100.00000000000001 -> still 100.0 but exact; and 0.7 + 0.1 = 0.8 of 0.8
    const g = gradeOf(setupWith({ mode: 'points' }), [item('a', 0.1), item('b', 0.2), item('c', 0.5)], [sub('a', 0.1), sub('b', 0.2), sub('c', 0.2)]);
    // (0.1 + 0.2 + 0.2) / 0.8 = 62.5%
    expect(g.percent).toBe(62.5);
    expect(cat(g)).toMatchObject({ earned: 0.5, possible: 0.8 });
  });

  it('above 100 gets the top band; below every band gets no letter', () => {
    const over = gradeOf(
      setupWith({ cats: [['q', 100]], extraCredit: { categoryCapPercent: null, courseCapPoints: null } }),
      [item('a', 10), item('ec', 0)],
      [sub('a', 10), sub('ec', 5)],
    );
    expect(over.percent).toBe(150);
    expect(over.letter).toBe('A');
    const s = setupWith();
    s.scheme = { ...s.scheme, bands: [{ letter: 'P', min: 50 }] };
    expect(gradeOf(s, [item('a', 10)], [sub('a', 4)]).letter).toBeNull();
    expect(gradeOf(s, [item('a', 10)], [sub('a', 5)]).letter).toBe('P');
  });

  it('two bands with the same min: the one listed first', () => {
    const s = setupWith();
    s.scheme = {
      ...s.scheme,
      bands: [
        { letter: 'Pass', min: 50 },
        { letter: 'OK', min: 50 },
        { letter: 'F', min: 0 },
      ],
    };
    expect(gradeOf(s, [item('a', 10)], [sub('a', 6)]).letter).toBe('Pass');
  });
});

describe('weights', () => {
  const two = (weights: [number, number]) =>
    setupWith({
      cats: [
        ['a', weights[0]],
        ['b', weights[1]],
      ],
    });
  const items = () => [item('x', 10, 'a'), item('y', 10, 'b')];
  const subs = [sub('x', 8), sub('y', 6)]; // a = 80%, b = 60%

  it('weights summing to 80 scale up: (50*80 + 30*60) / 80 = 72.5', () => {
    expect(gradeOf(two([50, 30]), items(), subs)).toMatchObject({ percent: 72.5, letter: 'C-' });
  });

  it('weights summing to 110 do not scale down: (60*80 + 50*60) / 100 = 78.0', () => {
    expect(gradeOf(two([60, 50]), items(), subs)).toMatchObject({ percent: 78, letter: 'C+' });
  });

  it('an empty category shares its weight: (50*80 + 20*60) / 70 = 74.2857 -> 74.3', () => {
    const s = setupWith({
      cats: [
        ['a', 50],
        ['e', 30],
        ['b', 20],
      ],
    });
    const g = gradeOf(s, [item('x', 10, 'a'), item('z', 10, 'e', null), item('y', 10, 'b')], subs);
    expect(g.categories.find((c) => c.categoryId === 'e')).toMatchObject({ empty: true, percent: null });
    expect(g).toMatchObject({ percent: 74.3, letter: 'C' });
  });

  it('no graded work at all: the grade is null', () => {
    expect(gradeOf(two([50, 50]), items(), [])).toMatchObject({ percent: null, letter: null });
  });
});

describe('late work', () => {
  const DUE = '2026-10-01T00:00:00.000Z';
  const late = (over: object) =>
    setupWith({
      late: { enabled: true, percentPerPeriod: 10, period: 'hour', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0, ...over },
    });
  const one = (s: ReturnType<typeof setupWith>, at: string, score = 8) => gradeOf(s, [item('a', 10, 'q', DUE)], [sub('a', score, at)]);

  it('by hour, basis possible: 150 minutes late = 3 periods, 10% of 10 each -> 8 - 3 = 5', () => {
    const g = one(late({}), '2026-10-01T02:30:00.000Z');
    expect(itemOf(g, 'a')).toMatchObject({ effectiveScore: 5, late: { periods: 3, deduction: 3 } });
  });

  it('by hour, basis score: 3 periods of 10% of 8 -> 8 - 2.4 = 5.6', () => {
    expect(itemOf(one(late({ basis: 'score' }), '2026-10-01T02:30:00.000Z'), 'a').effectiveScore).toBe(5.6);
  });

  it('grace: within it is on time; past it, periods count from the due date, not from due + grace', () => {
    expect(itemOf(one(late({ graceMinutes: 180 }), '2026-10-01T02:30:00.000Z'), 'a')).toMatchObject({ effectiveScore: 8, late: null });
    expect(itemOf(one(late({ graceMinutes: 120 }), '2026-10-01T02:30:00.000Z'), 'a')).toMatchObject({ effectiveScore: 5, late: { periods: 3 } });
  });

  it('by day: 49 hours late = 3 days; both bases', () => {
    expect(itemOf(one(late({ period: 'day' }), '2026-10-03T01:00:00.000Z'), 'a').effectiveScore).toBe(5);
    expect(itemOf(one(late({ period: 'day', basis: 'score' }), '2026-10-03T01:00:00.000Z'), 'a').effectiveScore).toBe(5.6);
    // with a day's grace (1440 min) the 49 hours are still 3 periods from the due date
    expect(itemOf(one(late({ period: 'day', graceMinutes: 1440 }), '2026-10-03T01:00:00.000Z'), 'a').effectiveScore).toBe(5);
  });

  it('past maxPeriods: hold-at-max deducts the cap; missing zeroes the item whatever treatAs says', () => {
    const hold = one(late({ period: 'day', maxPeriods: 2 }), '2026-10-03T01:00:00.000Z');
    expect(itemOf(hold, 'a')).toMatchObject({ effectiveScore: 6, late: { periods: 2, deduction: 2 } });
    const s = late({ period: 'day', maxPeriods: 2, afterMax: 'missing' });
    s.missing = { treatAs: 'exclude-until-graded', droppable: false };
    const gone = one(s, '2026-10-03T01:00:00.000Z');
    expect(itemOf(gone, 'a')).toMatchObject({ status: 'missing', effectiveScore: 0 });
    expect(cat(gone)).toMatchObject({ earned: 0, possible: 10, percent: 0 });
  });

  it('the deduction is floored at 0', () => {
    expect(itemOf(one(late({ period: 'day', percentPerPeriod: 50 }), '2026-10-03T01:00:00.000Z'), 'a').effectiveScore).toBe(0);
  });

  it('no penalty when late is off or the category has lateApplies false', () => {
    expect(itemOf(one(setupWith(), '2026-10-03T01:00:00.000Z'), 'a').effectiveScore).toBe(8);
    const s = late({ period: 'day' });
    s.categories[0]!.lateApplies = false;
    expect(itemOf(one(s, '2026-10-03T01:00:00.000Z'), 'a').effectiveScore).toBe(8);
  });

  it('fractional percentages stay exact: 12.5% per day of 7.3 possible, 2 days -> 8 - 1.825 = 6.175', () => {
    const g = gradeOf(late({ period: 'day', percentPerPeriod: 12.5 }), [item('a', 7.3, 'q', DUE)], [sub('a', 8, '2026-10-02T12:00:00.000Z')]);
    expect(itemOf(g, 'a').effectiveScore).toBe(6.175);
  });
});

describe('missing work', () => {
  const s = (treatAs: 'zero-after-due' | 'exclude-until-graded', droppable = false, lowest = 0) =>
    setupWith({ cats: [['q', 100, { drop: { lowest, highest: 0, keepAtLeast: 1 } }]], missing: { treatAs, droppable } });

  it('zero-after-due counts 0 of P once due (+ grace) has passed', () => {
    const g = gradeOf(s('zero-after-due'), [item('a', 10), item('b', 10)], [sub('b', 9)]);
    expect(itemOf(g, 'a')).toMatchObject({ status: 'missing', effectiveScore: 0 });
    expect(cat(g)).toMatchObject({ earned: 9, possible: 20, percent: 45 });
  });

  it('exclude-until-graded leaves it out', () => {
    const g = gradeOf(s('exclude-until-graded'), [item('a', 10), item('b', 10)], [sub('b', 9)]);
    expect(itemOf(g, 'a')).toMatchObject({ status: 'missing', effectiveScore: null });
    expect(cat(g)).toMatchObject({ earned: 9, possible: 10, percent: 90 });
  });

  it('droppable false: a missing zero is never dropped; true: it can be', () => {
    // 0 (missing), 5/10, 9/10, one lowest drop. Not droppable: the choices are no drop 14/30 = 46.7%,
    // drop 5/10 -> 9/20 = 45%, drop 9/10 -> 5/20 = 25%: no drop is best (a drop never lowers the
    // percentage). Droppable: drop the zero -> 14/20 = 70%.
    const items = () => [item('a', 10), item('b', 10), item('c', 10)];
    const subs = [sub('b', 5), sub('c', 9)];
    const kept = gradeOf(s('zero-after-due', false, 1), items(), subs);
    expect(kept.items!.every((i) => i.dropped === null)).toBe(true);
    expect(cat(kept).percent).toBe(46.7);
    // with 3/10 instead of 5/10, dropping it helps: 9/20 = 45% > 12/30 = 40%
    const helps = gradeOf(s('zero-after-due', false, 1), items(), [sub('b', 3), sub('c', 9)]);
    expect(itemOf(helps, 'b').dropped).toBe('lowest');
    expect(itemOf(helps, 'a').dropped).toBeNull();
    expect(cat(helps).percent).toBe(45);
    const dropped = gradeOf(s('zero-after-due', true, 1), items(), subs);
    expect(itemOf(dropped, 'a').dropped).toBe('lowest');
    expect(cat(dropped).percent).toBe(70);
  });

  it('grace applies to missing work even when late penalties are off', () => {
    const due = '2026-11-22T11:30:00.000Z'; // now is 12:00
    const withGrace = setupWith({ missing: { treatAs: 'zero-after-due', droppable: false } });
    withGrace.late.graceMinutes = 60;
    expect(itemOf(gradeOf(withGrace, [item('a', 10, 'q', due)], []), 'a').status).toBe('not-due');
    withGrace.late.graceMinutes = 10;
    expect(itemOf(gradeOf(withGrace, [item('a', 10, 'q', due)], []), 'a').status).toBe('missing');
  });

  it('an unsubmitted extra-credit item is never missing; no due date is never missing', () => {
    const g = gradeOf(s('zero-after-due'), [item('ec', 0), item('nd', 10, 'q', null), item('b', 10)], [sub('b', 9)]);
    expect(itemOf(g, 'ec').status).toBe('not-due');
    expect(itemOf(g, 'nd').status).toBe('not-due');
    expect(cat(g).percent).toBe(90);
  });

  it('submitted but ungraded is pending and excluded; the highest graded attempt is of record', () => {
    const g = gradeOf(
      s('zero-after-due'),
      [item('a', 10), item('b', 10)],
      [sub('a', null), sub('b', 9, undefined, { attempt: 1 }), sub('b', 6, undefined, { attempt: 2 }), sub('b', null, undefined, { attempt: 3 })],
    );
    expect(itemOf(g, 'a').status).toBe('pending');
    expect(itemOf(g, 'b')).toMatchObject({ score: 6, effectiveScore: 6 });
    expect(cat(g).percent).toBe(60);
  });

  it("a student's own view counts released grades only", () => {
    const g = gradeOf(s('zero-after-due'), [item('a', 10), item('b', 10)], [sub('a', 10, undefined, { releasedAt: null }), sub('b', 5)], NOW, true);
    expect(itemOf(g, 'a').status).toBe('pending');
    expect(cat(g).percent).toBe(50);
  });
});

describe('extra credit', () => {
  const items = () => [item('a', 10), item('ec', 0)];
  const subs = [sub('a', 8), sub('ec', 3)];

  it('weighted mode: categoryCapPercent caps X at a share of the kept possible points', () => {
    // cap 10% of 10 = 1: (8 + 1) / 10 = 90.0; uncapped: (8 + 3) / 10 = 110.0
    expect(gradeOf(setupWith({ extraCredit: { categoryCapPercent: 10, courseCapPoints: null } }), items(), subs)).toMatchObject({ percent: 90 });
    expect(gradeOf(setupWith(), items(), subs)).toMatchObject({ percent: 110 });
    const capped = gradeOf(setupWith({ extraCredit: { categoryCapPercent: 10, courseCapPoints: null } }), items(), subs);
    expect(capped.categories[0]!.extraCredit).toBe(1);
  });

  it('points mode: category caps do not apply; courseCapPoints caps the sum of X', () => {
    // 100 * (8 + min(3, 2)) / 10 = 100.0; without the course cap 110.0
    expect(gradeOf(setupWith({ mode: 'points', extraCredit: { categoryCapPercent: 10, courseCapPoints: 2 } }), items(), subs)).toMatchObject({ percent: 100 });
    expect(gradeOf(setupWith({ mode: 'points', extraCredit: { categoryCapPercent: 10, courseCapPoints: null } }), items(), subs)).toMatchObject({
      percent: 110,
    });
  });

  it('in weighted mode the extra credit of an empty category cannot count', () => {
    const s = setupWith({
      cats: [
        ['q', 50],
        ['e', 50],
      ],
    });
    const g = gradeOf(s, [item('a', 10, 'q'), item('ec', 0, 'e')], [sub('a', 8), sub('ec', 5)]);
    expect(g.categories[1]).toMatchObject({ empty: true, percent: null });
    expect(g.percent).toBe(80);
  });
});
