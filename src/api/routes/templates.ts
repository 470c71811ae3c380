import { z } from '@hono/zod-openapi';
import { placeModules } from '../../domain/templates/templates.js';
import { AppError, type ErrorCode, notFound } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { Course } from '../../schemas/courses.js';
import type { TemplateBulkFailure, TemplateValue } from '../../schemas/templates.js';
import { Template, TemplateBulkResult, TemplateBulkUpdate, TemplateCreate, TemplateUpdate } from '../../schemas/templates.js';
import { insertBlock } from '../../store/blocks.js';
import { createCourse, insertModule } from '../../store/courses.js';
import type { Store } from '../../store/db.js';
import { insertLesson } from '../../store/lessons.js';
import { getTemplate, listTemplates, putTemplate } from '../../store/templates.js';
import { getUser } from '../../store/users.js';
import { authorize } from '../access.js';
import type { AppDeps, Caller } from '../context.js';
import { defineOperation, type RouteModule } from '../define.js';
import { POLICIES } from '../policies.js';

type Update = z.infer<typeof TemplateUpdate>;

async function requireOwnerExists(store: Store, owner: { kind: string; userId?: string } | undefined): Promise<void> {
  if (owner?.kind === 'user' && !(await getUser(store, owner.userId!))) throw new AppError('not-found', `User ${JSON.stringify(owner.userId)} was not found.`);
}

/** Apply a PATCH: given top-level fields replace; modules keep placement by key. Owner changes are for admins. */
async function applyUpdate(store: Store, caller: Caller, id: string, patch: Update, now: string): Promise<TemplateValue> {
  const before = await getTemplate(store, id);
  if (!before) throw notFound('Template', id);
  if (patch.owner !== undefined && !caller.user.admin && JSON.stringify(patch.owner) !== JSON.stringify(before.owner)) {
    throw new AppError('forbidden', 'Only admins may change the owner of a template.');
  }
  await requireOwnerExists(store, patch.owner);
  const next: TemplateValue = {
    ...before,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.owner !== undefined ? { owner: patch.owner } : {}),
    ...(patch.tutorDefaults !== undefined ? { tutorDefaults: patch.tutorDefaults } : {}),
    ...(patch.accessFloor !== undefined ? { accessFloor: patch.accessFloor } : {}),
    ...(patch.modules !== undefined ? { modules: placeModules(before.modules, patch.modules) } : {}),
    updatedBy: caller.user.id,
    updatedAt: now,
  };
  return putTemplate(store, next);
}

export const templatesRoutes: RouteModule = [
  defineOperation({
    operationId: 'listTemplates',
    method: 'get',
    path: '/templates',
    summary: 'Course templates (any signed-in user)',
    tag: 'templates',
    response: z.array(Template),
    handler: ({ deps }) => listTemplates(deps.store),
  }),
  defineOperation({
    operationId: 'getTemplate',
    method: 'get',
    path: '/templates/{templateId}',
    summary: 'Get a template',
    tag: 'templates',
    params: z.object({ templateId: Id }),
    response: Template,
    handler: async ({ deps, params }) =>
      (await getTemplate(deps.store, params.templateId)) ??
      (() => {
        throw notFound('Template', params.templateId);
      })(),
  }),
  defineOperation({
    operationId: 'createTemplate',
    method: 'post',
    path: '/templates',
    summary: 'Create a template (admins: any owner; others: owned by themselves)',
    tag: 'templates',
    body: TemplateCreate,
    response: Template,
    status: 201,
    handler: ({ deps, body, granted }) => {
      const { user } = granted.caller;
      const owner = body.owner ?? (user.admin ? { kind: 'institution' as const } : { kind: 'user' as const, userId: user.id });
      if (!user.admin && !(owner.kind === 'user' && owner.userId === user.id))
        throw new AppError('forbidden', 'Only admins may create templates owned by the institution or by someone else.');
      return deps.store.tx(async (tx) => {
        await requireOwnerExists(tx, owner);
        const id = body.id ?? deps.ids.next('tpl');
        if (await getTemplate(tx, id)) throw new AppError('conflict', `Template ${JSON.stringify(id)} already exists.`);
        return putTemplate(tx, {
          id,
          name: body.name,
          description: body.description,
          owner,
          modules: placeModules([], body.modules),
          tutorDefaults: body.tutorDefaults,
          accessFloor: body.accessFloor,
          updatedBy: user.id,
          updatedAt: deps.clock.now(),
        });
      });
    },
  }),
  defineOperation({
    operationId: 'updateTemplate',
    method: 'patch',
    path: '/templates/{templateId}',
    summary: 'Change a template: given fields replace; modules replace the list, keeping placement by key (new keys: start)',
    tag: 'templates',
    params: z.object({ templateId: Id }),
    body: TemplateUpdate,
    response: Template,
    handler: ({ deps, params, body, granted }) => deps.store.tx((tx) => applyUpdate(tx, granted.caller, params.templateId, body, deps.clock.now())),
  }),
  defineOperation({
    operationId: 'bulkUpdateTemplates',
    method: 'post',
    path: '/templates/bulk-update',
    summary:
      "Apply one PATCH per template, each checked exactly as PATCH /templates/{id} checks it (who may write it, then the patch), all in one transaction: all or nothing. Every update is tried; any failure changes nothing and is answered with every failed update in details (the code is the first failure's). dryRun checks and changes nothing.",
    tag: 'templates',
    body: TemplateBulkUpdate,
    response: TemplateBulkResult,
    handler: ({ deps, body, granted }) => {
      const run = async (tx: Store) => {
        const now = deps.clock.now();
        const failed: TemplateBulkFailure[] = [];
        let firstCode: ErrorCode = 'invalid';
        for (const [i, u] of body.updates.entries()) {
          try {
            // The PATCH route's own check (its policy row: who may write this template), then its update.
            await authorize(tx, granted.caller, POLICIES.updateTemplate, u.id);
            await applyUpdate(tx, granted.caller, u.id, u.patch, now);
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            if (failed.length === 0) firstCode = err.code;
            failed.push({
              path: `updates[${i}]`,
              id: u.id,
              code: err.code,
              message: err.message,
              ...(err.details === undefined ? {} : { details: err.details }),
            });
          }
        }
        if (failed.length > 0) {
          const of = `${failed.length} of ${body.updates.length} template updates`;
          throw new AppError(firstCode, body.dryRun ? `${of} would fail.` : `${of} failed; nothing was changed.`, failed);
        }
        return { updated: body.updates.map((u) => u.id), dryRun: body.dryRun };
      };
      return body.dryRun ? deps.store.rehearse(run) : deps.store.tx(run);
    },
  }),
  defineOperation({
    operationId: 'createCourseFromTemplate',
    method: 'post',
    path: '/templates/{templateId}/courses',
    summary: 'Create a course from a template: its modules (start ones first), lessons, blocks, tutorDefaults and accessFloor',
    tag: 'templates',
    params: z.object({ templateId: Id }),
    body: z.strictObject({ title: z.string().min(1).max(200), id: Id.optional(), description: z.string().max(20_000).default('') }),
    response: Course,
    status: 201,
    handler: ({ deps, params, body, granted }) => createFromTemplate(deps, params.templateId, body, granted.caller.user.id),
  }),
];

function createFromTemplate(deps: AppDeps, templateId: string, body: { title: string; id?: string | undefined; description: string }, actorId: string) {
  const { store, ids } = deps;
  return store.tx(async (tx) => {
    const t = await getTemplate(tx, templateId);
    if (!t) throw notFound('Template', templateId);
    const now = deps.clock.now();
    const course = await createCourse(
      tx,
      {
        id: body.id ?? ids.next('crs'),
        title: body.title,
        description: body.description,
        status: 'draft',
        publishedAt: null,
        objectives: [],
        rubricId: 'course-essentials',
        templateId: t.id,
        accessFloor: t.accessFloor,
        tutorDefaults: t.tutorDefaults,
        createdAt: now,
        updatedAt: now,
      },
      { actorId },
    );
    // A new course has no modules of its own, so `start` modules then `end` modules, each in template order.
    const ordered = [...t.modules.filter((m) => m.placement === 'start'), ...t.modules.filter((m) => m.placement === 'end')];
    for (const m of ordered) {
      const mod = await insertModule(tx, { id: ids.next('mod'), courseId: course.id, title: m.title, objective: m.objective, status: 'draft' });
      for (const l of m.lessons) {
        const lesson = await insertLesson(tx, {
          id: ids.next('les'),
          moduleId: mod.id,
          courseId: course.id,
          title: l.title,
          minutes: l.minutes,
          status: 'draft',
          publishedAt: null,
        });
        for (const b of l.blocks) {
          await insertBlock(
            tx,
            { lessonId: lesson.id },
            { id: ids.next('blk'), content: b.content, origin: 'human', aiState: null, provenance: null, previous: null, updatedAt: now },
          );
        }
      }
    }
    return course;
  });
}
