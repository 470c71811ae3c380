/**
 * The content lifecycle (#14, docs/authoring.md): unpublish a course or a lesson, publish
 * and unpublish a module, delete a module, lesson or assignment. Deleting or hiding an
 * assignment with submissions is `conflict` naming it (store/content-lifecycle.ts).
 */
import { z } from '@hono/zod-openapi';
import { Id } from '../../schemas/common.js';
import { Lesson } from '../../schemas/content.js';
import { Course, Module } from '../../schemas/courses.js';
import { removeAssignment, removeLesson, removeModule, setModuleStatus, unpublishCourse, unpublishLesson } from '../../store/content-lifecycle.js';
import { defineOperation, type RouteModule } from '../define.js';

const CourseParams = z.object({ courseId: Id });
const ModuleParams = z.object({ moduleId: Id });
const LessonParams = z.object({ lessonId: Id });
const AssignmentParams = z.object({ assignmentId: Id });
const Deleted = z.object({ ok: z.boolean(), id: Id });

export const contentLifecycleRoutes: RouteModule = [
  defineOperation({
    operationId: 'unpublishCourse',
    method: 'post',
    path: '/courses/{courseId}/unpublish',
    summary: 'Return a course to draft (publishing it again passes the readiness gate again)',
    tag: 'courses',
    params: CourseParams,
    response: Course,
    handler: ({ deps, params }) => deps.store.tx((tx) => unpublishCourse(tx, params.courseId, deps.clock.now())),
  }),
  defineOperation({
    operationId: 'publishModule',
    method: 'post',
    path: '/modules/{moduleId}/publish',
    summary: 'Publish a module: students see it and its published lessons and assignments',
    tag: 'modules',
    params: ModuleParams,
    response: Module,
    handler: ({ deps, params }) => deps.store.tx((tx) => setModuleStatus(tx, params.moduleId, 'published')),
  }),
  defineOperation({
    operationId: 'unpublishModule',
    method: 'post',
    path: '/modules/{moduleId}/unpublish',
    summary: 'Return a module to draft: students see neither it nor anything in it; conflict while one of its assignments has submissions',
    tag: 'modules',
    params: ModuleParams,
    response: Module,
    handler: ({ deps, params }) => deps.store.tx((tx) => setModuleStatus(tx, params.moduleId, 'draft')),
  }),
  defineOperation({
    operationId: 'deleteModule',
    method: 'delete',
    path: '/modules/{moduleId}',
    summary: 'Delete a module with its lessons, blocks and assignments; conflict while one of its assignments has submissions',
    tag: 'modules',
    params: ModuleParams,
    response: Deleted,
    handler: ({ deps, params }) => deps.store.tx(async (tx) => ({ ok: true, ...(await removeModule(tx, params.moduleId)) })),
  }),
  defineOperation({
    operationId: 'unpublishLesson',
    method: 'post',
    path: '/lessons/{lessonId}/unpublish',
    summary: 'Return a lesson to draft (publishedAt cleared): students no longer see it or its blocks',
    tag: 'lessons',
    params: LessonParams,
    response: Lesson,
    handler: ({ deps, params }) => deps.store.tx((tx) => unpublishLesson(tx, params.lessonId)),
  }),
  defineOperation({
    operationId: 'deleteLesson',
    method: 'delete',
    path: '/lessons/{lessonId}',
    summary: 'Delete a lesson and its blocks; the lessons after it close the gap',
    tag: 'lessons',
    params: LessonParams,
    response: Deleted,
    handler: ({ deps, params }) => deps.store.tx(async (tx) => ({ ok: true, ...(await removeLesson(tx, params.lessonId)) })),
  }),
  defineOperation({
    operationId: 'deleteAssignment',
    method: 'delete',
    path: '/assignments/{assignmentId}',
    summary: 'Delete an assignment and its instructions; conflict while it has submissions',
    tag: 'assignments',
    params: AssignmentParams,
    response: Deleted,
    handler: ({ deps, params }) => deps.store.tx(async (tx) => ({ ok: true, ...(await removeAssignment(tx, params.assignmentId)) })),
  }),
];
