/**
 * Submissions of record (grading.md): per (student, item), the highest attempt that has a
 * score. A student's view counts only released grades, so its record can be an earlier
 * attempt. Kept as a dense students x items table of typed arrays: a 10,000 x 200
 * gradebook is two million cells, and objects per cell would dominate the time.
 */
import type { GradeSubmission } from './types.js';

export interface SubmissionRecords {
  /** Columns: cell (student s, item i) is s * nItems + i, items in the order given. */
  nItems: number;
  /**
   * Attempt number of the record; 0 when no attempt has a (counted) score. Doubles, so any
   * safe integer attempt compares exactly (an Int32Array wrapped 2^31 to a negative).
   */
  attempt: Float64Array;
  score: Float64Array;
  /** The record's submittedAt in epoch milliseconds. */
  submittedMs: Float64Array;
  /** 1 when the student submitted anything to the item (graded or not). */
  any: Uint8Array;
}

export function emptyRecords(nStudents: number, nItems: number): SubmissionRecords {
  const cells = nStudents * nItems;
  return { nItems, attempt: new Float64Array(cells), score: new Float64Array(cells), submittedMs: new Float64Array(cells), any: new Uint8Array(cells) };
}

/** Fold one submission into cell c. `counts`: its score may be the record (scored, and released when that is required). */
function foldSubmission(r: SubmissionRecords, c: number, attempt: number, score: number | null, submittedMs: number, counts: boolean): void {
  r.any[c] = 1;
  if (counts && score !== null && attempt > r.attempt[c]!) {
    r.attempt[c] = attempt;
    r.score[c] = score;
    r.submittedMs[c] = submittedMs;
  }
}

/** Records for the given students x items from any iterable of submissions (others are skipped). */
export function recordsFromSubmissions(
  itemIds: readonly string[],
  studentIds: readonly string[],
  submissions: Iterable<GradeSubmission>,
  releasedOnly = false,
): SubmissionRecords {
  const folder = recordsFolder(itemIds, studentIds, releasedOnly);
  folder.add(submissions);
  return folder.records;
}

/** Records built from submissions that arrive in batches (a large course read piecewise). */
export function recordsFolder(itemIds: readonly string[], studentIds: readonly string[], releasedOnly = false) {
  const nItems = itemIds.length;
  const items = new Map(itemIds.map((id, i) => [id, i]));
  const students = new Map(studentIds.map((id, i) => [id, i]));
  const r = emptyRecords(studentIds.length, nItems);
  return {
    records: r,
    add(submissions: Iterable<GradeSubmission>): void {
      for (const sub of submissions) {
        const si = students.get(sub.studentId);
        const ii = items.get(sub.assignmentId);
        if (si === undefined || ii === undefined) continue;
        const counts = !releasedOnly || sub.releasedAt !== null;
        foldSubmission(r, si * nItems + ii, sub.attempt, sub.score, counts && sub.score !== null ? Date.parse(sub.submittedAt) : 0, counts);
      }
    },
  };
}
