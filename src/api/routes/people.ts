import { z } from '@hono/zod-openapi';
import { AppError, notFound } from '../../errors.js';
import { definedFields } from '../../runtime/objects.js';
import { Id } from '../../schemas/common.js';
import { Enrollment, EnrollmentCreate, User, UserCreate, UserUpdate } from '../../schemas/people.js';
import { assertInstructorKept, deleteEnrollment, getUser, insertUser, listEnrollments, listUsers, updateUser, upsertEnrollment } from '../../store/users.js';
import { defineOperation, type RouteModule } from '../define.js';

const UserParams = z.object({ userId: Id });
const CourseParams = z.object({ courseId: Id });

export const peopleRoutes: RouteModule = [
  defineOperation({
    operationId: 'whoAmI',
    method: 'get',
    path: '/me',
    summary: 'The calling user and the scopes of its credential',
    tag: 'people',
    response: z.object({ user: User, scopes: z.array(z.string()), credential: z.string() }),
    handler: ({ granted }) => ({
      user: granted.caller.user,
      scopes: [...granted.caller.scopes].sort(),
      credential: granted.caller.credential.kind,
    }),
  }),
  defineOperation({
    operationId: 'listUsers',
    method: 'get',
    path: '/users',
    summary: 'List users (admins)',
    tag: 'people',
    response: z.array(User),
    handler: ({ deps }) => listUsers(deps.store),
  }),
  defineOperation({
    operationId: 'createUser',
    method: 'post',
    path: '/users',
    summary: 'Create a user (admins)',
    tag: 'people',
    body: UserCreate,
    response: User,
    status: 201,
    handler: ({ deps, body }) =>
      deps.store.tx(async (tx) => {
        const id = body.id ?? deps.ids.next('usr');
        if (await getUser(tx, id)) throw new AppError('conflict', `User ${JSON.stringify(id)} already exists.`);
        return insertUser(tx, { id, name: body.name, email: body.email, admin: body.admin });
      }),
  }),
  defineOperation({
    operationId: 'getUser',
    method: 'get',
    path: '/users/{userId}',
    summary: 'Get a user (the user themself, or admins)',
    tag: 'people',
    params: UserParams,
    response: User,
    handler: async ({ deps, params }) =>
      (await getUser(deps.store, params.userId)) ??
      (() => {
        throw notFound('User', params.userId);
      })(),
  }),
  defineOperation({
    operationId: 'updateUser',
    method: 'patch',
    path: '/users/{userId}',
    summary: 'Update a user (admins)',
    tag: 'people',
    params: UserParams,
    body: UserUpdate,
    response: User,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const before = await getUser(tx, params.userId);
        if (!before) throw notFound('User', params.userId);
        return updateUser(tx, { ...before, ...definedFields(body) });
      }),
  }),
  defineOperation({
    operationId: 'listEnrollments',
    method: 'get',
    path: '/courses/{courseId}/enrollments',
    summary: "List a course's enrollments",
    tag: 'people',
    params: CourseParams,
    response: z.array(Enrollment),
    handler: ({ deps, params }) => listEnrollments(deps.store, params.courseId),
  }),
  defineOperation({
    operationId: 'createEnrollment',
    method: 'post',
    path: '/courses/{courseId}/enrollments',
    summary: 'Enroll a user in a course, or change their role',
    tag: 'people',
    params: CourseParams,
    body: EnrollmentCreate,
    response: Enrollment,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        if (!(await getUser(tx, body.userId))) throw notFound('User', body.userId);
        await assertInstructorKept(tx, params.courseId, [{ userId: body.userId, role: body.role }]);
        return upsertEnrollment(tx, { courseId: params.courseId, userId: body.userId, role: body.role });
      }),
  }),
  defineOperation({
    operationId: 'deleteEnrollment',
    method: 'delete',
    path: '/courses/{courseId}/enrollments/{userId}',
    summary: 'Remove a user from a course',
    tag: 'people',
    params: z.object({ courseId: Id, userId: Id }),
    response: z.object({ ok: z.boolean() }),
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        await assertInstructorKept(tx, params.courseId, [{ userId: params.userId, role: null }]);
        if (!(await deleteEnrollment(tx, params.courseId, params.userId)))
          throw new AppError('not-found', `User ${JSON.stringify(params.userId)} is not enrolled in this course.`);
        return { ok: true };
      }),
  }),
];
