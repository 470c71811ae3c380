/**
 * Course files (docs/course-format.md): one course written as a nested document, for
 * offline authoring. Reading builds it from the store; importing goes through the dataset
 * import, so every rule of that path applies, and then the publish gate when the file
 * says the course is published.
 */
import { courseFilePathOf, courseFileToDataset } from '../domain/content/course-file.js';
import { evidenceProblems } from '../domain/readiness/index.js';
import { AppError, invalid, notFound, type Problem } from '../errors.js';
import type { Clock } from '../runtime/clock.js';
import type { Ids } from '../runtime/ids.js';
import { mapInOrder } from '../runtime/in-order.js';
import type { StoredBlockValue } from '../schemas/content.js';
import type { CourseFileValue } from '../schemas/course-file.js';
import type { ReadinessEvidenceValue } from '../schemas/readiness.js';
import { listAssignmentsOfModule } from './assignments.js';
import { listBlocks } from './blocks.js';
import { getCourse, listCourses, listModules } from './courses.js';
import { importDataset } from './dataset.js';
import type { Store } from './db.js';
import { getGradebookSetup } from './gradebook-setups.js';
import { listLessons } from './lessons.js';
import { assertCoursePublishable } from './readiness.js';
import { rubricById } from './rubrics.js';

/** Block fields as a course file writes them: id, content, and review state only when not plain human. */
function fileBlock(b: StoredBlockValue): Record<string, unknown> {
  const { lessonId: _l, position: _p, updatedAt: _u, origin, aiState, provenance, previous, ...rest } = b;
  return {
    ...rest,
    ...(origin !== 'human' ? { origin } : {}),
    ...(aiState !== null ? { aiState } : {}),
    ...(provenance !== null ? { provenance } : {}),
    ...(previous !== null ? { previous } : {}),
  };
}

/**
 * Import a course file as a new course; answers what was created. A file without a course
 * id makes a new course each time, so one whose title an existing course already has is
 * refused unless `asNew` says a second copy is meant (#14: importing twice made two).
 * `evidence` (a course's first copy: PUT .../content `readiness`) is the source's readiness
 * attestations and findings: checked against the course's rubric here, then written by the
 * dataset import with the course, before the publish gate decides.
 */
export function importCourseFile(
  store: Store,
  at: { clock: Clock; ids: Ids },
  file: CourseFileValue,
  actorId: string,
  options: { asNew?: boolean; evidence?: ReadinessEvidenceValue } = {},
) {
  const dataset = courseFileToDataset(file, at.ids);
  const courseId = dataset.courses[0].id;
  const { evidence } = options;
  return store.tx(async (tx) => {
    if (file.course.id === undefined && !options.asNew) await assertTitleFree(tx, file.course.title);
    if (evidence) {
      // A rubric that is not installed is the dataset import's problem to name (course.rubricId).
      const rubric = await rubricById(tx, file.course.rubricId);
      const problems = rubric ? evidenceProblems(rubric, evidence) : [];
      if (problems.length > 0) throw invalid(problems);
    }
    await importDataset(
      tx,
      at.clock,
      evidence
        ? {
            ...dataset,
            attestations: evidence.attestations.map((a) => ({ courseId, ...a })),
            findings: evidence.findings.map((f) => ({ courseId, ...f })),
          }
        : dataset,
      { replace: false, actorId, source: { name: 'course file', pathOf: courseFilePathOf(file), conflictMessage: courseFileConflict(courseId) } },
    );
    if (file.course.status === 'published') await assertCoursePublishable(tx, courseId, at.clock.now());
    const count = (list: unknown[] | undefined) => list?.length ?? 0;
    return {
      courseId,
      modules: count(dataset.modules),
      lessons: count(dataset.lessons),
      blocks: count(dataset.blocks),
      assignments: count(dataset.assignments),
    };
  });
}

/** The stored course as one course file, every id included. */
export async function readCourseFile(store: Store, courseId: string) {
  const c = await getCourse(store, courseId);
  if (!c) throw notFound('Course', courseId);
  return {
    coursebookCourse: 1 as const,
    course: {
      id: c.id,
      title: c.title,
      description: c.description,
      objectives: c.objectives,
      rubricId: c.rubricId,
      tutorDefaults: c.tutorDefaults,
      status: c.status,
      publishedAt: c.publishedAt,
    },
    modules: await mapInOrder(await listModules(store, c.id), async (m) => ({
      id: m.id,
      title: m.title,
      objective: m.objective,
      status: m.status,
      lessons: await mapInOrder(await listLessons(store, m.id, false), async (l) => ({
        id: l.id,
        title: l.title,
        minutes: l.minutes,
        status: l.status,
        publishedAt: l.publishedAt,
        blocks: (await listBlocks(store, { lessonId: l.id })).map(fileBlock),
      })),
      assignments: (await listAssignmentsOfModule(store, m.id)).map((a) => ({
        id: a.id,
        title: a.title,
        points: a.points,
        dueAt: a.dueAt,
        submissionType: a.submissionType,
        categoryId: a.categoryId,
        status: a.status,
        publishedAt: a.publishedAt,
        rubric: a.rubric,
        instructions: a.instructions.map(fileBlock),
      })),
    })),
    gradebookSetup: await getGradebookSetup(store, c.id),
  };
}

/**
 * The conflict of a course file whose records the store already holds, at their paths in the
 * file. A course file only creates (import has no --replace for it): when its course is the
 * stored one, the message names the ways a file updates a course by id (docs/course-format.md).
 */
function courseFileConflict(courseId: string) {
  return (conflicts: readonly Problem[]): string => {
    const n = conflicts.length;
    const records = `${n} record${n === 1 ? '' : 's'} of this course file ${n === 1 ? 'is' : 'are'} already in the store`;
    if (conflicts.some((c) => c.path === 'course'))
      return `${records}, course ${courseId} among them; nothing was imported. Importing a course file only creates a course; to update ${courseId} from the file, PUT it to /api/v1/courses/${courseId}/content (coursebook api PUT /courses/${courseId}/content --file FILE; coursebook courses push ${courseId} --to PROFILE sends a store's copy to another store); to import another copy, leave the file's ids out (and import with --as-new, asNew=true).`;
    return `${records} (ids are unique across the store, whatever their course); nothing was imported. Give those records other ids, or leave their ids out to have new ones made.`;
  };
}

async function assertTitleFree(store: Store, title: string): Promise<void> {
  const same = (await listCourses(store)).filter((c) => c.title === title);
  if (same.length === 0) return;
  const named = same.map((c) => c.id).join(', ');
  throw new AppError(
    'conflict',
    `A course titled ${JSON.stringify(title)} already exists (${named}); this file has no course id, so importing it would make a second copy. To update that course, push or PUT .../content with its ids; to make another course anyway, import with --as-new (asNew=true).`,
    { title, courseIds: same.map((c) => c.id) },
  );
}
