import { z } from '@hono/zod-openapi';
import { notFound } from '../../errors.js';
import { definedFields } from '../../runtime/objects.js';
import { Id } from '../../schemas/common.js';
import { Course, CourseCreate, CourseUpdate, Module, ModuleCreate, ModuleUpdate } from '../../schemas/courses.js';
import { changeCourse, createCourse, getCourse, getModule, insertModule, listCourses, listModules, updateModule } from '../../store/courses.js';
import { defineOperation, type RouteModule } from '../define.js';

const CourseParams = z.object({ courseId: Id });
const ModuleParams = z.object({ moduleId: Id });

export const courseRoutes: RouteModule = [
  defineOperation({
    operationId: 'listCourses',
    method: 'get',
    path: '/courses',
    summary: "List courses (admins: all; others: the courses they're enrolled in)",
    tag: 'courses',
    response: z.array(Course),
    handler: ({ deps, granted }) => listCourses(deps.store, granted.caller.user.admin ? undefined : granted.caller.user.id),
  }),
  defineOperation({
    operationId: 'createCourse',
    method: 'post',
    path: '/courses',
    summary: 'Create a course (with the default gradebook setup)',
    tag: 'courses',
    body: CourseCreate,
    response: Course,
    status: 201,
    handler: ({ deps, body, granted }) => {
      const now = deps.clock.now();
      return createCourse(
        deps.store,
        {
          id: body.id ?? deps.ids.next('crs'),
          title: body.title,
          description: body.description,
          status: 'draft',
          publishedAt: null,
          objectives: body.objectives,
          rubricId: body.rubricId ?? 'course-essentials',
          templateId: null,
          accessFloor: null,
          tutorDefaults: body.tutorDefaults,
          createdAt: now,
          updatedAt: now,
        },
        { actorId: granted.caller.user.id },
      );
    },
  }),
  defineOperation({
    operationId: 'getCourse',
    method: 'get',
    path: '/courses/{courseId}',
    summary: 'Get a course',
    tag: 'courses',
    params: CourseParams,
    response: Course,
    handler: async ({ deps, params }) =>
      (await getCourse(deps.store, params.courseId)) ??
      (() => {
        throw notFound('Course', params.courseId);
      })(),
  }),
  defineOperation({
    operationId: 'updateCourse',
    method: 'patch',
    path: '/courses/{courseId}',
    summary: 'Update a course (given fields only)',
    tag: 'courses',
    params: CourseParams,
    body: CourseUpdate,
    response: Course,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const before = await getCourse(tx, params.courseId);
        if (!before) throw notFound('Course', params.courseId);
        return changeCourse(tx, before, { ...before, ...definedFields(body), updatedAt: deps.clock.now() });
      }),
  }),
  defineOperation({
    operationId: 'listModules',
    method: 'get',
    path: '/courses/{courseId}/modules',
    summary: "List a course's modules in position order (students: published ones)",
    tag: 'modules',
    params: CourseParams,
    response: z.array(Module),
    handler: ({ deps, params, granted }) => listModules(deps.store, params.courseId, granted.role === 'student'),
  }),
  defineOperation({
    operationId: 'createModule',
    method: 'post',
    path: '/courses/{courseId}/modules',
    summary: 'Create a module (last unless a position is given)',
    tag: 'modules',
    params: CourseParams,
    body: ModuleCreate,
    response: Module,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx((tx) =>
        insertModule(tx, {
          id: deps.ids.next('mod'),
          courseId: params.courseId,
          title: body.title,
          objective: body.objective,
          status: 'draft',
          ...(body.position === undefined ? {} : { position: body.position }),
        }),
      ),
  }),
  defineOperation({
    operationId: 'getModule',
    method: 'get',
    path: '/modules/{moduleId}',
    summary: 'Get a module',
    tag: 'modules',
    params: ModuleParams,
    response: Module,
    handler: async ({ deps, params }) =>
      (await getModule(deps.store, params.moduleId)) ??
      (() => {
        throw notFound('Module', params.moduleId);
      })(),
  }),
  defineOperation({
    operationId: 'updateModule',
    method: 'patch',
    path: '/modules/{moduleId}',
    summary: 'Update a module; a new position shifts its siblings',
    tag: 'modules',
    params: ModuleParams,
    body: ModuleUpdate,
    response: Module,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const before = await getModule(tx, params.moduleId);
        if (!before) throw notFound('Module', params.moduleId);
        return updateModule(tx, before, { ...before, ...definedFields(body) });
      }),
  }),
];
