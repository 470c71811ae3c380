/**
 * One description per table (as Actual's loot-core does): its name, key, columns, and the
 * mapping both ways between a row (snake_case columns, JSON text, 0/1 booleans) and the
 * resource shape of the spec (camelCase), whose type is inferred from its zod schema.
 * Store modules and dataset import/dump use these and nothing else to write and read rows.
 */

import type { GradeSubmission } from '../domain/grading/types.js';
import { BLOCK_FIELDS } from '../schemas/block-fields.js';
import type { AssignmentRowValue, BlockContentValue, LessonValue, StoredBlockValue, SubmissionValue } from '../schemas/content.js';
import type { SyncMarkValue } from '../schemas/course-content.js';
import type { CourseValue, ModuleValue } from '../schemas/courses.js';
import type { FinalGradeHistoryValue, FinalGradeValue } from '../schemas/final-grades.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { ApiTokenValue, EnrollmentValue, ReportingLineValue, UserValue } from '../schemas/people.js';
import type { AttestationValue, FindingValue, StandardsRubricValue } from '../schemas/readiness.js';
import type { CertificateValue, TemplateValue } from '../schemas/templates.js';
import type { Store } from './db.js';
import { inListSlices, placeholders } from './in-lists.js';

export type Row = Record<string, unknown>;

/** What a table is: its name, key and columns, and its row mapping both ways. */
interface TableSpec<V> {
  readonly name: string;
  readonly key: readonly string[];
  readonly columns: readonly string[];
  toRow(value: V): Row;
  fromRow(row: Row): V;
}

export interface Table<V> extends TableSpec<V> {
  /**
   * Its INSERT statements, made once: a statement built again for every write cost a
   * request a little, and its new text had to be hashed again to find the prepared statement.
   */
  readonly writes: { readonly insert: string; readonly upsert: string };
}

const table = <V>(t: TableSpec<V>): Table<V> => ({ ...t, writes: { insert: insertSql(t, 'insert'), upsert: insertSql(t, 'upsert') } });

// Column readers: what SQLite hands back is typed `unknown`; each reader says what the
// column holds by the table's own definition (migrations.ts).
/** A JSON column's value, or the fallback when the column is null. */
export const json = <T>(v: unknown, fallback: T): T => (v === null || v === undefined ? fallback : (JSON.parse(v as string) as T));
/** A NOT NULL JSON column: its text parsed, with no fallback to stand in for a missing value. */
const requiredJson = <T>(v: unknown): T => JSON.parse(v as string) as T;
const jsonText = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
const str = <T extends string = string>(v: unknown): T => v as T;
const nstr = <T extends string = string>(v: unknown): T | null => (v === null || v === undefined ? null : (v as T));
const num = (v: unknown): number => v as number;
const nnum = (v: unknown): number | null => (v === null || v === undefined ? null : (v as number));

export const USERS = table<UserValue>({
  name: 'users',
  key: ['id'],
  columns: ['id', 'name', 'email', 'admin'],
  toRow: (u) => ({ id: u.id, name: u.name, email: u.email, admin: u.admin ? 1 : 0 }),
  fromRow: (r) => ({ id: str(r.id), name: str(r.name), email: nstr(r.email), admin: r.admin === 1 }),
});

/** A token row: the resource plus the SHA-256 of its secret (the secret itself is never kept). */
export type TokenRecord = ApiTokenValue & { tokenSha256: string };

export const TOKENS = table<TokenRecord>({
  name: 'tokens',
  key: ['id'],
  columns: ['id', 'user_id', 'token_sha256', 'name', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'],
  toRow: (t) => ({
    id: t.id,
    user_id: t.userId,
    token_sha256: t.tokenSha256,
    name: t.name,
    scopes: JSON.stringify(t.scopes),
    created_at: t.createdAt,
    expires_at: t.expiresAt,
    revoked_at: t.revokedAt,
    last_used_at: t.lastUsedAt,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    userId: str(r.user_id),
    name: str(r.name),
    scopes: json(r.scopes, []),
    createdAt: str(r.created_at),
    expiresAt: nstr(r.expires_at),
    revokedAt: nstr(r.revoked_at),
    lastUsedAt: nstr(r.last_used_at),
    tokenSha256: str(r.token_sha256),
  }),
});

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

export const ENROLLMENTS = table<EnrollmentValue>({
  name: 'enrollments',
  key: ['course_id', 'user_id'],
  columns: ['course_id', 'user_id', 'role'],
  toRow: (e) => ({ course_id: e.courseId, user_id: e.userId, role: e.role }),
  fromRow: (r) => ({ courseId: str(r.course_id), userId: str(r.user_id), role: str(r.role) }),
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

export const GRADEBOOK_SETUPS = table<GradebookSetupValue>({
  name: 'gradebook_setups',
  key: ['course_id'],
  columns: ['course_id', 'setup', 'version', 'letters'],
  // letters: the scheme's letters alone, what a final-grade write checks its letter against.
  toRow: (s) => ({ course_id: s.courseId, setup: JSON.stringify(s), version: s.version, letters: JSON.stringify(s.scheme.bands.map((b) => b.letter)) }),
  fromRow: (r) => requiredJson<GradebookSetupValue>(r.setup),
});

export const FINAL_GRADES = table<FinalGradeValue>({
  name: 'final_grades',
  key: ['course_id', 'student_id'],
  columns: ['course_id', 'student_id', 'letter', 'percent', 'reason', 'version', 'updated_by', 'updated_at'],
  toRow: (f) => ({
    course_id: f.courseId,
    student_id: f.studentId,
    letter: f.letter,
    percent: f.percent,
    reason: f.reason,
    version: f.version,
    updated_by: f.updatedBy,
    updated_at: f.updatedAt,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    studentId: str(r.student_id),
    letter: nstr(r.letter),
    percent: nnum(r.percent),
    reason: str(r.reason),
    version: num(r.version),
    updatedBy: str(r.updated_by),
    updatedAt: str(r.updated_at),
  }),
});

export const FINAL_GRADE_HISTORY = table<FinalGradeHistoryValue>({
  name: 'final_grade_history',
  // Append-only: `seq` (not written) orders entries; nothing is ever replaced.
  key: ['seq'],
  columns: ['course_id', 'student_id', 'version', 'old_letter', 'old_percent', 'new_letter', 'new_percent', 'reason', 'by', 'at'],
  toRow: (h) => ({
    course_id: h.courseId,
    student_id: h.studentId,
    version: h.version,
    old_letter: h.oldLetter,
    old_percent: h.oldPercent,
    new_letter: h.newLetter,
    new_percent: h.newPercent,
    reason: h.reason,
    by: h.by,
    at: h.at,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    studentId: str(r.student_id),
    version: num(r.version),
    oldLetter: nstr(r.old_letter),
    oldPercent: nnum(r.old_percent),
    newLetter: nstr(r.new_letter),
    newPercent: nnum(r.new_percent),
    reason: str(r.reason),
    by: str(r.by),
    at: str(r.at),
  }),
});

export const RUBRICS = table<StandardsRubricValue>({
  name: 'rubrics',
  key: ['id'],
  columns: ['id', 'body'],
  toRow: (r) => ({ id: r.id, body: JSON.stringify(r) }),
  fromRow: (r) => requiredJson<StandardsRubricValue>(r.body),
});

export const FINDINGS = table<FindingValue>({
  name: 'findings',
  key: ['course_id', 'item_id'],
  columns: ['course_id', 'item_id', 'verdict', 'evidence', 'suggestion', 'provenance', 'state', 'reviewed_by', 'reviewed_at', 'reviewed_by_name'],
  toRow: (f) => ({
    course_id: f.courseId,
    item_id: f.itemId,
    verdict: f.verdict,
    evidence: f.evidence,
    suggestion: f.suggestion,
    provenance: jsonText(f.provenance),
    state: f.state,
    reviewed_by: f.reviewedBy,
    reviewed_at: f.reviewedAt,
    reviewed_by_name: f.reviewedByName,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    itemId: str(r.item_id),
    verdict: str(r.verdict),
    evidence: str(r.evidence),
    suggestion: str(r.suggestion),
    provenance: json(r.provenance, null),
    state: str(r.state),
    reviewedBy: nstr(r.reviewed_by),
    reviewedAt: nstr(r.reviewed_at),
    reviewedByName: nstr(r.reviewed_by_name),
  }),
});

export const ATTESTATIONS = table<AttestationValue>({
  name: 'attestations',
  key: ['course_id', 'rubric_id', 'item_id'],
  columns: ['course_id', 'rubric_id', 'item_id', 'status', 'by', 'by_name', 'note', 'at'],
  toRow: (a) => ({ course_id: a.courseId, rubric_id: a.rubricId, item_id: a.itemId, status: a.status, by: a.by, by_name: a.byName, note: a.note, at: a.at }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    itemId: str(r.item_id),
    rubricId: str(r.rubric_id),
    status: 'attested',
    by: str(r.by),
    byName: str(r.by_name),
    note: str(r.note),
    at: str(r.at),
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

export const CERTIFICATES = table<CertificateValue>({
  name: 'certificates',
  key: ['id'],
  columns: ['id', 'code', 'user_id', 'learner_name', 'course_id', 'course_title', 'issued_at', 'basis', 'replaces', 'replaced_by', 'replace_reason'],
  toRow: (c) => ({
    id: c.id,
    code: c.code,
    user_id: c.userId,
    learner_name: c.learnerName,
    course_id: c.courseId,
    course_title: c.courseTitle,
    issued_at: c.issuedAt,
    basis: c.basis,
    replaces: c.replaces,
    replaced_by: c.replacedBy,
    replace_reason: c.replaceReason,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    code: str(r.code),
    userId: str(r.user_id),
    learnerName: str(r.learner_name),
    courseId: str(r.course_id),
    courseTitle: str(r.course_title),
    issuedAt: str(r.issued_at),
    basis: str(r.basis),
    replaces: nstr(r.replaces),
    replacedBy: nstr(r.replaced_by),
    replaceReason: nstr(r.replace_reason),
  }),
});

export const REPORTING_LINES = table<ReportingLineValue>({
  name: 'reporting_lines',
  key: ['manager_id', 'report_id'],
  columns: ['manager_id', 'report_id', 'created_by', 'created_at'],
  toRow: (l) => ({ manager_id: l.managerId, report_id: l.reportId, created_by: l.createdBy, created_at: l.createdAt }),
  fromRow: (r) => ({ managerId: str(r.manager_id), reportId: str(r.report_id), createdBy: str(r.created_by), createdAt: str(r.created_at) }),
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

// --- generic statements over a description ------------------------------------------

/**
 * The statement that writes a record of the table. An upsert updates a record whose key
 * exists in place, replacing every non-key column (no delete, so nothing cascades away).
 */
function insertSql<V>(t: TableSpec<V>, mode: 'insert' | 'upsert'): string {
  const cols = t.columns;
  const values = placeholders(cols.length);
  const update = cols
    .filter((c) => !t.key.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return mode === 'upsert' && update
    ? `INSERT INTO ${t.name} (${cols.join(', ')}) VALUES (${values}) ON CONFLICT(${t.key.join(', ')}) DO UPDATE SET ${update}`
    : `INSERT INTO ${t.name} (${cols.join(', ')}) VALUES (${values})`;
}

export async function insertRecord<V>(store: Store, t: Table<V>, value: V, mode: 'insert' | 'upsert' = 'insert'): Promise<V> {
  const row = t.toRow(value);
  await store.run(t.writes[mode], ...t.columns.map((c) => row[c]));
  return value;
}

/** Many records of one table, in order, as one bulk write (store.runEach). */
export async function insertRecords<V>(store: Store, t: Table<V>, values: readonly V[], mode: 'insert' | 'upsert' = 'insert'): Promise<void> {
  if (values.length === 0) return;
  await store.runEach(
    t.writes[mode],
    values.map((value) => {
      const row = t.toRow(value);
      return t.columns.map((c) => row[c]);
    }),
  );
}

/** Overwrite every column of the record with this key (the key columns stay). */
export async function updateRecord<V>(store: Store, t: Table<V>, value: V): Promise<V> {
  const row = t.toRow(value);
  const set = t.columns.filter((c) => !t.key.includes(c));
  await store.run(
    `UPDATE ${t.name} SET ${set.map((c) => `${c} = ?`).join(', ')} WHERE ${t.key.map((k) => `${k} = ?`).join(' AND ')}`,
    ...set.map((c) => row[c]),
    ...t.key.map((k) => row[k]),
  );
  return value;
}

/** What finding a record by its key needs of a table: its name and key columns. */
export type TableKey = Pick<Table<unknown>, 'name' | 'key'>;

/** Whether a record with this key exists (key values in the table's key order). */
export async function recordExists(store: Store, t: TableKey, key: readonly unknown[]): Promise<boolean> {
  return (await store.get(`SELECT 1 AS x FROM ${t.name} WHERE ${t.key.map((k) => `${k} = ?`).join(' AND ')}`, ...key)) !== undefined;
}

/**
 * Which of these keys already name a record, in order, asked about 500 at a time (a dataset
 * of 25,000 submissions asked once per record spent a tenth of its import on the question,
 * and on PostgreSQL each question is a round trip). A composite key is matched as a row
 * value against a VALUES list, which SQLite and PostgreSQL both read.
 */
export async function recordsExisting(store: Store, t: TableKey, keys: readonly (readonly unknown[])[]): Promise<boolean[]> {
  const found = new Set<string>();
  const select = t.key.map((k, i) => `${k} AS k${i}`).join(', ');
  const tuple = `(${t.key.map(() => '?').join(', ')})`;
  for (const slice of inListSlices(keys)) {
    const where =
      t.key.length === 1 ? `${t.key[0]} IN (${placeholders(slice.length)})` : `(${t.key.join(', ')}) IN (VALUES ${slice.map(() => tuple).join(', ')})`;
    const rows = await store.all<Row>(`SELECT ${select} FROM ${t.name} WHERE ${where}`, ...slice.flat());
    for (const row of rows) found.add(JSON.stringify(t.key.map((_, k) => row[`k${k}`])));
  }
  return keys.map((k) => found.has(JSON.stringify(k)));
}

/** Every record of a table in the given column order (a dump). */
export async function allRecords<V>(store: Store, t: Table<V>, orderBy: readonly string[] = t.key): Promise<V[]> {
  return ((await store.all(`SELECT * FROM ${t.name} ORDER BY ${orderBy.join(', ')}`)) as Row[]).map(t.fromRow);
}
