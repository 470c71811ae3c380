/**
 * The offline authoring round trip (#14, docs/authoring.md): a course's content read and
 * written whole by id at a revision, and the marks a store keeps of its last push or pull
 * per remote. `coursebook courses push|pull|diff` use these on both sides.
 */
import { z } from '@hono/zod-openapi';
import { Id } from '../../schemas/common.js';
import { ContentWriteResult, CourseContent, CourseContentWrite, RemoteKey, SyncMarkAnswer, SyncMarkWrite } from '../../schemas/course-content.js';
import { readCourseContent, writeCourseContent } from '../../store/course-content.js';
import { getSyncMark, putSyncMark } from '../../store/sync-marks.js';
import { defineOperation, type RouteModule } from '../define.js';

const CourseParams = z.object({ courseId: Id });

export const courseContentRoutes: RouteModule = [
  defineOperation({
    operationId: 'getCourseContent',
    method: 'get',
    path: '/courses/{courseId}/content',
    summary: "The course file with every id (docs/course-format.md) and the content's revision",
    tag: 'courses',
    params: CourseParams,
    response: CourseContent,
    handler: ({ deps, params }) => readCourseContent(deps.store, params.courseId),
  }),
  defineOperation({
    operationId: 'putCourseContent',
    method: 'put',
    path: '/courses/{courseId}/content',
    summary:
      'Make the course equal to a course file with ids (create, change, move, delete by id; all or nothing) and answer the plan; dryRun only plans. A course that does not exist is created (admins).',
    tag: 'courses',
    params: CourseParams,
    body: CourseContentWrite,
    response: ContentWriteResult,
    handler: ({ deps, params, body, granted }) => writeCourseContent(deps.store, deps, params.courseId, body, granted.caller.user.id),
  }),
  defineOperation({
    operationId: 'getSyncMark',
    method: 'get',
    path: '/courses/{courseId}/sync-mark',
    summary: "This store's mark of its last push or pull of the course with a remote (null when none)",
    tag: 'courses',
    params: CourseParams,
    query: z.object({ remote: RemoteKey }),
    response: SyncMarkAnswer,
    handler: async ({ deps, params, query }) => ({
      courseId: params.courseId,
      remote: query.remote,
      mark: await getSyncMark(deps.store, params.courseId, query.remote),
    }),
  }),
  defineOperation({
    operationId: 'putSyncMark',
    method: 'put',
    path: '/courses/{courseId}/sync-mark',
    summary: 'Record a push or pull of the course with a remote: both revisions and the course file both copies then held',
    tag: 'courses',
    params: CourseParams,
    body: SyncMarkWrite,
    response: SyncMarkAnswer,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => ({
        courseId: params.courseId,
        remote: body.remote,
        mark: await putSyncMark(tx, { courseId: params.courseId, ...body, syncedAt: deps.clock.now() }),
      })),
  }),
];
