/**
 * The store's tables for Kysely (#18): each row as both dialects hand it back, so one typed
 * query serves SQLite (better-sqlite3) and PostgreSQL (pg). The schema itself is
 * migrations.ts and migrations-postgres.ts; a test compares this file with it (table and
 * column names in order, nullability, value types, database defaults).
 *
 * Values: text is a string (JSON documents stay text: tables.ts parses them); INTEGER and
 * REAL columns are numbers (pg's int8 is parsed into a number by the store, as better-sqlite3
 * gives one); 0/1 flags are numbers, never booleans; BLOB is a Buffer on read and any
 * Uint8Array on write. `Generated<T>` marks a column the database fills when an insert
 * leaves it out (a default, or a number of its own); nullable columns are optional in
 * inserts anyway.
 */
import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: string;
  name: string;
  email: string | null;
  /** 1 for an administrator, else 0. */
  admin: Generated<number>;
}

export interface TokensTable {
  id: string;
  user_id: string;
  token_sha256: string;
  name: Generated<string>;
  /** JSON array of scope names. */
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface CoursesTable {
  id: string;
  title: string;
  description: Generated<string>;
  status: Generated<string>;
  published_at: string | null;
  /** JSON array. */
  objectives: Generated<string>;
  rubric_id: Generated<string>;
  template_id: string | null;
  access_floor: number | null;
  tutor_lesson: Generated<string>;
  tutor_assignment: Generated<string>;
  created_at: string;
  updated_at: string;
  /** Bumped by triggers on every change to the course's content (migration 5); never written by the store. */
  content_revision: Generated<number>;
}

export interface EnrollmentsTable {
  course_id: string;
  user_id: string;
  role: string;
}

export interface ModulesTable {
  id: string;
  course_id: string;
  title: string;
  objective: Generated<string>;
  position: number;
  status: Generated<string>;
}

export interface LessonsTable {
  id: string;
  module_id: string;
  course_id: string;
  title: string;
  minutes: number;
  position: number;
  status: Generated<string>;
  published_at: string | null;
}

export interface AssignmentsTable {
  id: string;
  module_id: string;
  course_id: string;
  title: string;
  position: number;
  status: Generated<string>;
  published_at: string | null;
  due_at: string | null;
  points: number;
  submission_type: Generated<string>;
  category_id: string | null;
  /** JSON array of criteria. */
  rubric: Generated<string>;
}

/** A lesson's block or an assignment's instruction: exactly one of lesson_id and assignment_id is set. */
export interface BlocksTable {
  id: string;
  lesson_id: string | null;
  assignment_id: string | null;
  position: number;
  type: string;
  /** JSON object: the block's fields other than its type. */
  content: string;
  origin: Generated<string>;
  ai_state: string | null;
  /** JSON or null. */
  provenance: string | null;
  /** JSON or null. */
  previous: string | null;
  updated_at: string;
}

export interface SubmissionsTable {
  id: string;
  assignment_id: string;
  student_id: string;
  attempt: number;
  state: string;
  text: string | null;
  file_id: string | null;
  link: string | null;
  submitted_at: string;
  /** JSON grade document, or null. */
  grade: string | null;
  /** Mirrors grade.score (migration 2). */
  score: number | null;
  /** Mirrors grade.releasedAt (migration 2). */
  released_at: string | null;
}

export interface GradebookSetupsTable {
  course_id: string;
  /** JSON: the whole setup document. */
  setup: string;
  version: number;
  /** JSON: the scheme's letters in its order (migration 6; null only in a row no setup write has touched since). */
  letters: string | null;
}

export interface FinalGradesTable {
  course_id: string;
  student_id: string;
  letter: string | null;
  percent: number | null;
  reason: string;
  version: number;
  updated_by: string;
  updated_at: string;
}

export interface FinalGradeHistoryTable {
  /** Numbered by the database in insertion order; never reused. */
  seq: Generated<number>;
  course_id: string;
  student_id: string;
  version: number;
  old_letter: string | null;
  old_percent: number | null;
  new_letter: string | null;
  new_percent: number | null;
  reason: string;
  by: string;
  at: string;
}

export interface RubricsTable {
  id: string;
  /** JSON: the whole standards rubric. */
  body: string;
}

export interface FindingsTable {
  course_id: string;
  item_id: string;
  verdict: string;
  evidence: string;
  suggestion: Generated<string>;
  provenance: string | null;
  state: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  reviewed_by_name: string | null;
}

export interface AttestationsTable {
  course_id: string;
  rubric_id: string;
  item_id: string;
  status: Generated<string>;
  by: string;
  by_name: string;
  note: string;
  at: string;
}

export interface TemplatesTable {
  id: string;
  name: string;
  description: Generated<string>;
  /** JSON owner object. */
  owner: string;
  /** JSON array. */
  modules: Generated<string>;
  tutor_lesson: Generated<string>;
  tutor_assignment: Generated<string>;
  access_floor: Generated<number>;
  updated_by: Generated<string>;
  updated_at: string;
}

export interface CertificatesTable {
  id: string;
  code: string;
  user_id: string;
  learner_name: string;
  course_id: string;
  course_title: string;
  issued_at: string;
  basis: string;
  replaces: string | null;
  replaced_by: string | null;
  replace_reason: string | null;
}

export interface ReportingLinesTable {
  manager_id: string;
  report_id: string;
  created_by: Generated<string>;
  created_at: string;
}

/** An assignment's number in its course's grade cells; kept up by triggers (migration 3). */
export interface GradeSlotsTable {
  /** Numbered by the database, never reused; fits an Int32 (the cell layout). */
  slot: Generated<number>;
  course_id: string;
  assignment_id: string;
}

/** One student's submissions of record in a course, packed (store/grade-cells.ts). */
export interface GradeCellsTable {
  course_id: string;
  student_id: string;
  data: ColumnType<Buffer, Uint8Array, Uint8Array>;
}

export interface CourseSyncMarksTable {
  course_id: string;
  remote: string;
  remote_revision: number;
  local_revision: number;
  /** JSON: the course file both copies held at the last push or pull. */
  base: string;
  synced_at: string;
}

export interface FixtureMarksTable {
  seed_sha256: string;
  seed_name: string;
}

/** Every table of the store by its name, for `new Kysely<Database>(...)`. */
export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  courses: CoursesTable;
  enrollments: EnrollmentsTable;
  modules: ModulesTable;
  lessons: LessonsTable;
  assignments: AssignmentsTable;
  blocks: BlocksTable;
  submissions: SubmissionsTable;
  gradebook_setups: GradebookSetupsTable;
  final_grades: FinalGradesTable;
  final_grade_history: FinalGradeHistoryTable;
  rubrics: RubricsTable;
  findings: FindingsTable;
  attestations: AttestationsTable;
  templates: TemplatesTable;
  certificates: CertificatesTable;
  reporting_lines: ReportingLinesTable;
  grade_slots: GradeSlotsTable;
  grade_cells: GradeCellsTable;
  course_sync_marks: CourseSyncMarksTable;
  fixture_marks: FixtureMarksTable;
}
