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
 * Float64 score[n], Float64 submittedMs[n], Int32 slot[n], Int32 attempt[n] (the platform's byte
 * order, little-endian everywhere Node runs in practice; attempt 0 = submitted but no
 * scored attempt).
 */
import { emptyRecords, recordsFromSubmissions, type SubmissionRecords } from '../domain/grading/records.js';
import type { Store } from './db.js';

const ENTRY_BYTES = 24;

/**
 * The staff view's submissions of record for these students x items (item ids of the
 * course, in the order the caller wants the columns).
 */
export function loadSubmissionRecords(store: Store, courseId: string, itemIds: readonly string[], studentIds: readonly string[]): SubmissionRecords {
  const nItems = itemIds.length;
  const records = emptyRecords(studentIds.length, nItems);
  const studentIndex = new Map(studentIds.map((id, i) => [id, i]));
  let slots = courseSlots(store, courseId);
  let columnOf = slotColumns(slots, itemIds);

  const cached = new Uint8Array(studentIds.length);
  const rows = store.stmt('SELECT student_id, data FROM grade_cells WHERE course_id = ?').raw(true).iterate(courseId) as IterableIterator<[string, Buffer]>;
  for (const [studentId, data] of rows) {
    const si = studentIndex.get(studentId);
    if (si === undefined) continue;
    decodeCell(data, records, si * nItems, columnOf);
    cached[si] = 1;
  }
  if (cached.every((v) => v === 1)) return records;

  const rebuild = (save: boolean) => {
    slots = courseSlots(store, courseId);
    columnOf = slotColumns(slots, itemIds);
    const missing: number[] = [];
    for (let si = 0; si < studentIds.length; si++) if (!cached[si]) missing.push(si);
    const slotIds = [...slots.byAssignment.keys()];
    const slotNumbers = [...slots.byAssignment.values()];
    // Rebuilding most of a large course (a fresh import, a migrated store): one pass over
    // the course's submissions beats one query per student.
    const bulk = missing.length > 500 && missing.length * 2 > studentIds.length;
    const folded = bulk ? recordsFromSubmissions(slotIds, missing.map((si) => studentIds[si]!), courseSubmissions(store, courseId)) : null;
    missing.forEach((si, m) => {
      const studentId = studentIds[si]!;
      const data = folded ? packCell(folded, m * slotIds.length, slotNumbers) : packCell(foldStudent(store, courseId, studentId, slotIds), 0, slotNumbers);
      if (save) store.stmt('INSERT OR REPLACE INTO grade_cells (course_id, student_id, data) VALUES (?, ?, ?)').run(courseId, studentId, data);
      clearRow(records, si * nItems);
      decodeCell(data, records, si * nItems, columnOf);
    });
  };
  try {
    // Inside the write transaction: no submission can change between reading and saving.
    store.tx(() => rebuild(true));
  } catch (err) {
    // A read-only store file, or a writer holding the lock past the busy timeout: the
    // cells are only a cache, so answer from the submissions without saving them.
    if (!isReadOnlyOrBusy(err)) throw err;
    rebuild(false);
  }
  return records;
}

function isReadOnlyOrBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_BUSY'));
}

/**
 * Submissions to the course's assignments (any status), of one student or of all,
 * streamed through one reused object: copy what you keep.
 */
export function* courseSubmissions(store: Store, courseId: string, studentId?: string) {
  const sql = `SELECT s.assignment_id, s.student_id, s.attempt, s.submitted_at, s.score, s.released_at
     FROM submissions s JOIN assignments a ON a.id = s.assignment_id WHERE a.course_id = ?`;
  const rows = (
    studentId === undefined
      ? store.stmt(sql).raw(true).iterate(courseId)
      : store.stmt(`${sql} AND s.student_id = ?`).raw(true).iterate(courseId, studentId)
  ) as IterableIterator<[string, string, number, string, number | null, string | null]>;
  const out = { assignmentId: '', studentId: '', attempt: 0, submittedAt: '', score: null as number | null, releasedAt: null as string | null };
  for (const r of rows) {
    out.assignmentId = r[0];
    out.studentId = r[1];
    out.attempt = r[2];
    out.submittedAt = r[3];
    out.score = r[4];
    out.releasedAt = r[5];
    yield out;
  }
}

interface Slots {
  /** assignment id -> slot */
  byAssignment: Map<string, number>;
}

function courseSlots(store: Store, courseId: string): Slots {
  const rows = store.stmt('SELECT assignment_id, slot FROM grade_slots WHERE course_id = ?').raw(true).all(courseId) as [string, number][];
  return { byAssignment: new Map(rows) };
}

/** slot -> column for the requested items; slots of other assignments map to -1. */
function slotColumns(slots: Slots, itemIds: readonly string[]): Map<number, number> {
  const columns = new Map<number, number>();
  itemIds.forEach((id, column) => {
    const slot = slots.byAssignment.get(id);
    if (slot !== undefined) columns.set(slot, column);
  });
  return columns;
}

/** One student's submissions of record over the course's slots (the grading domain's rule). */
function foldStudent(store: Store, courseId: string, studentId: string, slotIds: string[]): SubmissionRecords {
  return recordsFromSubmissions(slotIds, [studentId], courseSubmissions(store, courseId, studentId));
}

/** Pack the records of one student (cells base .. base + slots) into a cell's bytes. */
function packCell(r: SubmissionRecords, base: number, slotNumbers: number[]): Buffer {
  let n = 0;
  for (let c = 0; c < slotNumbers.length; c++) n += r.any[base + c]!;
  const data = Buffer.alloc(n * ENTRY_BYTES);
  const score = new Float64Array(data.buffer, data.byteOffset, n);
  const at = new Float64Array(data.buffer, data.byteOffset + 8 * n, n);
  const slot = new Int32Array(data.buffer, data.byteOffset + 16 * n, n);
  const attempt = new Int32Array(data.buffer, data.byteOffset + 20 * n, n);
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

function decodeCell(data: Buffer, into: SubmissionRecords, base: number, columnOf: Map<number, number>): void {
  const n = data.length / ENTRY_BYTES;
  if (n === 0) return;
  // Typed views need 8-byte alignment; a Buffer from the binding normally has it.
  const bytes = data.byteOffset % 8 === 0 ? data : new Uint8Array(data);
  const score = new Float64Array(bytes.buffer, bytes.byteOffset, n);
  const at = new Float64Array(bytes.buffer, bytes.byteOffset + 8 * n, n);
  const slot = new Int32Array(bytes.buffer, bytes.byteOffset + 16 * n, n);
  const attempt = new Int32Array(bytes.buffer, bytes.byteOffset + 20 * n, n);
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

function clearRow(r: SubmissionRecords, base: number): void {
  r.any.fill(0, base, base + r.nItems);
  r.attempt.fill(0, base, base + r.nItems);
  r.score.fill(0, base, base + r.nItems);
  r.submittedMs.fill(0, base, base + r.nItems);
}
