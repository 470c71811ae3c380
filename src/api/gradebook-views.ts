/**
 * The staff's large gradebook views, built a slice of students at a time: the grades view
 * one page per request, the CSV export streamed slice by slice. Each slice's submissions of
 * record are read from the store (grade cells), graded by the app's Grader (worker threads
 * under `serve`), and written out, so neither memory nor the event loop holds the whole
 * course at once. A student's row is computed from one read of that student's records; a
 * grade written while an export runs shows in the rows read after it.
 */
import { type ExportLayout, type GradeItem, type GradeStudent, gradebookCsvWriter } from '../domain/grading/index.js';
import { nextTurn } from '../runtime/turns.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { Store } from '../store/db.js';
import { loadSubmissionRecords } from '../store/grade-cells.js';
import { listFinalGrades, listFinalGradesOf, loadSetup, publishedItems } from '../store/gradebook.js';
import { listStudentsInSlices } from '../store/users.js';
import type { AppDeps } from './context.js';
import { type Grader, inlineGrader } from './grader.js';
import { pageOf } from './pagination.js';
import type { Reads } from './read-cache.js';

/**
 * Students graded per slice of an export: small enough to keep each step short. Reading a
 * slice's records and writing its rows take this thread about 5 ms each at 125 students of
 * 200 items; at 500, `/health` during a 10,000-student export waited up to 90 ms. serve
 * starts a request in the check phase after the poll that read it (serve/request-turns.ts),
 * behind a step already queued there, so a request may wait for up to two steps: at 250 a
 * `/health` p50 went from 5 to 10 ms; at 125 it is 1 to 3 ms, and the export is no slower.
 */
const EXPORT_SLICE = 125;

interface CourseGradebook {
  setup: GradebookSetupValue;
  items: GradeItem[];
  students: GradeStudent[];
}

async function courseGradebook(store: Store, courseId: string, reads: Reads): Promise<CourseGradebook> {
  const setup = await loadSetup(store, courseId);
  const items = await publishedItems(store, courseId);
  // A large roster is read a slice at a time, other requests getting a turn in between; and
  // kept by serve for the next request at the same store revision (read-cache.ts), so paging
  // through a 10,000-student course does not read it again for every page.
  const students = await reads.remember(['roster', courseId], () => listStudentsInSlices(store, courseId, nextTurn), { chars: rosterChars });
  return { setup, items, students };
}

/** What a kept roster holds, in characters, against the read cache's limit. */
function rosterChars(students: readonly GradeStudent[]): number {
  let chars = 0;
  for (const s of students) chars += s.id.length + s.name.length + (s.email?.length ?? 0);
  return chars;
}

async function gradeSlice(store: Store, grader: Grader, courseId: string, book: CourseGradebook, students: GradeStudent[], now: string, detail: boolean) {
  const records = await loadSubmissionRecords(
    store,
    courseId,
    book.items.map((it) => it.id),
    students.map((s) => s.id),
  );
  return grader.grade({ setup: book.setup, items: book.items, students, records, now, detail });
}

/** One page of the grades view (students by name, then id) as JSON in UTF-8, and the cursor of the next. */
export async function courseGradesPage(deps: AppDeps, reads: Reads, courseId: string, page: { limit: number; cursor?: string | undefined }) {
  const book = await courseGradebook(deps.store, courseId, reads);
  const { rows: students, next } = pageOf(book.students, page);
  // Only the page's overrides are read, and go to the grading thread: the view shows no
  // other, and each is copied across.
  const overrides = (
    await listFinalGradesOf(
      deps.store,
      courseId,
      students.map((s) => s.id),
    )
  ).map((f) => ({ studentId: f.studentId, percent: f.percent, letter: f.letter, version: f.version }));
  const records = await loadSubmissionRecords(
    deps.store,
    courseId,
    book.items.map((it) => it.id),
    students.map((s) => s.id),
  );
  const grading = { setup: book.setup, items: book.items, students, records, now: deps.clock.now(), detail: true };
  const body = await (deps.grader ?? inlineGrader).gradesView({ grading, courseId, overrides });
  return { body, next };
}

/** Spreadsheet programs that guess the encoding (Excel) read UTF-8 right only after this mark. */
const BOM = '\uFEFF';

/**
 * The export's `{csv}` answer as a stream: the JSON opening, then the CSV text (escaped as a
 * JSON string) slice by slice, then the closing. The course and its setup are read first,
 * so a missing course is an ordinary error answer, not a broken stream.
 */
export async function gradebookExportStream(
  deps: AppDeps,
  reads: Reads,
  courseId: string,
  options: { layout: ExportLayout; bom: boolean },
): Promise<ReadableStream<Uint8Array>> {
  const book = await courseGradebook(deps.store, courseId, reads);
  const writer = gradebookCsvWriter({ setup: book.setup, items: book.items, layout: options.layout });
  const now = deps.clock.now();
  const grader = deps.grader ?? inlineGrader;
  await nextTurn();
  const overrides = await listFinalGrades(deps.store, courseId);
  const encoder = new TextEncoder();
  const jsonText = (text: string) => encoder.encode(JSON.stringify(text).slice(1, -1));
  let at = -1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at === -1) {
        controller.enqueue(encoder.encode('{"csv":"'));
        controller.enqueue(jsonText((options.bom ? BOM : '') + writer.head));
        at = 0;
        return;
      }
      if (at >= book.students.length) {
        controller.enqueue(encoder.encode('"}'));
        controller.close();
        return;
      }
      const students = book.students.slice(at, at + EXPORT_SLICE);
      at += students.length;
      // Each step of a slice (reading its records, writing its rows) is tens of milliseconds
      // of this thread for a large course: other requests get a turn before each.
      await nextTurn();
      const grades = await gradeSlice(deps.store, grader, courseId, book, students, now, false);
      await nextTurn();
      controller.enqueue(jsonText(writer.rows(students, grades, overrides)));
    },
  });
}
