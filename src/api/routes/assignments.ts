import { z } from '@hono/zod-openapi';
import { planInstructions } from '../../domain/content/rules.js';
import { AppError, invalid, notFound, type Problem } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { Assignment, AssignmentCreate, AssignmentUpdate } from '../../schemas/content.js';
import { getBlock, insertBlock, listBlocks, setBlockPosition, writeBlock, deleteInstructionBlocksExcept } from '../../store/blocks.js';
import { countSubmissions, getAssignment, getAssignmentRow, insertAssignment, listCourseAssignments, updateAssignmentRow } from '../../store/assignments.js';
import { getModule } from '../../store/courses.js';
import type { Store } from '../../store/db.js';
import { getGradebookSetup } from '../../store/gradebook-setups.js';
import { blockContentOf } from '../../store/rows.js';
import type { AppDeps } from '../context.js';
import { defineOperation, type RouteModule } from '../define.js';
import { definedFields } from '../../runtime/objects.js';

const CourseParams = z.object({ courseId: Id });
const ModuleParams = z.object({ moduleId: Id });
const AssignmentParams = z.object({ assignmentId: Id });

function checkCategory(store: Store, courseId: string, categoryId: string | null | undefined): Problem[] {
  if (categoryId === null || categoryId === undefined) return [];
  const setup = getGradebookSetup<{ courseId: string; version: number; categories: { id: string }[] }>(store, courseId);
  return setup?.categories.some((c) => c.id === categoryId) ? [] : [{ path: 'categoryId', message: `${JSON.stringify(categoryId)} is not a category of the course's gradebook setup` }];
}

/** Write the instruction list of an assignment as planned: identity kept by id. */
function replaceInstructions(deps: AppDeps, assignmentId: string, given: (Record<string, unknown> & { type: string; id?: string })[]): void {
  const stored = listBlocks(deps.store, { assignmentId }).map((b) => ({
    id: b.id, origin: b.origin, aiState: b.aiState, provenance: b.provenance, previous: b.previous, updatedAt: b.updatedAt, content: blockContentOf(b) as { type: string },
  }));
  const { plan, problems } = planInstructions(stored, given);
  if (problems.length > 0) throw invalid(problems);
  const now = deps.clock.now();
  deleteInstructionBlocksExcept(deps.store, assignmentId, new Set(plan.flatMap((p) => (p.kind === 'new' ? [] : [p.id]))));
  // Park kept blocks at negative positions first so the new order never collides.
  plan.forEach((p) => p.kind !== 'new' && setBlockPosition(deps.store, p.id, -1 - p.position));
  for (const p of plan) {
    if (p.kind === 'keep') setBlockPosition(deps.store, p.id, p.position);
    else if (p.kind === 'edit') {
      const old = getBlock(deps.store, p.id)!;
      writeBlock(deps.store, p.id, { content: p.content, origin: 'human', aiState: null, provenance: null, previous: p.previous, updatedAt: now });
      setBlockPosition(deps.store, old.id, p.position);
    } else {
      insertBlock(deps.store, { assignmentId }, { id: deps.ids.next('blk'), content: p.content, origin: 'human', aiState: null, provenance: null, previous: null, updatedAt: now }, p.position);
    }
  }
}

export const assignmentsRoutes: RouteModule = [
  defineOperation({
    operationId: 'listCourseAssignments',
    method: 'get',
    path: '/courses/{courseId}/assignments',
    summary: "A course's assignments: module position, then assignment position, then id (students: published ones)",
    tag: 'assignments',
    params: CourseParams,
    response: z.array(Assignment),
    handler: ({ deps, params, granted }) => listCourseAssignments(deps.store, params.courseId, granted.role === 'student'),
  }),
  defineOperation({
    operationId: 'createAssignment',
    method: 'post',
    path: '/modules/{moduleId}/assignments',
    summary: 'Create a draft assignment (last in the module unless a position is given)',
    tag: 'assignments',
    params: ModuleParams,
    body: AssignmentCreate,
    response: Assignment,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx(() => {
        const mod = getModule(deps.store, params.moduleId)!;
        const problems = [...checkCategory(deps.store, mod.courseId, body.categoryId), ...(body.instructions as { id?: string }[]).flatMap((b, i) => (b.id !== undefined ? [{ path: `instructions[${i}].id`, message: 'a new assignment has no blocks to name' }] : []))];
        if (problems.length > 0) throw invalid(problems);
        const id = deps.ids.next('asg');
        insertAssignment(deps.store, {
          id, moduleId: mod.id, courseId: mod.courseId, title: body.title, status: 'draft', publishedAt: null, dueAt: body.dueAt,
          points: body.points, submissionType: body.submissionType, categoryId: body.categoryId, rubric: body.rubric,
        }, body.position);
        replaceInstructions(deps, id, body.instructions as never);
        return getAssignment(deps.store, id);
      }),
  }),
  defineOperation({
    operationId: 'getAssignment',
    method: 'get',
    path: '/assignments/{assignmentId}',
    summary: 'Get an assignment with its rubric and instructions',
    tag: 'assignments',
    params: AssignmentParams,
    response: Assignment,
    handler: ({ deps, params }) => getAssignment(deps.store, params.assignmentId),
  }),
  defineOperation({
    operationId: 'updateAssignment',
    method: 'patch',
    path: '/assignments/{assignmentId}',
    summary: 'Change the given fields; rubric and instructions replace the stored lists (blocks keep identity by id); dueAt null clears',
    tag: 'assignments',
    params: AssignmentParams,
    body: AssignmentUpdate,
    response: Assignment,
    handler: ({ deps, params, body }) =>
      deps.store.tx(() => {
        const before = getAssignmentRow(deps.store, params.assignmentId);
        if (!before) throw notFound('Assignment', params.assignmentId);
        const problems = checkCategory(deps.store, before.courseId, body.categoryId);
        if (problems.length > 0) throw invalid(problems);
        const { instructions, ...fields } = body;
        const changes = definedFields(fields);
        updateAssignmentRow(deps.store, before, { ...before, ...changes });
        if (instructions !== undefined) replaceInstructions(deps, before.id, instructions as never);
        return getAssignment(deps.store, before.id);
      }),
  }),
  defineOperation({
    operationId: 'publishAssignment',
    method: 'post',
    path: '/assignments/{assignmentId}/publish',
    summary: 'Publish an assignment (sets publishedAt; publishing again changes nothing)',
    tag: 'assignments',
    params: AssignmentParams,
    response: Assignment,
    handler: ({ deps, params }) =>
      deps.store.tx(() => {
        const before = getAssignmentRow(deps.store, params.assignmentId)!;
        if (before.status !== 'published') updateAssignmentRow(deps.store, before, { ...before, status: 'published', publishedAt: deps.clock.now() });
        return getAssignment(deps.store, before.id);
      }),
  }),
  defineOperation({
    operationId: 'unpublishAssignment',
    method: 'post',
    path: '/assignments/{assignmentId}/unpublish',
    summary: 'Back to draft; refused with conflict once it has submissions',
    tag: 'assignments',
    params: AssignmentParams,
    response: Assignment,
    handler: ({ deps, params }) =>
      deps.store.tx(() => {
        const before = getAssignmentRow(deps.store, params.assignmentId)!;
        const n = countSubmissions(deps.store, before.id);
        if (n > 0) throw new AppError('conflict', `Assignment ${before.id} has ${n} submission${n === 1 ? '' : 's'}; it cannot go back to draft.`, { submissions: n });
        if (before.status !== 'draft') updateAssignmentRow(deps.store, before, { ...before, status: 'draft', publishedAt: null });
        return getAssignment(deps.store, before.id);
      }),
  }),
];
