import type { SubmissionValue } from '../../schemas/content.js';

/** Who is looking at a submission: their standing in its course (an enrollment role, or admin). */
export interface SubmissionViewer {
  role?: 'instructor' | 'reviewer' | 'student' | 'admin' | undefined;
}

/**
 * A submission as this viewer may see it: the one home of "students see a grade only once it
 * is released" (grading.md). Until `releasedAt` is set the submitting student sees the
 * submission as if it were not graded yet: no grade (score, criteria, feedback) and state
 * `submitted`, so not even the fact of grading leaks before the instructor returns it.
 * Staff see everything. Every route that answers a submission calls this.
 */
export function submissionForViewer(submission: SubmissionValue, viewer: SubmissionViewer): SubmissionValue {
  if (viewer.role !== 'student' || submission.grade?.releasedAt) return submission;
  if (submission.grade === null && submission.state === 'submitted') return submission;
  return { ...submission, state: 'submitted', grade: null };
}
