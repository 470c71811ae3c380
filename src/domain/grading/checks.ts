/** The 16 setup checks of grading.md ("Setup checks"), computed from the setup and the published items. */
import { compareStrings } from '../compare.js';
import { decimalsOf, toUnitsBig } from './exact.js';
import { compareCategoriesInOrder } from './order.js';
import type { CheckCode, GradebookSetup, GradeItem, SetupCheck } from './types.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function computeSetupChecks(input: { setup: GradebookSetup; items: GradeItem[]; now: string }): SetupCheck[] {
  const { setup, items } = input;
  const nowMs = Date.parse(input.now);
  const out: { code: CheckCode; target: string; message: string }[] = [];
  const add = (code: CheckCode, target: string, message: string) => out.push({ code, target, message });
  const weighted = setup.mode === 'weighted';
  const categories = [...setup.categories].sort(compareCategoriesInOrder);
  const catIds = new Set(setup.categories.map((c) => c.id));
  const itemsOf = (id: string) => items.filter((it) => it.categoryId === id);

  if (weighted) {
    const d = Math.max(0, ...setup.categories.map((c) => decimalsOf(c.weight)));
    const sum = setup.categories.reduce((acc, c) => acc + toUnitsBig(c.weight, d), 0n);
    if (sum !== 100n * 10n ** BigInt(d)) {
      const shown = setup.categories.reduce((acc, c) => acc + c.weight, 0);
      add('weights-not-100', 'course', `Category weights sum to ${Number(shown.toFixed(d))}, not 100.`);
    }
  }

  for (const c of categories) {
    const all = itemsOf(c.id);
    const scored = all.filter((it) => it.points > 0);
    const n = scored.length;
    const drops = c.drop.lowest + c.drop.highest;
    if (weighted && all.length > 0 && c.weight === 0) add('weight-invalid', c.id, `Category "${c.name}" has items but weight 0, so they count for nothing.`);
    if (all.length === 0) add('category-empty', c.id, `Category "${c.name}" has no published items.`);
    const exceeds = n > 0 && drops >= n;
    if (exceeds) add('drop-exceeds-items', c.id, `Category "${c.name}" drops ${drops} of its ${plural(n, 'item')}, leaving none.`);
    if (drops > 0) {
      const open = scored.filter((it) => it.dueAt === null || Date.parse(it.dueAt) > nowMs);
      if (open.length > 0)
        add(
          'drop-before-complete',
          c.id,
          `Category "${c.name}" drops scores while ${plural(open.length, 'item is', 'items are')} not yet due; early grades will shift as work comes in.`,
        );
    }
    const keepInvalid = drops > 0 && c.drop.keepAtLeast > n;
    if (keepInvalid) add('keep-at-least-invalid', c.id, `Category "${c.name}" keeps at least ${c.drop.keepAtLeast} but has only ${plural(n, 'item')}.`);
    if (drops > 0 && n - drops < c.drop.keepAtLeast && !exceeds && !keepInvalid) {
      add(
        'drop-count-invalid',
        c.id,
        `Category "${c.name}" cannot drop ${drops} of ${plural(n, 'item')} and keep at least ${c.drop.keepAtLeast}; fewer drops will be made.`,
      );
    }
  }

  const bands = setup.scheme.bands;
  const lowest = Math.min(...bands.map((b) => b.min));
  if (lowest > 0) add('scheme-gap', 'scheme', `The lowest band starts at ${lowest}: a grade below it gets no letter.`);
  const mins = new Set<number>();
  const letters = new Set<string>();
  let overlap = false;
  for (const b of bands) {
    if (mins.has(b.min) || letters.has(b.letter)) overlap = true;
    mins.add(b.min);
    letters.add(b.letter);
  }
  if (overlap) add('scheme-overlap', 'scheme', 'Two bands share a minimum or a letter.');
  if (bands.some((b, i) => i > 0 && !(b.min < bands[i - 1]!.min)))
    add('scheme-order', 'scheme', 'Bands are not listed in strictly descending order of their minimum.');

  if (setup.late.enabled && setup.late.maxPeriods === null)
    add('late-no-cap', 'late', 'Late penalties have no maximum number of periods, so very late work can lose all its points.');

  const extraCredit = items.some((it) => it.points === 0 && it.categoryId !== null && catIds.has(it.categoryId));
  if (extraCredit) {
    const current = weighted ? setup.extraCredit.categoryCapPercent : setup.extraCredit.courseCapPoints;
    const other = weighted ? setup.extraCredit.courseCapPoints : setup.extraCredit.categoryCapPercent;
    if (current === null)
      add(
        'extra-credit-uncapped',
        'extraCredit',
        `Extra credit is uncapped in ${setup.mode} mode (set ${weighted ? 'categoryCapPercent' : 'courseCapPoints'}).`,
      );
    if (current === null && other !== null) {
      add('mode-switch-extra-credit', 'extraCredit', `Only the ${weighted ? 'points' : 'weighted'}-mode cap is set; it does not apply in ${setup.mode} mode.`);
    }
  }

  const ordered = [...items].sort((a, b) => compareStrings(a.id, b.id));
  for (const it of ordered) {
    if (it.categoryId === null || !catIds.has(it.categoryId)) {
      add(
        'item-no-category',
        it.id,
        `"${it.title}" ${it.categoryId === null ? 'has no category' : `names category ${JSON.stringify(it.categoryId)}, which is not in the setup`}; it counts nowhere.`,
      );
    }
  }
  for (const it of ordered) if (it.points === 0) add('item-zero-points', it.id, `"${it.title}" is worth 0 points, so it counts as extra credit.`);

  if (setup.missing.treatAs === 'zero-after-due' && setup.missing.droppable && setup.categories.some((c) => c.drop.lowest > 0)) {
    add('missing-droppable', 'missing', 'Missing work counts as zero and may be dropped, so a student can skip work that a lowest drop then removes.');
  }

  const dismissed = new Set(setup.dismissedChecks.map((d) => `${d.code}\u0000${d.target}`));
  return out.map((c) => ({ ...c, dismissed: dismissed.has(`${c.code}\u0000${c.target}`) }));
}
