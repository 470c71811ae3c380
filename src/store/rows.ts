/**
 * Row <-> object mapping, done once here: snake_case columns and JSON text in, the
 * resource shapes of the spec (camelCase) out. Store modules use these and nothing else
 * to build their results.
 */
import type { StoredBlockValue } from '../schemas/content.js';

export type Row = Record<string, unknown>;

const json = <T>(v: unknown, fallback: T): T => (v === null || v === undefined ? fallback : (JSON.parse(v as string) as T));
const str = (v: unknown): string => v as string;
const nstr = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));
const nnum = (v: unknown): number | null => (v === null || v === undefined ? null : (v as number));

export interface UserValue { id: string; name: string; email: string | null; admin: boolean }
export const userFromRow = (r: Row): UserValue => ({ id: str(r.id), name: str(r.name), email: nstr(r.email), admin: r.admin === 1 });

export interface TokenValue {
  id: string; userId: string; name: string; scopes: string[]; createdAt: string;
  expiresAt: string | null; revokedAt: string | null; lastUsedAt: string | null;
}
export const tokenFromRow = (r: Row): TokenValue => ({
  id: str(r.id), userId: str(r.user_id), name: str(r.name), scopes: json<string[]>(r.scopes, []),
  createdAt: str(r.created_at), expiresAt: nstr(r.expires_at), revokedAt: nstr(r.revoked_at), lastUsedAt: nstr(r.last_used_at),
});

export interface CourseValue {
  id: string; title: string; description: string; status: 'draft' | 'published'; publishedAt: string | null;
  objectives: string[]; rubricId: string; templateId: string | null; accessFloor: number | null;
  tutorDefaults: { lesson: 'off' | 'on'; assignment: 'off' | 'on' }; createdAt: string; updatedAt: string;
}
export const courseFromRow = (r: Row): CourseValue => ({
  id: str(r.id), title: str(r.title), description: str(r.description), status: r.status as CourseValue['status'],
  publishedAt: nstr(r.published_at), objectives: json<string[]>(r.objectives, []), rubricId: str(r.rubric_id),
  templateId: nstr(r.template_id), accessFloor: nnum(r.access_floor),
  tutorDefaults: { lesson: r.tutor_lesson as 'off' | 'on', assignment: r.tutor_assignment as 'off' | 'on' },
  createdAt: str(r.created_at), updatedAt: str(r.updated_at),
});

export interface EnrollmentValue { courseId: string; userId: string; role: 'instructor' | 'reviewer' | 'student' }
export const enrollmentFromRow = (r: Row): EnrollmentValue => ({ courseId: str(r.course_id), userId: str(r.user_id), role: r.role as EnrollmentValue['role'] });

export interface ModuleValue { id: string; courseId: string; title: string; objective: string; position: number; status: 'draft' | 'published' }
export const moduleFromRow = (r: Row): ModuleValue => ({
  id: str(r.id), courseId: str(r.course_id), title: str(r.title), objective: str(r.objective), position: r.position as number, status: r.status as ModuleValue['status'],
});

export interface LessonValue {
  id: string; moduleId: string; courseId: string; title: string; minutes: number; position: number;
  status: 'draft' | 'published'; publishedAt: string | null;
}
export const lessonFromRow = (r: Row): LessonValue => ({
  id: str(r.id), moduleId: str(r.module_id), courseId: str(r.course_id), title: str(r.title), minutes: r.minutes as number,
  position: r.position as number, status: r.status as LessonValue['status'], publishedAt: nstr(r.published_at),
});

/** Stored block: meta fields then the content fields, in that order. */
export const blockFromRow = (r: Row): StoredBlockValue => ({
  id: str(r.id), lessonId: nstr(r.lesson_id), position: r.position as number, origin: r.origin as 'human' | 'ai',
  aiState: nstr(r.ai_state) as StoredBlockValue['aiState'], provenance: json(r.provenance, null), previous: json(r.previous, null),
  updatedAt: str(r.updated_at), ...json<Record<string, unknown>>(r.content, {}), type: str(r.type),
});

/** The content part of a block (type first), as stored in the `content` column plus `type`. */
export function blockContentOf(block: Record<string, unknown>): Record<string, unknown> {
  const { id: _i, lessonId: _l, position: _p, origin: _o, aiState: _a, provenance: _pr, previous: _pv, updatedAt: _u, assignmentId: _as, ...content } = block;
  return content;
}

export interface AssignmentRowValue {
  id: string; moduleId: string; courseId: string; title: string; position: number; status: 'draft' | 'published';
  publishedAt: string | null; dueAt: string | null; points: number; submissionType: 'text' | 'file' | 'link';
  categoryId: string | null; rubric: unknown[];
}
export const assignmentFromRow = (r: Row): AssignmentRowValue => ({
  id: str(r.id), moduleId: str(r.module_id), courseId: str(r.course_id), title: str(r.title), position: r.position as number,
  status: r.status as 'draft' | 'published', publishedAt: nstr(r.published_at), dueAt: nstr(r.due_at), points: r.points as number,
  submissionType: r.submission_type as 'text' | 'file' | 'link', categoryId: nstr(r.category_id), rubric: json<unknown[]>(r.rubric, []),
});

export interface GradeValue {
  score: number | null; criteria: { criterionId: string; levelId: string; points: number; comment: string }[];
  feedback: string; feedbackOrigin: 'human' | 'ai'; feedbackProvenance: unknown | null;
  gradedBy: string | null; gradedAt: string | null; releasedAt: string | null;
}
export interface SubmissionValue {
  id: string; assignmentId: string; studentId: string; attempt: number; state: 'submitted' | 'graded' | 'returned';
  text: string | null; fileId: string | null; link: string | null; submittedAt: string; grade: GradeValue | null;
}
export const submissionFromRow = (r: Row): SubmissionValue => ({
  id: str(r.id), assignmentId: str(r.assignment_id), studentId: str(r.student_id), attempt: r.attempt as number,
  state: r.state as SubmissionValue['state'], text: nstr(r.text), fileId: nstr(r.file_id), link: nstr(r.link),
  submittedAt: str(r.submitted_at), grade: json<GradeValue | null>(r.grade, null),
});

export interface FinalGradeValue {
  courseId: string; studentId: string; letter: string | null; percent: number | null; reason: string;
  version: number; updatedBy: string; updatedAt: string;
}
export const finalGradeFromRow = (r: Row): FinalGradeValue => ({
  courseId: str(r.course_id), studentId: str(r.student_id), letter: nstr(r.letter), percent: nnum(r.percent), reason: str(r.reason),
  version: r.version as number, updatedBy: str(r.updated_by), updatedAt: str(r.updated_at),
});

export interface FinalGradeHistoryValue {
  courseId: string; studentId: string; version: number; oldLetter: string | null; oldPercent: number | null;
  newLetter: string | null; newPercent: number | null; reason: string; by: string; at: string;
}
export const finalGradeHistoryFromRow = (r: Row): FinalGradeHistoryValue => ({
  courseId: str(r.course_id), studentId: str(r.student_id), version: r.version as number, oldLetter: nstr(r.old_letter),
  oldPercent: nnum(r.old_percent), newLetter: nstr(r.new_letter), newPercent: nnum(r.new_percent), reason: str(r.reason), by: str(r.by), at: str(r.at),
});

export interface FindingValue {
  courseId: string; itemId: string; verdict: 'met' | 'not-met'; evidence: string; suggestion: string; provenance: unknown | null;
  state: 'draft' | 'accepted' | 'rejected'; reviewedBy: string | null; reviewedAt: string | null; reviewedByName: string | null;
}
export const findingFromRow = (r: Row): FindingValue => ({
  courseId: str(r.course_id), itemId: str(r.item_id), verdict: r.verdict as FindingValue['verdict'], evidence: str(r.evidence),
  suggestion: str(r.suggestion), provenance: json(r.provenance, null), state: r.state as FindingValue['state'],
  reviewedBy: nstr(r.reviewed_by), reviewedAt: nstr(r.reviewed_at), reviewedByName: nstr(r.reviewed_by_name),
});

export interface AttestationValue { courseId: string; itemId: string; rubricId: string; status: 'attested'; by: string; byName: string; note: string; at: string }
export const attestationFromRow = (r: Row): AttestationValue => ({
  courseId: str(r.course_id), itemId: str(r.item_id), rubricId: str(r.rubric_id), status: 'attested', by: str(r.by), byName: str(r.by_name), note: str(r.note), at: str(r.at),
});

export interface TemplateValue {
  id: string; name: string; description: string; owner: { kind: 'institution' } | { kind: 'user'; userId: string };
  modules: { key: string; title: string; placement: 'start' | 'end'; objective: string; lessons: unknown[] }[];
  tutorDefaults: { lesson: 'off' | 'on'; assignment: 'off' | 'on' }; accessFloor: number; updatedBy: string; updatedAt: string;
}
export const templateFromRow = (r: Row): TemplateValue => ({
  id: str(r.id), name: str(r.name), description: str(r.description), owner: json(r.owner, { kind: 'institution' as const }),
  modules: json(r.modules, []), tutorDefaults: { lesson: r.tutor_lesson as 'off' | 'on', assignment: r.tutor_assignment as 'off' | 'on' },
  accessFloor: r.access_floor as number, updatedBy: str(r.updated_by), updatedAt: str(r.updated_at),
});

export interface CertificateValue {
  id: string; code: string; userId: string; learnerName: string; courseId: string; courseTitle: string; issuedAt: string;
  basis: 'completed' | 'tested-out'; replaces: string | null; replacedBy: string | null; replaceReason: string | null;
}
export const certificateFromRow = (r: Row): CertificateValue => ({
  id: str(r.id), code: str(r.code), userId: str(r.user_id), learnerName: str(r.learner_name), courseId: str(r.course_id),
  courseTitle: str(r.course_title), issuedAt: str(r.issued_at), basis: r.basis as CertificateValue['basis'],
  replaces: nstr(r.replaces), replacedBy: nstr(r.replaced_by), replaceReason: nstr(r.replace_reason),
});

export interface ReportingLineValue { managerId: string; reportId: string; createdBy: string; createdAt: string }
export const reportingLineFromRow = (r: Row): ReportingLineValue => ({
  managerId: str(r.manager_id), reportId: str(r.report_id), createdBy: str(r.created_by), createdAt: str(r.created_at),
});
