import { z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { CourseFile } from '../../schemas/course-file.js';
import { formatZodIssues } from '../../schemas/problems.js';
import { importCourseFile, readCourseFile } from '../../store/course-file.js';
import { defineOperation, type RouteModule } from '../define.js';

export const courseFilesRoutes: RouteModule = [
  defineOperation({
    operationId: 'importCourse',
    method: 'post',
    path: '/courses/import',
    summary:
      'Create a course from a nested course file (all or nothing; problems listed with their paths). A file without a course id whose title an existing course has is conflict unless asNew=true.',
    tag: 'courses',
    // #14: an id-less file whose course title exists is refused unless asNew=true.
    query: z.object({ asNew: z.enum(['true', 'false']).optional() }),
    body: z.unknown().openapi({ description: 'A CourseFile document' }),
    response: z.object({ courseId: z.string(), modules: z.number(), lessons: z.number(), blocks: z.number(), assignments: z.number() }),
    status: 201,
    handler: ({ deps, body, query, granted }) => {
      const parsed = CourseFile.safeParse(body);
      if (!parsed.success) {
        const problems = formatZodIssues(parsed.error.issues, '', body);
        throw new AppError('invalid', `The course file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported.`, problems);
      }
      return importCourseFile(deps.store, deps, parsed.data, granted.caller.user.id, { asNew: query.asNew === 'true' });
    },
  }),
  defineOperation({
    operationId: 'exportCourse',
    method: 'get',
    path: '/courses/{courseId}/export',
    summary: 'The course as one nested course file (modules > lessons > blocks; assignments with rubrics and instructions)',
    tag: 'courses',
    params: z.object({ courseId: Id }),
    response: CourseFile,
    handler: ({ deps, params }) => readCourseFile(deps.store, params.courseId),
  }),
];
