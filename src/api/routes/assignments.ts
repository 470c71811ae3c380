import { z } from '@hono/zod-openapi';
import { assignmentForViewer } from '../../domain/content/block-view.js';
import { categoryProblems } from '../../domain/grading/category-rules.js';
import { firstCategoryId } from '../../domain/grading/defaults.js';
import { invalid, notFound, type Problem } from '../../errors.js';
import { definedFields } from '../../runtime/objects.js';
import { Id } from '../../schemas/common.js';
import { Assignment, AssignmentCreate, AssignmentUpdate } from '../../schemas/content.js';
import { getAssignment, getAssignmentRow, insertAssignment, listCourseAssignments, replaceInstructions, updateAssignmentRow } from '../../store/assignments.js';
import { unpublishAssignment } from '../../store/content-lifecycle.js';
import { getModule } from '../../store/courses.js';
import type { Store } from '../../store/db.js';
import { getGradebookSetup } from '../../store/gradebook-setups.js';
import { defineOperation, type RouteModule } from '../define.js';

const CourseParams = z.object({ courseId: Id });
const ModuleParams = z.object({ moduleId: Id });
const AssignmentParams = z.object({ assignmentId: Id });

async function checkCategory(store: Store, courseId: string, categoryId: string | null | undefined): Promise<Problem[]> {
  return categoryProblems((await getGradebookSetup(store, courseId))?.categories ?? [], categoryId);
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
    handler: async ({ deps, params, granted }) =>
      (await listCourseAssignments(deps.store, params.courseId, granted.role === 'student')).map((a) => assignmentForViewer(a, granted)),
  }),
  defineOperation({
    operationId: 'createAssignment',
    method: 'post',
    path: '/modules/{moduleId}/assignments',
    summary: "Create a draft assignment (last in the module unless a position is given; without categoryId, in the setup's first category)",
    tag: 'assignments',
    params: ModuleParams,
    body: AssignmentCreate,
    response: Assignment,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const mod = (await getModule(tx, params.moduleId))!;
        const problems = [
          ...(await checkCategory(tx, mod.courseId, body.categoryId)),
          ...(body.instructions as { id?: string }[]).flatMap((b, i) =>
            b.id !== undefined ? [{ path: `instructions[${i}].id`, message: 'a new assignment has no blocks to name' }] : [],
          ),
        ];
        if (problems.length > 0) throw invalid(problems);
        const id = deps.ids.next('asg');
        await insertAssignment(
          tx,
          {
            id,
            moduleId: mod.id,
            courseId: mod.courseId,
            title: body.title,
            status: 'draft',
            publishedAt: null,
            dueAt: body.dueAt,
            points: body.points,
            submissionType: body.submissionType,
            categoryId: body.categoryId === undefined ? firstCategoryId((await getGradebookSetup(tx, mod.courseId))?.categories ?? []) : body.categoryId,
            rubric: body.rubric,
          },
          body.position,
        );
        await replaceInstructions(tx, id, body.instructions, { now: deps.clock.now(), ids: deps.ids });
        return getAssignment(tx, id);
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
    handler: async ({ deps, params, granted }) => assignmentForViewer(await getAssignment(deps.store, params.assignmentId), granted),
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
      deps.store.tx(async (tx) => {
        const before = await getAssignmentRow(tx, params.assignmentId);
        if (!before) throw notFound('Assignment', params.assignmentId);
        const problems = await checkCategory(tx, before.courseId, body.categoryId);
        if (problems.length > 0) throw invalid(problems);
        const { instructions, ...fields } = body;
        const changes = definedFields(fields);
        await updateAssignmentRow(tx, before, { ...before, ...changes });
        if (instructions !== undefined) await replaceInstructions(tx, before.id, instructions, { now: deps.clock.now(), ids: deps.ids });
        return getAssignment(tx, before.id);
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
      deps.store.tx(async (tx) => {
        const before = (await getAssignmentRow(tx, params.assignmentId))!;
        if (before.status !== 'published') await updateAssignmentRow(tx, before, { ...before, status: 'published', publishedAt: deps.clock.now() });
        return getAssignment(tx, before.id);
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
      deps.store.tx(async (tx) => {
        // The student-work rule has one home, shared with deletes and content writes.
        await unpublishAssignment(tx, params.assignmentId);
        return getAssignment(tx, params.assignmentId);
      }),
  }),
];
