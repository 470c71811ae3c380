/**
 * A course file (docs/course-format.md) as dataset records: the nested modules, lessons,
 * blocks and assignments flattened with their positions in the order written, the ids
 * the file leaves out drawn from the id source, and an assignment without `categoryId`
 * placed in the first category. Pure; the dataset import writes it.
 */
import type { Ids } from '../../runtime/ids.js';
import type { CourseFileValue } from '../../schemas/course-file.js';
import type { DatasetInput } from '../../schemas/dataset.js';
import { defaultCategory, firstCategoryId } from '../grading/defaults.js';

/** A course file as dataset records, generating the ids it leaves out. */
export function courseFileToDataset(file: CourseFileValue, ids: Ids): DatasetInput & { courses: [{ id: string }] } {
  const courseId = file.course.id ?? ids.next('crs');
  const { id: _id, ...course } = file.course;
  const modules: NonNullable<DatasetInput['modules']> = [];
  const lessons: NonNullable<DatasetInput['lessons']> = [];
  const blocks: NonNullable<DatasetInput['blocks']> = [];
  const assignments: NonNullable<DatasetInput['assignments']> = [];
  // The course gets the file's setup, else the default one: an assignment that names no
  // category goes into that setup's first category, as one created through the API does.
  const firstCategory = firstCategoryId(file.gradebookSetup?.categories ?? [defaultCategory(courseId)]);
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
        categoryId: a.categoryId === undefined ? firstCategory : a.categoryId,
        id: a.id ?? ids.next('asg'),
        moduleId,
        position: ai,
        instructions: a.instructions.map((b, bi) => ({ ...b, id: b.id ?? ids.next('blk'), position: bi })),
      });
    });
  });
  const setup = file.gradebookSetup ? [{ ...file.gradebookSetup, courseId, categories: file.gradebookSetup.categories.map((c) => ({ ...c, courseId })) }] : [];
  return { coursebook: 1, courses: [{ id: courseId, ...course }], modules, lessons, blocks, assignments, gradebookSetups: setup };
}

/**
 * Where each record of courseFileToDataset's records sits in the file: a dataset path
 * (`courses[0].rubricId`, `blocks[13]`, `assignments[0].instructions[1]`) as the file's own
 * (`course.rubricId`, `modules[1].lessons[0].blocks[2]`,
 * `modules[0].assignments[0].instructions[1]`), so that a problem the dataset import finds
 * is reported where the author wrote it. A path of anything else is returned as it is.
 */
export function courseFilePathOf(file: CourseFileValue): (datasetPath: string) => string {
  const paths: Record<string, string[]> = { courses: ['course'], gradebookSetups: ['gradebookSetup'], modules: [], lessons: [], blocks: [], assignments: [] };
  file.modules.forEach((m, mi) => {
    paths.modules!.push(`modules[${mi}]`);
    m.lessons.forEach((l, li) => {
      paths.lessons!.push(`modules[${mi}].lessons[${li}]`);
      l.blocks.forEach((_, bi) => paths.blocks!.push(`modules[${mi}].lessons[${li}].blocks[${bi}]`));
    });
    m.assignments.forEach((_, ai) => paths.assignments!.push(`modules[${mi}].assignments[${ai}]`));
  });
  return (datasetPath) =>
    datasetPath.replace(/^([A-Za-z]+)\[(\d+)\]/, (record, collection: string, index: string) => paths[collection]?.[Number(index)] ?? record);
}
