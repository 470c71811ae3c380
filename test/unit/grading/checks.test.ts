import { describe, expect, it } from 'vitest';
import { computeSetupChecks, type GradebookSetup, type GradeItem } from '../../../src/domain/grading/index.js';
import { item, NOW, setupWith } from './fixtures.js';

/** A setup and items where no check fires; each case below changes one thing. */
function base(): { setup: GradebookSetup; items: GradeItem[] } {
  const setup = setupWith({
    cats: [
      ['q', 60, { drop: { lowest: 1, highest: 0, keepAtLeast: 1 } }],
      ['e', 40],
    ],
    late: { enabled: true, percentPerPeriod: 10, period: 'day', basis: 'possible', maxPeriods: 3, afterMax: 'hold-at-max', graceMinutes: 0 },
    missing: { treatAs: 'exclude-until-graded', droppable: false },
    extraCredit: { categoryCapPercent: 10, courseCapPoints: null },
  });
  return { setup, items: [item('q1', 10, 'q'), item('q2', 10, 'q'), item('q3', 10, 'q'), item('e1', 50, 'e')] };
}

const codes = (setup: GradebookSetup, items: GradeItem[]) => computeSetupChecks({ setup, items, now: NOW }).map((c) => `${c.code}@${c.target}`);

describe('setup checks', () => {
  it('none fire for a sound setup', () => {
    const { setup, items } = base();
    expect(codes(setup, items)).toEqual([]);
  });

  const cases: [string, (b: ReturnType<typeof base>) => void, string[]][] = [
    ['weights-not-100', (b) => void (b.setup.categories[1]!.weight = 30), ['weights-not-100@course']],
    [
      'weights-not-100 is exact: 33.3 + 33.3 + 33.4 = 100',
      (b) => {
        b.setup.categories = [
          { ...b.setup.categories[0]!, weight: 33.3 },
          { ...b.setup.categories[1]!, weight: 33.3 },
          { ...b.setup.categories[1]!, id: 'f', position: 2, weight: 33.4 },
        ];
        b.items.push(item('f1', 10, 'f'));
      },
      [],
    ],
    [
      'weight-invalid',
      (b) => {
        b.setup.categories[0]!.weight = 100;
        b.setup.categories[1]!.weight = 0;
      },
      ['weight-invalid@e'],
    ],
    ['category-empty', (b) => void b.setup.categories.push({ ...b.setup.categories[1]!, id: 'x', position: 2, weight: 0 }), ['category-empty@x']],
    ['drop-exceeds-items', (b) => void (b.setup.categories[0]!.drop = { lowest: 2, highest: 1, keepAtLeast: 1 }), ['drop-exceeds-items@q']],
    ['drop-before-complete (future due date)', (b) => void (b.items[0]!.dueAt = '2026-12-01T00:00:00.000Z'), ['drop-before-complete@q']],
    ['drop-before-complete (no due date)', (b) => void (b.items[1]!.dueAt = null), ['drop-before-complete@q']],
    ['keep-at-least-invalid', (b) => void (b.setup.categories[0]!.drop.keepAtLeast = 4), ['keep-at-least-invalid@q']],
    ['drop-count-invalid', (b) => void (b.setup.categories[0]!.drop = { lowest: 2, highest: 0, keepAtLeast: 2 }), ['drop-count-invalid@q']],
    ['scheme-gap', (b) => void (b.setup.scheme.bands = b.setup.scheme.bands.filter((x) => x.letter !== 'F')), ['scheme-gap@scheme']],
    ['scheme-overlap (same letter)', (b) => void b.setup.scheme.bands.splice(11, 0, { letter: 'A', min: 50 }), ['scheme-overlap@scheme']],
    [
      'scheme-overlap and scheme-order (same min)',
      (b) => void b.setup.scheme.bands.splice(11, 0, { letter: 'E', min: 60 }),
      ['scheme-overlap@scheme', 'scheme-order@scheme'],
    ],
    [
      'scheme-order',
      (b) => {
        const [a, am] = b.setup.scheme.bands;
        b.setup.scheme.bands[0] = am!;
        b.setup.scheme.bands[1] = a!;
      },
      ['scheme-order@scheme'],
    ],
    ['late-no-cap', (b) => void (b.setup.late.maxPeriods = null), ['late-no-cap@late']],
    [
      'late-no-cap does not fire when late is off',
      (b) => {
        b.setup.late.maxPeriods = null;
        b.setup.late.enabled = false;
      },
      [],
    ],
    [
      'extra-credit-uncapped (and item-zero-points)',
      (b) => {
        b.items.push(item('ec', 0, 'q'));
        b.setup.extraCredit.categoryCapPercent = null;
      },
      ['extra-credit-uncapped@extraCredit', 'item-zero-points@ec'],
    ],
    ['extra credit capped: only item-zero-points', (b) => void b.items.push(item('ec', 0, 'q')), ['item-zero-points@ec']],
    [
      'mode-switch-extra-credit',
      (b) => {
        b.items.push(item('ec', 0, 'q'));
        b.setup.extraCredit = { categoryCapPercent: null, courseCapPoints: 5 };
      },
      ['extra-credit-uncapped@extraCredit', 'mode-switch-extra-credit@extraCredit', 'item-zero-points@ec'],
    ],
    [
      'mode-switch-extra-credit in points mode',
      (b) => {
        b.items.push(item('ec', 0, 'q'));
        b.setup.mode = 'points';
        b.setup.extraCredit = { categoryCapPercent: 10, courseCapPoints: null };
      },
      ['extra-credit-uncapped@extraCredit', 'mode-switch-extra-credit@extraCredit', 'item-zero-points@ec'],
    ],
    ['item-no-category (none)', (b) => void b.items.push(item('loose', 10, null)), ['item-no-category@loose']],
    ['item-no-category (unknown)', (b) => void b.items.push(item('stray', 10, 'nope')), ['item-no-category@stray']],
    ['missing-droppable', (b) => void (b.setup.missing = { treatAs: 'zero-after-due', droppable: true }), ['missing-droppable@missing']],
    [
      'missing-droppable needs a lowest drop',
      (b) => {
        b.setup.missing = { treatAs: 'zero-after-due', droppable: true };
        b.setup.categories[0]!.drop.lowest = 0;
      },
      [],
    ],
    [
      'weights are not checked in points mode',
      (b) => {
        b.setup.mode = 'points';
        b.setup.categories[1]!.weight = 0;
      },
      [],
    ],
  ];

  for (const [name, change, expected] of cases) {
    it(name, () => {
      const b = base();
      change(b);
      expect(codes(b.setup, b.items).sort()).toEqual([...expected].sort());
    });
  }

  it('drop checks count only items with points > 0', () => {
    const b = base();
    b.items = [item('q1', 10, 'q'), item('ec', 0, 'q'), item('e1', 50, 'e')];
    // one scored item, lowest 1: 1 >= 1 -> drop-exceeds-items (the extra-credit item does not count)
    expect(codes(b.setup, b.items)).toContain('drop-exceeds-items@q');
  });

  it('a dismissed check is still reported, with dismissed: true; a dismissal that no longer fires is not listed', () => {
    const b = base();
    b.setup.late.maxPeriods = null;
    b.setup.dismissedChecks = [
      { code: 'late-no-cap', target: 'late', by: 'u', at: NOW },
      { code: 'weights-not-100', target: 'course', by: 'u', at: NOW },
    ];
    expect(computeSetupChecks({ setup: b.setup, items: b.items, now: NOW })).toEqual([
      { code: 'late-no-cap', target: 'late', message: expect.stringMatching(/maximum/), dismissed: true },
    ]);
  });
});
