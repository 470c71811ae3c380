/** The course tables: courses, modules, lessons, blocks, assignments, submissions, templates, and the offline authoring marks. */
import type { GradeSubmission } from '../domain/grading/types.js';
import { BLOCK_FIELDS } from '../schemas/block-fields.js';
import type { AssignmentRowValue, BlockContentValue, LessonValue, StoredBlockValue, SubmissionValue } from '../schemas/content.js';
import type { SyncMarkValue } from '../schemas/course-content.js';
import type { CourseValue, ModuleValue } from '../schemas/courses.js';
import type { TemplateValue } from '../schemas/templates.js';

import { json, jsonText, nnum, nstr, num, str, table } from './table.js';

export const COURSES = table<CourseValue>({
  name: 'courses',
  key: ['id'],
  columns: [
    'id',
    'title',
    'description',
    'status',
    'published_at',
    'objectives',
    'rubric_id',
    'template_id',
    'access_floor',
    'tutor_lesson',
    'tutor_assignment',
    'created_at',
    'updated_at',
  ],
  toRow: (c) => ({
    id: c.id,
    title: c.title,
    description: c.description,
    status: c.status,
    published_at: c.publishedAt,
    objectives: JSON.stringify(c.objectives),
    rubric_id: c.rubricId,
    template_id: c.templateId,
    access_floor: c.accessFloor,
    tutor_lesson: c.tutorDefaults.lesson,
    tutor_assignment: c.tutorDefaults.assignment,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    title: str(r.title),
    description: str(r.description),
    status: str(r.status),
    publishedAt: nstr(r.published_at),
    objectives: json(r.objectives, []),
    rubricId: str(r.rubric_id),
    templateId: nstr(r.template_id),
    accessFloor: nnum(r.access_floor),
    tutorDefaults: { lesson: str(r.tutor_lesson), assignment: str(r.tutor_assignment) },
    createdAt: str(r.created_at),
    updatedAt: str(r.updated_at),
  }),
});

export const MODULES = table<ModuleValue>({
  name: 'modules',
  key: ['id'],
  columns: ['id', 'course_id', 'title', 'objective', 'position', 'status'],
  toRow: (m) => ({ id: m.id, course_id: m.courseId, title: m.title, objective: m.objective, position: m.position, status: m.status }),
  fromRow: (r) => ({
    id: str(r.id),
    courseId: str(r.course_id),
    title: str(r.title),
    objective: str(r.objective),
    position: num(r.position),
    status: str(r.status),
  }),
});

export const LESSONS = table<LessonValue>({
  name: 'lessons',
  key: ['id'],
  columns: ['id', 'module_id', 'course_id', 'title', 'minutes', 'position', 'status', 'published_at'],
  toRow: (l) => ({
    id: l.id,
    module_id: l.moduleId,
    course_id: l.courseId,
    title: l.title,
    minutes: l.minutes,
    position: l.position,
    status: l.status,
    published_at: l.publishedAt,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    moduleId: str(r.module_id),
    courseId: str(r.course_id),
    title: str(r.title),
    minutes: num(r.minutes),
    position: num(r.position),
    status: str(r.status),
    publishedAt: nstr(r.published_at),
  }),
});

/** The content part of a block (type first): everything but the meta fields. */
export function blockContentOf(block: Record<string, unknown>): BlockContentValue {
  const { id: _i, lessonId: _l, position: _p, origin: _o, aiState: _a, provenance: _pr, previous: _pv, updatedAt: _u, assignmentId: _as, ...content } = block;
  return content as BlockContentValue;
}

/**
 * Block content in its variant's canonical field order (`type` first; BLOCK_FIELDS), whatever
 * order the path that built it used: a person's edit keeps the content it read back from a row
 * (`type` last) in `previous`, an import the parsed file's (`type` first). Fields the variant
 * does not name (none, once validated) keep their place after the named ones.
 */
export function inFieldOrder(content: BlockContentValue): BlockContentValue {
  const order = BLOCK_FIELDS[content.type];
  if (order === undefined) return content;
  const ordered: Record<string, unknown> = {};
  for (const k of order) if (k in content) ordered[k] = content[k];
  for (const k of Object.keys(content)) if (!(k in ordered)) ordered[k] = content[k];
  return ordered as BlockContentValue;
}

const storedPrevious = (v: unknown): BlockContentValue | null => {
  const previous = json<BlockContentValue | null>(v, null);
  return previous === null ? null : inFieldOrder(previous);
};

/** A block row: a lesson's block (assignmentId null) or an assignment's instruction (lessonId null). */
export type BlockRecord = StoredBlockValue & { assignmentId: string | null };

export const BLOCKS = table<BlockRecord>({
  name: 'blocks',
  key: ['id'],
  columns: ['id', 'lesson_id', 'assignment_id', 'position', 'type', 'content', 'origin', 'ai_state', 'provenance', 'previous', 'updated_at'],
  toRow: (b) => {
    const { type, ...fields } = inFieldOrder(blockContentOf(b));
    return {
      id: b.id,
      lesson_id: b.lessonId,
      assignment_id: b.assignmentId,
      position: b.position,
      type,
      content: JSON.stringify(fields),
      origin: b.origin,
      ai_state: b.aiState,
      provenance: jsonText(b.provenance),
      previous: b.previous === null ? null : JSON.stringify(inFieldOrder(b.previous)),
      updated_at: b.updatedAt,
    };
  },
  // Meta fields then the content fields, in that order (the API's and the dump's bytes).
  fromRow: (r) => ({
    id: str(r.id),
    lessonId: nstr(r.lesson_id),
    position: num(r.position),
    origin: str(r.origin),
    aiState: nstr(r.ai_state),
    provenance: json(r.provenance, null),
    // In canonical order even where an earlier write stored another.
    previous: storedPrevious(r.previous),
    updatedAt: str(r.updated_at),
    ...json<Record<string, unknown>>(r.content, {}),
    type: str(r.type),
    assignmentId: nstr(r.assignment_id),
  }),
});

/** A stored block as the API shows it (no assignmentId: an instruction sits inside its assignment). */
export function blockView(block: BlockRecord): StoredBlockValue {
  const { assignmentId: _a, ...view } = block;
  return view;
}

export const ASSIGNMENTS = table<AssignmentRowValue>({
  name: 'assignments',
  key: ['id'],
  columns: ['id', 'module_id', 'course_id', 'title', 'position', 'status', 'published_at', 'due_at', 'points', 'submission_type', 'category_id', 'rubric'],
  toRow: (a) => ({
    id: a.id,
    module_id: a.moduleId,
    course_id: a.courseId,
    title: a.title,
    position: a.position,
    status: a.status,
    published_at: a.publishedAt,
    due_at: a.dueAt,
    points: a.points,
    submission_type: a.submissionType,
    category_id: a.categoryId,
    rubric: JSON.stringify(a.rubric),
  }),
  fromRow: (r) => ({
    id: str(r.id),
    moduleId: str(r.module_id),
    courseId: str(r.course_id),
    title: str(r.title),
    position: num(r.position),
    status: str(r.status),
    publishedAt: nstr(r.published_at),
    dueAt: nstr(r.due_at),
    points: num(r.points),
    submissionType: str(r.submission_type),
    categoryId: nstr(r.category_id),
    rubric: json(r.rubric, []),
  }),
});

/** What the grading engine reads of a submission: the columns score and released_at mirror. */
export function gradeSubmissionOf(s: SubmissionValue): GradeSubmission {
  return {
    assignmentId: s.assignmentId,
    studentId: s.studentId,
    attempt: s.attempt,
    submittedAt: s.submittedAt,
    score: s.grade?.score ?? null,
    releasedAt: s.grade?.releasedAt ?? null,
  };
}

export const SUBMISSIONS = table<SubmissionValue>({
  name: 'submissions',
  key: ['id'],
  columns: ['id', 'assignment_id', 'student_id', 'attempt', 'state', 'text', 'file_id', 'link', 'submitted_at', 'grade', 'score', 'released_at'],
  // score and released_at mirror the grade document so gradebook reads never parse JSON.
  toRow: (s) => ({
    id: s.id,
    assignment_id: s.assignmentId,
    student_id: s.studentId,
    attempt: s.attempt,
    state: s.state,
    text: s.text,
    file_id: s.fileId,
    link: s.link,
    submitted_at: s.submittedAt,
    grade: jsonText(s.grade),
    score: s.grade?.score ?? null, // as gradeSubmissionOf reads it
    released_at: s.grade?.releasedAt ?? null,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    assignmentId: str(r.assignment_id),
    studentId: str(r.student_id),
    attempt: num(r.attempt),
    state: str(r.state),
    text: nstr(r.text),
    fileId: nstr(r.file_id),
    link: nstr(r.link),
    submittedAt: str(r.submitted_at),
    grade: json(r.grade, null),
  }),
});

export const TEMPLATES = table<TemplateValue>({
  name: 'templates',
  key: ['id'],
  columns: ['id', 'name', 'description', 'owner', 'modules', 'tutor_lesson', 'tutor_assignment', 'access_floor', 'updated_by', 'updated_at'],
  toRow: (t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    owner: JSON.stringify(t.owner),
    modules: JSON.stringify(t.modules),
    tutor_lesson: t.tutorDefaults.lesson,
    tutor_assignment: t.tutorDefaults.assignment,
    access_floor: t.accessFloor,
    updated_by: t.updatedBy,
    updated_at: t.updatedAt,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    name: str(r.name),
    description: str(r.description),
    owner: json(r.owner, { kind: 'institution' as const }),
    modules: json(r.modules, []),
    tutorDefaults: { lesson: str(r.tutor_lesson), assignment: str(r.tutor_assignment) },
    accessFloor: num(r.access_floor),
    updatedBy: str(r.updated_by),
    updatedAt: str(r.updated_at),
  }),
});

// #14 offline authoring round trip: a store's marks of its last push or pull per remote.
export const SYNC_MARKS = table<SyncMarkValue>({
  name: 'course_sync_marks',
  key: ['course_id', 'remote'],
  columns: ['course_id', 'remote', 'remote_revision', 'local_revision', 'base', 'synced_at'],
  toRow: (m) => ({
    course_id: m.courseId,
    remote: m.remote,
    remote_revision: m.remoteRevision,
    local_revision: m.localRevision,
    base: JSON.stringify(m.base),
    synced_at: m.syncedAt,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    remote: str(r.remote),
    remoteRevision: num(r.remote_revision),
    localRevision: num(r.local_revision),
    base: json(r.base, null),
    syncedAt: str(r.synced_at),
  }),
});
