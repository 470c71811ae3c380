import { z } from '@hono/zod-openapi';
import { notFound } from '../../errors.js';
import { definedFields } from '../../runtime/objects.js';
import { Id } from '../../schemas/common.js';
import { Lesson, LessonCreate, LessonUpdate } from '../../schemas/content.js';
import { getModule } from '../../store/courses.js';
import { getLesson, insertLesson, listLessons, updateLesson } from '../../store/lessons.js';
import { defineOperation, type RouteModule } from '../define.js';

const ModuleParams = z.object({ moduleId: Id });
const LessonParams = z.object({ lessonId: Id });

export const lessonsRoutes: RouteModule = [
  defineOperation({
    operationId: 'createLesson',
    method: 'post',
    path: '/modules/{moduleId}/lessons',
    summary: 'Create a draft lesson at the end of the module',
    tag: 'lessons',
    params: ModuleParams,
    body: LessonCreate,
    response: Lesson,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const mod = (await getModule(tx, params.moduleId))!;
        return insertLesson(tx, {
          id: deps.ids.next('les'),
          moduleId: mod.id,
          courseId: mod.courseId,
          title: body.title,
          minutes: body.minutes,
          status: 'draft',
          publishedAt: null,
        });
      }),
  }),
  defineOperation({
    operationId: 'listLessons',
    method: 'get',
    path: '/modules/{moduleId}/lessons',
    summary: "A module's lessons in order (students: published ones)",
    tag: 'lessons',
    params: ModuleParams,
    response: z.array(Lesson),
    handler: ({ deps, params, granted }) => listLessons(deps.store, params.moduleId, granted.role === 'student'),
  }),
  defineOperation({
    operationId: 'getLesson',
    method: 'get',
    path: '/lessons/{lessonId}',
    summary: 'Get a lesson',
    tag: 'lessons',
    params: LessonParams,
    response: Lesson,
    handler: async ({ deps, params }) => (await getLesson(deps.store, params.lessonId))!,
  }),
  defineOperation({
    operationId: 'updateLesson',
    method: 'patch',
    path: '/lessons/{lessonId}',
    summary: 'Change a lesson (given fields only); a new position shifts its siblings',
    tag: 'lessons',
    params: LessonParams,
    body: LessonUpdate,
    response: Lesson,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const before = await getLesson(tx, params.lessonId);
        if (!before) throw notFound('Lesson', params.lessonId);
        return updateLesson(tx, before, { ...before, ...definedFields(body) });
      }),
  }),
  defineOperation({
    operationId: 'publishLesson',
    method: 'post',
    path: '/lessons/{lessonId}/publish',
    summary: 'Publish a lesson (sets publishedAt; publishing again changes nothing)',
    tag: 'lessons',
    params: LessonParams,
    response: Lesson,
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        const before = (await getLesson(tx, params.lessonId))!;
        if (before.status === 'published') return before;
        return updateLesson(tx, before, { ...before, status: 'published', publishedAt: deps.clock.now() });
      }),
  }),
];
