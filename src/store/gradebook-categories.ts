/**
 * Moving assignments between a setup's categories, and removing a category together with
 * the move of what it holds, each in one transaction (issue #13).
 */
import { categoryProblems } from '../domain/grading/category-rules.js';
import { AppError, invalid, type Problem } from '../errors.js';
import { eachInOrder, mapInOrder } from '../runtime/in-order.js';
import type { AssignmentValue } from '../schemas/content.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import { getAssignment, getAssignmentRow, updateAssignmentRow } from './assignments.js';
import { getModule } from './courses.js';
import type { Store } from './db.js';
import { loadSetup } from './gradebook.js';
import { assertSetupVersion, putGradebookSetup } from './gradebook-setups.js';

/** Ids of the course's assignments (drafts too) in a category, in course order. */
export async function assignmentsInCategory(store: Store, courseId: string, categoryId: string): Promise<string[]> {
  const rows = (await store.all(
    `SELECT a.id FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? AND a.category_id = ?
       ORDER BY m.position, m.id, a.position, a.id`,
    courseId,
    categoryId,
  )) as { id: string }[];
  return rows.map((r) => r.id);
}

export type AssignmentsTarget = { assignmentIds: string[] } | { moduleId: string };

/**
 * Put several assignments of a course (the given ids, or every assignment of a module) in
 * one category of its setup, or in none: every id is checked first, then all move.
 */
export function setAssignmentsCategory(store: Store, courseId: string, target: AssignmentsTarget, categoryId: string | null): Promise<AssignmentValue[]> {
  return store.tx(async (tx) => {
    const problems: Problem[] = [...categoryProblems((await loadSetup(tx, courseId)).categories, categoryId)];
    let ids: string[];
    if ('moduleId' in target) {
      const mod = await getModule(tx, target.moduleId);
      if (mod?.courseId !== courseId)
        problems.push({ path: 'moduleId', message: `no module ${JSON.stringify(target.moduleId)} in course ${JSON.stringify(courseId)}` });
      ids = ((await tx.all('SELECT id FROM assignments WHERE module_id = ? ORDER BY position, id', target.moduleId)) as { id: string }[]).map((r) => r.id);
    } else {
      ids = target.assignmentIds;
      const seen = new Set<string>();
      await eachInOrder(ids, async (id, i) => {
        if (seen.has(id)) problems.push({ path: `assignmentIds[${i}]`, message: `${JSON.stringify(id)} is listed twice` });
        seen.add(id);
        if ((await getAssignmentRow(tx, id))?.courseId !== courseId) {
          problems.push({ path: `assignmentIds[${i}]`, message: `no assignment ${JSON.stringify(id)} in course ${JSON.stringify(courseId)}` });
        }
      });
    }
    if (problems.length > 0) throw invalid(problems);
    for (const id of ids) {
      const before = (await getAssignmentRow(tx, id))!;
      if (before.categoryId !== categoryId) await updateAssignmentRow(tx, before, { ...before, categoryId });
    }
    return await mapInOrder(ids, async (id) => (await getAssignment(tx, id))!);
  });
}

/**
 * Remove a category from the setup, decided on version `expectedVersion`. A category that
 * holds assignments is removed only with `moveTo`, another category of the setup: its
 * assignments and student notes move there in the same transaction. Without assignments,
 * its notes go with it.
 */
export function removeCategory(
  store: Store,
  courseId: string,
  categoryId: string,
  change: { expectedVersion: number; moveTo?: string | undefined; by: string; now: string },
): Promise<GradebookSetupValue> {
  return store.tx(async (tx) => {
    const setup = await loadSetup(tx, courseId);
    assertSetupVersion(setup, change.expectedVersion);
    if (!setup.categories.some((c) => c.id === categoryId)) {
      throw new AppError('not-found', `Category ${JSON.stringify(categoryId)} is not in the gradebook setup of course ${JSON.stringify(courseId)}.`);
    }
    const { moveTo } = change;
    if (moveTo !== undefined) {
      const problems =
        moveTo === categoryId
          ? [{ path: 'moveTo', message: `must be another category than the one removed (${JSON.stringify(categoryId)})` }]
          : categoryProblems(setup.categories, moveTo, 'moveTo');
      if (problems.length > 0) throw invalid(problems);
    }
    const held = await assignmentsInCategory(tx, courseId, categoryId);
    if (held.length > 0 && moveTo === undefined) {
      const n = held.length;
      const [they, them] = n === 1 ? ['it moves', 'it'] : ['they move', 'them'];
      throw new AppError(
        'conflict',
        `Category ${JSON.stringify(categoryId)} holds ${n} assignment${n === 1 ? '' : 's'} (${held.slice(0, 10).join(', ')}${n > 10 ? ', ...' : ''}); ` +
          `name the category ${they} to (moveTo), or move ${them} first.`,
        { categoryId, assignments: held },
      );
    }
    if (held.length > 0) await setAssignmentsCategory(tx, courseId, { assignmentIds: held }, moveTo!);
    const studentNotes =
      moveTo === undefined
        ? setup.studentNotes.filter((n) => n.categoryId !== categoryId)
        : setup.studentNotes.map((n) => (n.categoryId === categoryId ? { ...n, categoryId: moveTo } : n));
    return putGradebookSetup(tx, {
      ...setup,
      categories: setup.categories.filter((c) => c.id !== categoryId),
      studentNotes,
      version: setup.version + 1,
      updatedBy: change.by,
      updatedAt: change.now,
    });
  });
}
