/**
 * Grades in from a spreadsheet (issue #13): the parsed cells of a gradebook export,
 * planned against what the export prints now and written all or nothing (or, with dryRun,
 * only planned).
 */
import { z } from '@hono/zod-openapi';
import { Id } from '../../schemas/common.js';
import { GradesImportBody, GradesImportResult } from '../../schemas/gradebook.js';
import { importGrades } from '../../store/gradebook-import.js';
import { defineOperation, type RouteModule } from '../define.js';

export const gradebookImportRoutes: RouteModule = [
  defineOperation({
    operationId: 'importGrades',
    method: 'post',
    path: '/courses/{courseId}/gradebook/import',
    summary: 'Scores from a spreadsheet: each cell that differs from what the export prints is set as entered; all or nothing; dryRun plans only',
    tag: 'gradebook',
    params: z.object({ courseId: Id }),
    body: GradesImportBody,
    response: GradesImportResult,
    handler: ({ deps, params, body, granted }) =>
      importGrades(deps.store, params.courseId, body, { by: granted.caller.user.id, now: deps.clock.now(), ids: deps.ids }),
  }),
];
