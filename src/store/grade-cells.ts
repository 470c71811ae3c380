/**
 * Grade cells: each student's submissions of record in a course, packed into one row.
 *
 * Grading a 10,000-student course reads two million submissions; fetched row by row that
 * is seconds of binding overhead whatever the SQL. A cell row holds one student's record
 * per assignment (attempt, score, submitted time) keyed by the assignment's slot, so the
 * whole course is 10,000 rows. Triggers (migration 3) delete a cell whenever a
 * submission behind it changes; `loadSubmissionRecords` rebuilds missing cells from the
 * submissions and saves them. The cache therefore never decides a grade on its own: a
 * cell is either absent or equal to what the submissions say (tests prove both paths
 * agree).
 *
 * A cell covers every assignment of the course, published or not, so publishing,
 * due dates, points and categories never invalidate it. Layout of `data`, n entries:
 * Float64 score[n], Float64 submittedMs[n], Float64 attempt[n], Int32 slot[n] (the platform's
 * byte order, little-endian everywhere Node runs in practice; attempt 0 = submitted but no
 * scored attempt; a double so every safe-integer attempt is exact, migration 4).
 */
import { emptyRecords, recordsFolder, type SubmissionRecords } from '../domain/grading/records.js';
import type { GradeSubmission } from '../domain/grading/types.js';
import type { Store } from './db.js';
import { courseSubmissions } from './gradebook.js';
import { inListSlices, placeholders } from './in-lists.js';

const ENTRY_BYTES = 28;
/** Up to this many students, cells are read by student id rather than for the whole course. */
const SLICE_READ_LIMIT = 2000;

/**
 * The staff view's submissions of record for these students x items (item ids of the
 * course, in the order the caller wants the columns).
 */
export async function loadSubmissionRecords(
  store: Store,
  courseId: string,
  itemIds: readonly string[],
  studentIds: readonly string[],
): Promise<SubmissionRecords> {
  const nItems = itemIds.length;
  const records = emptyRecords(studentIds.length, nItems);
  const studentIndex = new Map(studentIds.map((id, i) => [id, i]));
  let columnOf = slotColumns(await courseSlots(store, courseId), itemIds);

  const cached = new Uint8Array(studentIds.length);
  const take = (rows: { student_id: string; data: Uint8Array }[]) => {
    for (const { student_id: studentId, data } of rows) {
      const si = studentIndex.get(studentId);
      if (si === undefined) continue;
      decodeCell(data, records, si * nItems, columnOf);
      cached[si] = 1;
    }
  };
  // A page or a slice of a large course reads only its own students' cells.
  if (studentIds.length <= SLICE_READ_LIMIT) {
    for (const slice of inListSlices(studentIds)) {
      take(
        await store.all(`SELECT student_id, data FROM grade_cells WHERE course_id = ? AND student_id IN (${placeholders(slice.length)})`, courseId, ...slice),
      );
    }
  } else take(await store.all('SELECT student_id, data FROM grade_cells WHERE course_id = ?', courseId));
  if (cached.every((v) => v === 1)) return records;

  const rebuild = async (on: Store, save: boolean) => {
    const missing: string[] = [];
    const rowOf: number[] = [];
    for (let si = 0; si < studentIds.length; si++)
      if (!cached[si]) {
        missing.push(studentIds[si]!);
        rowOf.push(si);
      }
    // Rebuilding most of a large course (a fresh import, a migrated store): one pass over
    // the course's submissions, assignment by assignment, beats lists of student ids.
    const whole = missing.length > 500 && missing.length * 2 > studentIds.length;
    const built = await buildCells(on, courseId, missing, (folder) => courseSubmissions(on, courseId, whole ? null : missing, (batch) => folder.add(batch)));
    columnOf = slotColumns(built.slots, itemIds);
    if (save) await saveCells(on, courseId, missing, built.cells);
    for (let m = 0; m < missing.length; m++) {
      const si = rowOf[m]!;
      clearRow(records, si * nItems);
      decodeCell(built.cells[m]!, records, si * nItems, columnOf);
    }
  };
  try {
    // Inside the write transaction: no submission can change between reading and saving.
    await store.tx((tx) => rebuild(tx, true), { wait: false });
  } catch (err) {
    // A read-only store, a writer holding the lock, or (PostgreSQL) a concurrent writer
    // that made this save a serialization failure: the cells are only a cache, so answer
    // from the submissions without saving them.
    if (!isReadOnlyOrBusy(err)) throw err;
    await rebuild(store, false);
  }
  return records;
}

/**
 * PostgreSQL's codes for the same situations: serialization_failure, deadlock_detected,
 * read_only_sql_transaction, lock_not_available.
 */
const POSTGRES_READ_ONLY_OR_BUSY = new Set(['40001', '40P01', '25006', '55P03']);

function isReadOnlyOrBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_BUSY') || POSTGRES_READ_ONLY_OR_BUSY.has(code);
}

/** Every one of these students' cells, folded from the submissions `fill` hands the folder. */
async function buildCells(
  store: Store,
  courseId: string,
  studentIds: readonly string[],
  fill: (folder: ReturnType<typeof recordsFolder>) => Promise<void> | void,
): Promise<{ slots: Map<string, number>; cells: Buffer[] }> {
  const slots = await courseSlots(store, courseId);
  const slotIds = [...slots.keys()];
  const slotNumbers = [...slots.values()];
  const folder = recordsFolder(slotIds, studentIds);
  await fill(folder);
  return { slots, cells: studentIds.map((_, m) => packCell(folder.records, m * slotIds.length, slotNumbers)) };
}

/** These students' cells (cells[m] is studentIds[m]'s), written as one bulk write. */
function saveCells(store: Store, courseId: string, studentIds: readonly string[], cells: readonly Buffer[]): Promise<unknown> {
  return store.runEach(
    'INSERT INTO grade_cells (course_id, student_id, data) VALUES (?, ?, ?) ON CONFLICT (course_id, student_id) DO UPDATE SET data = excluded.data',
    studentIds.map((studentId, m) => [courseId, studentId, cells[m]]),
  );
}

/** A submission about to be written in bulk, with the course of its assignment. */
export interface BulkSubmission {
  courseId: string;
  submission: GradeSubmission;
}

/**
 * Grade cells for a bulk write of submissions (a dataset import, `serve --seed`): call it
 * inside the write transaction before the writes, and call what it returns after them.
 * The per-row triggers drop the cells of every student written; this saves them again in
 * one pass at the end, so the first gradebook read after a bulk load finds them built.
 *
 * A student with no submission at all in the store before the writes (any course, so an
 * assignment moved between courses by the same import cannot hide one) has, afterwards,
 * exactly the submissions written: their cells are folded from those, with no read back.
 * Every other student written is folded from the store after the writes, as a rebuild is.
 */
export async function gradeCellsForBulkWrite(store: Store, written: readonly BulkSubmission[]): Promise<() => Promise<void>> {
  const students = [...new Set(written.map((w) => w.submission.studentId))];
  const before = new Set<string>();
  for (const slice of inListSlices(students)) {
    const rows = await store.all<{ student_id: string }>(
      `SELECT DISTINCT student_id FROM submissions WHERE student_id IN (${placeholders(slice.length)})`,
      ...slice,
    );
    for (const r of rows) before.add(r.student_id);
  }
  return async () => {
    const byCourse = new Map<string, { held: GradeSubmission[]; fresh: Set<string>; known: Set<string> }>();
    for (const { courseId, submission } of written) {
      let course = byCourse.get(courseId);
      if (!course) {
        course = { held: [], fresh: new Set(), known: new Set() };
        byCourse.set(courseId, course);
      }
      if (before.has(submission.studentId)) course.known.add(submission.studentId);
      else {
        course.fresh.add(submission.studentId);
        course.held.push(submission);
      }
    }
    for (const [courseId, { held, fresh, known }] of byCourse) {
      const freshIds = [...fresh];
      if (freshIds.length > 0) await saveCells(store, courseId, freshIds, (await buildCells(store, courseId, freshIds, (folder) => folder.add(held))).cells);
      const knownIds = [...known];
      if (knownIds.length > 0) {
        const fromStore = (folder: ReturnType<typeof recordsFolder>) => courseSubmissions(store, courseId, knownIds, (batch) => folder.add(batch));
        await saveCells(store, courseId, knownIds, (await buildCells(store, courseId, knownIds, fromStore)).cells);
      }
    }
  };
}

/** assignment id -> slot, for every assignment of the course. */
async function courseSlots(store: Store, courseId: string): Promise<Map<string, number>> {
  const rows = await store.all<{ assignment_id: string; slot: number }>('SELECT assignment_id, slot FROM grade_slots WHERE course_id = ?', courseId);
  return new Map(rows.map((r) => [r.assignment_id, r.slot]));
}

/** slot -> column for the requested items; other assignments' slots are absent. */
function slotColumns(slots: Map<string, number>, itemIds: readonly string[]): Map<number, number> {
  const columns = new Map<number, number>();
  itemIds.forEach((id, column) => {
    const slot = slots.get(id);
    if (slot !== undefined) columns.set(slot, column);
  });
  return columns;
}

/** Pack the records of one student (cells base .. base + slots) into a cell's bytes. */
function packCell(r: SubmissionRecords, base: number, slotNumbers: number[]): Buffer {
  let n = 0;
  for (let c = 0; c < slotNumbers.length; c++) n += r.any[base + c]!;
  const data = Buffer.alloc(n * ENTRY_BYTES);
  const { score, at, slot, attempt } = cellViews(data, n);
  let j = 0;
  for (let c = 0; c < slotNumbers.length; c++) {
    if (!r.any[base + c]) continue;
    score[j] = r.score[base + c]!;
    at[j] = r.submittedMs[base + c]!;
    slot[j] = slotNumbers[c]!;
    attempt[j] = r.attempt[base + c]!;
    j++;
  }
  return data;
}

function decodeCell(data: Uint8Array, into: SubmissionRecords, base: number, columnOf: Map<number, number>): void {
  const n = data.length / ENTRY_BYTES;
  if (n === 0) return;
  // Typed views need 8-byte alignment; a Buffer from the binding normally has it.
  const { score, at, slot, attempt } = cellViews(data.byteOffset % 8 === 0 ? data : new Uint8Array(data), n);
  for (let j = 0; j < n; j++) {
    const column = columnOf.get(slot[j]!);
    if (column === undefined) continue;
    const c = base + column;
    into.any[c] = 1;
    into.attempt[c] = attempt[j]!;
    into.score[c] = score[j]!;
    into.submittedMs[c] = at[j]!;
  }
}

/** The four arrays of a cell's layout over its bytes (8-byte aligned). */
function cellViews(bytes: Uint8Array, n: number) {
  return {
    score: new Float64Array(bytes.buffer, bytes.byteOffset, n),
    at: new Float64Array(bytes.buffer, bytes.byteOffset + 8 * n, n),
    attempt: new Float64Array(bytes.buffer, bytes.byteOffset + 16 * n, n),
    slot: new Int32Array(bytes.buffer, bytes.byteOffset + 24 * n, n),
  };
}

function clearRow(r: SubmissionRecords, base: number): void {
  r.any.fill(0, base, base + r.nItems);
  r.attempt.fill(0, base, base + r.nItems);
  r.score.fill(0, base, base + r.nItems);
  r.submittedMs.fill(0, base, base + r.nItems);
}
