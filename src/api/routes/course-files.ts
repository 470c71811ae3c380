import { z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { CourseFile, type CourseFileValue } from '../../schemas/course-file.js';
import { formatZodIssues } from '../../schemas/problems.js';
import { getCourse, listModules } from '../../store/courses.js';
import { getGradebookSetup } from '../../store/gradebook-setups.js';
import { listAssignmentsOfModule } from '../../store/assignments.js';
import { listBlocks } from '../../store/blocks.js';
import { listLessons } from '../../store/lessons.js';
import type { Ids } from '../../runtime/ids.js';
import { importDataset } from '../dataset.js';
import { defineOperation, type RouteModule } from '../define.js';

/** Block fields as a course file writes them: id, content, and review state only when not plain human. */
function fileBlock(b: Record<string, unknown>): Record<string, unknown> {
  const { lessonId: _l, position: _p, updatedAt: _u, origin, aiState, provenance, previous, ...rest } = b;
  return { ...rest, ...(origin !== 'human' ? { origin } : {}), ...(aiState !== null ? { aiState } : {}), ...(provenance !== null ? { provenance } : {}), ...(previous !== null ? { previous } : {}) };
}

/** A course file as dataset records, generating the ids it leaves out. */
export function courseFileToDataset(file: CourseFileValue, ids: Ids): Record<string, unknown> {
  const courseId = file.course.id ?? ids.next('crs');
  const { id: _id, ...course } = file.course;
  const modules: unknown[] = [];
  const lessons: unknown[] = [];
  const blocks: unknown[] = [];
  const assignments: unknown[] = [];
  file.modules.forEach((m, mi) => {
    const moduleId = m.id ?? ids.next('mod');
    modules.push({ id: moduleId, courseId, title: m.title, objective: m.objective, status: m.status, position: mi });
    m.lessons.forEach((l, li) => {
      const lessonId = l.id ?? ids.next('les');
      lessons.push({ id: lessonId, moduleId, title: l.title, minutes: l.minutes, status: l.status, publishedAt: l.publishedAt, position: li });
      l.blocks.forEach((b, bi) => blocks.push({ ...b, id: b.id ?? ids.next('blk'), lessonId, position: bi }));
    });
    m.assignments.forEach((a, ai) => {
      assignments.push({
        ...a,
        id: a.id ?? ids.next('asg'),
        moduleId,
        position: ai,
        instructions: a.instructions.map((b, bi) => ({ ...b, id: b.id ?? ids.next('blk'), position: bi })),
      });
    });
  });
  const setup = file.gradebookSetup
    ? [{ ...file.gradebookSetup, courseId, categories: file.gradebookSetup.categories.map((c) => ({ ...c, courseId })) }]
    : [];
  return { coursebook: 1, courses: [{ id: courseId, ...course }], modules, lessons, blocks, assignments, gradebookSetups: setup };
}

export const courseFilesRoutes: RouteModule = [
  defineOperation({
    operationId: 'importCourse',
    method: 'post',
    path: '/courses/import',
    summary: 'Create a course from a nested course file (all or nothing; problems listed with their paths)',
    tag: 'courses',
    body: z.unknown().openapi({ description: 'A CourseFile document' }),
    response: z.object({ courseId: z.string(), modules: z.number(), lessons: z.number(), blocks: z.number(), assignments: z.number() }),
    status: 201,
    handler: ({ deps, body, granted }) => {
      const parsed = CourseFile.safeParse(body);
      if (!parsed.success) {
        const problems = formatZodIssues(parsed.error.issues);
        throw new AppError('invalid', `The course file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported.`, problems);
      }
      const dataset = courseFileToDataset(parsed.data, deps.ids);
      importDataset(deps.store, deps.clock, dataset, { replace: false, actorId: granted.caller.user.id });
      const d = dataset as { courses: { id: string }[]; modules: unknown[]; lessons: unknown[]; blocks: unknown[]; assignments: unknown[] };
      return { courseId: d.courses[0]!.id, modules: d.modules.length, lessons: d.lessons.length, blocks: d.blocks.length, assignments: d.assignments.length };
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
    handler: ({ deps, params }) => {
      const { store } = deps;
      const c = getCourse(store, params.courseId)!;
      return {
        coursebookCourse: 1,
        course: { id: c.id, title: c.title, description: c.description, objectives: c.objectives, rubricId: c.rubricId, tutorDefaults: c.tutorDefaults, status: c.status, publishedAt: c.publishedAt },
        modules: listModules(store, c.id).map((m) => ({
          id: m.id,
          title: m.title,
          objective: m.objective,
          status: m.status,
          lessons: listLessons(store, m.id, false).map((l) => ({
            id: l.id, title: l.title, minutes: l.minutes, status: l.status, publishedAt: l.publishedAt,
            blocks: listBlocks(store, { lessonId: l.id }).map((b) => fileBlock(b as Record<string, unknown>)),
          })),
          assignments: listAssignmentsOfModule(store, m.id).map((a) => ({
            id: a.id, title: a.title, points: a.points, dueAt: a.dueAt, submissionType: a.submissionType, categoryId: a.categoryId, status: a.status,
            publishedAt: a.publishedAt, rubric: a.rubric, instructions: a.instructions.map((b) => fileBlock(b as Record<string, unknown>)),
          })),
        })),
        gradebookSetup: getGradebookSetup(store, c.id),
      };
    },
  }),
];
