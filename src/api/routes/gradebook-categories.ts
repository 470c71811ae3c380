/**
 * Category operations that must be one transaction (issue #13): removing a category
 * together with the move of its assignments, and moving several assignments into a
 * category at once. Adding and changing categories is the setup PUT.
 */
import { z } from '@hono/zod-openapi';
import { Id } from '../../schemas/common.js';
import { Assignment } from '../../schemas/content.js';
import { AssignmentsCategoryBody, GradebookSetup, RemoveCategoryQuery } from '../../schemas/gradebook.js';
import { removeCategory, setAssignmentsCategory } from '../../store/gradebook-categories.js';
import { defineOperation, type RouteModule } from '../define.js';

export const gradebookCategoriesRoutes: RouteModule = [
  defineOperation({
    operationId: 'removeGradebookCategory',
    method: 'delete',
    path: '/courses/{courseId}/gradebook/categories/{categoryId}',
    summary: 'Remove a category (at expectedVersion); one that holds assignments needs moveTo, where they go, in the same transaction',
    tag: 'gradebook',
    params: z.object({ courseId: Id, categoryId: Id }),
    query: RemoveCategoryQuery,
    response: GradebookSetup,
    handler: ({ deps, params, query, granted }) =>
      removeCategory(deps.store, params.courseId, params.categoryId, {
        expectedVersion: query.expectedVersion,
        moveTo: query.moveTo,
        by: granted.caller.user.id,
        now: deps.clock.now(),
      }),
  }),
  defineOperation({
    operationId: 'setAssignmentsCategory',
    method: 'post',
    path: '/courses/{courseId}/assignments/category',
    summary: 'Put several assignments (assignmentIds, or every one of moduleId) in a category of the setup, or none; all or nothing',
    tag: 'assignments',
    params: z.object({ courseId: Id }),
    body: AssignmentsCategoryBody,
    response: z.array(Assignment),
    handler: ({ deps, params, body }) =>
      setAssignmentsCategory(
        deps.store,
        params.courseId,
        body.moduleId !== undefined ? { moduleId: body.moduleId } : { assignmentIds: body.assignmentIds ?? [] },
        body.categoryId,
      ),
  }),
];
