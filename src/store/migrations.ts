import { POSTGRES_MIGRATIONS } from './migrations-postgres.js';

/**
 * Numbered migrations. PRAGMA user_version records the last one applied; a store whose
 * version is newer than this build knows is refused with a clear message instead of being
 * read with the wrong schema.
 */
/**
 * Each migration carries its SQLite text and its PostgreSQL text (migrations-postgres.ts), so
 * both dialects apply the same numbered list.
 */
const SQLITE_MIGRATIONS: { version: number; name: string; sqlite: string }[] = [
  {
    version: 1,
    name: 'initial schema',
    sqlite: `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  admin INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_sha256 TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  last_used_at TEXT
);
CREATE TABLE courses (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'draft',
  published_at TEXT,
  objectives TEXT NOT NULL DEFAULT '[]',
  rubric_id TEXT NOT NULL DEFAULT 'course-essentials',
  template_id TEXT,
  access_floor REAL,
  tutor_lesson TEXT NOT NULL DEFAULT 'off',
  tutor_assignment TEXT NOT NULL DEFAULT 'off',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE enrollments (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  PRIMARY KEY (course_id, user_id)
);
CREATE INDEX enrollments_user ON enrollments(user_id);
CREATE TABLE modules (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  objective TEXT NOT NULL DEFAULT '',
  position INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'draft'
);
CREATE INDEX modules_course ON modules(course_id, position);
CREATE TABLE lessons (
  id TEXT PRIMARY KEY,
  module_id TEXT NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  minutes INTEGER NOT NULL,
  position INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'draft',
  published_at TEXT
);
CREATE INDEX lessons_module ON lessons(module_id, position);
CREATE TABLE assignments (
  id TEXT PRIMARY KEY,
  module_id TEXT NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  position INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'draft',
  published_at TEXT,
  due_at TEXT,
  points REAL NOT NULL,
  submission_type TEXT NOT NULL DEFAULT 'text',
  category_id TEXT,
  rubric TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX assignments_module ON assignments(module_id, position);
CREATE INDEX assignments_course ON assignments(course_id);
CREATE TABLE blocks (
  id TEXT PRIMARY KEY,
  lesson_id TEXT REFERENCES lessons(id) ON DELETE CASCADE,
  assignment_id TEXT REFERENCES assignments(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  type TEXT NOT NULL,
  content TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'human',
  ai_state TEXT,
  provenance TEXT,
  previous TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((lesson_id IS NULL) <> (assignment_id IS NULL))
);
CREATE INDEX blocks_lesson ON blocks(lesson_id, position);
CREATE INDEX blocks_assignment ON blocks(assignment_id, position);
CREATE TABLE submissions (
  id TEXT PRIMARY KEY,
  assignment_id TEXT NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
  student_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  state TEXT NOT NULL,
  text TEXT,
  file_id TEXT,
  link TEXT,
  submitted_at TEXT NOT NULL,
  grade TEXT,
  UNIQUE (assignment_id, student_id, attempt)
);
CREATE INDEX submissions_student ON submissions(student_id);
CREATE TABLE gradebook_setups (
  course_id TEXT PRIMARY KEY REFERENCES courses(id) ON DELETE CASCADE,
  setup TEXT NOT NULL,
  version INTEGER NOT NULL
);
CREATE TABLE final_grades (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  student_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  letter TEXT,
  percent REAL,
  reason TEXT NOT NULL,
  version INTEGER NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (course_id, student_id)
);
CREATE TABLE final_grade_history (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  student_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  old_letter TEXT,
  old_percent REAL,
  new_letter TEXT,
  new_percent REAL,
  reason TEXT NOT NULL,
  by TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX final_grade_history_student ON final_grade_history(course_id, student_id, version);
CREATE TABLE rubrics (
  id TEXT PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE TABLE findings (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  item_id TEXT NOT NULL,
  verdict TEXT NOT NULL,
  evidence TEXT NOT NULL,
  suggestion TEXT NOT NULL DEFAULT '',
  provenance TEXT,
  state TEXT NOT NULL,
  reviewed_by TEXT,
  reviewed_at TEXT,
  reviewed_by_name TEXT,
  PRIMARY KEY (course_id, item_id)
);
CREATE TABLE attestations (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  rubric_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'attested',
  by TEXT NOT NULL,
  by_name TEXT NOT NULL,
  note TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (course_id, rubric_id, item_id)
);
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  owner TEXT NOT NULL,
  modules TEXT NOT NULL DEFAULT '[]',
  tutor_lesson TEXT NOT NULL DEFAULT 'off',
  tutor_assignment TEXT NOT NULL DEFAULT 'off',
  access_floor REAL NOT NULL DEFAULT 0,
  updated_by TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL
);
CREATE TABLE certificates (
  id TEXT PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  learner_name TEXT NOT NULL,
  course_id TEXT NOT NULL,
  course_title TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  basis TEXT NOT NULL,
  replaces TEXT,
  replaced_by TEXT,
  replace_reason TEXT
);
CREATE INDEX certificates_user ON certificates(user_id);
CREATE TABLE reporting_lines (
  manager_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  report_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  PRIMARY KEY (manager_id, report_id)
);
CREATE INDEX reporting_lines_report ON reporting_lines(report_id);
`,
  },
  {
    version: 2,
    name: 'submission score and release columns',
    // The grading engine reads millions of submissions; json_extract on each row cost
    // more than all the grading. The grade JSON stays the record; these mirror it.
    sqlite: `
ALTER TABLE submissions ADD COLUMN score REAL;
ALTER TABLE submissions ADD COLUMN released_at TEXT;
UPDATE submissions SET score = json_extract(grade, '$.score'), released_at = json_extract(grade, '$.releasedAt') WHERE grade IS NOT NULL;
CREATE INDEX submissions_grading ON submissions(assignment_id, student_id, attempt, submitted_at, score, released_at);
`,
  },
  {
    version: 3,
    name: 'grade cells: submissions of record cached per course and student',
    // Reading two million submission rows one by one costs seconds in any SQLite binding;
    // one packed row per (course, student) costs milliseconds. Triggers drop a cached row
    // whenever something it was built from changes, so no write path can leave it stale;
    // the read path rebuilds what is missing (store/grade-cells.ts).
    sqlite: `
CREATE TABLE grade_slots (
  slot INTEGER PRIMARY KEY AUTOINCREMENT,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  assignment_id TEXT NOT NULL,
  UNIQUE (course_id, assignment_id)
);
INSERT INTO grade_slots (course_id, assignment_id) SELECT course_id, id FROM assignments ORDER BY course_id, id;
CREATE TABLE grade_cells (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  student_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  data BLOB NOT NULL,
  PRIMARY KEY (course_id, student_id)
);
CREATE TRIGGER grade_slots_assignment_insert AFTER INSERT ON assignments BEGIN
  INSERT OR IGNORE INTO grade_slots (course_id, assignment_id) VALUES (NEW.course_id, NEW.id);
END;
-- A retired slot is never reused (AUTOINCREMENT), so cached entries under it just stop counting.
CREATE TRIGGER grade_slots_assignment_delete AFTER DELETE ON assignments BEGIN
  DELETE FROM grade_slots WHERE course_id = OLD.course_id AND assignment_id = OLD.id;
END;
CREATE TRIGGER grade_slots_assignment_move AFTER UPDATE OF id, course_id ON assignments BEGIN
  DELETE FROM grade_slots WHERE course_id = OLD.course_id AND assignment_id = OLD.id;
  INSERT OR IGNORE INTO grade_slots (course_id, assignment_id) VALUES (NEW.course_id, NEW.id);
  DELETE FROM grade_cells WHERE course_id = NEW.course_id AND student_id IN (SELECT student_id FROM submissions WHERE assignment_id = NEW.id);
END;
CREATE TRIGGER grade_cells_submission_insert AFTER INSERT ON submissions BEGIN
  DELETE FROM grade_cells WHERE student_id = NEW.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = NEW.assignment_id);
END;
CREATE TRIGGER grade_cells_submission_update AFTER UPDATE OF assignment_id, student_id, attempt, submitted_at, score, released_at ON submissions BEGIN
  DELETE FROM grade_cells WHERE student_id = OLD.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = OLD.assignment_id);
  DELETE FROM grade_cells WHERE student_id = NEW.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = NEW.assignment_id);
END;
CREATE TRIGGER grade_cells_submission_delete AFTER DELETE ON submissions BEGIN
  DELETE FROM grade_cells WHERE student_id = OLD.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = OLD.assignment_id);
END;
`,
  },
  {
    version: 4,
    name: 'grade cells hold attempts as doubles',
    // Cells are a cache that rebuilds on read: dropping the old layout's rows is the whole upgrade.
    sqlite: `DELETE FROM grade_cells;`,
  },
  // #14 offline authoring round trip: the content revision and the sync marks.
  {
    version: 5,
    name: 'course content revision and sync marks',
    // Triggers, not the store functions, bump the revision: every path that writes course
    // content (routes, imports, templates, the content write, and whatever comes later)
    // bumps it without having to remember to, as the grade-cell triggers do. A write that
    // changes nothing in a row does not bump it (the WHEN clauses compare old and new).
    sqlite: `
ALTER TABLE courses ADD COLUMN content_revision INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER content_revision_course AFTER UPDATE OF title, description, status, published_at, objectives, rubric_id, tutor_lesson, tutor_assignment ON courses
WHEN (OLD.title, OLD.description, OLD.status, OLD.published_at, OLD.objectives, OLD.rubric_id, OLD.tutor_lesson, OLD.tutor_assignment)
  IS NOT (NEW.title, NEW.description, NEW.status, NEW.published_at, NEW.objectives, NEW.rubric_id, NEW.tutor_lesson, NEW.tutor_assignment)
BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = NEW.id;
END;
CREATE TRIGGER content_revision_module_insert AFTER INSERT ON modules BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = NEW.course_id;
END;
CREATE TRIGGER content_revision_module_update AFTER UPDATE ON modules
WHEN (OLD.course_id, OLD.title, OLD.objective, OLD.position, OLD.status) IS NOT (NEW.course_id, NEW.title, NEW.objective, NEW.position, NEW.status)
BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id IN (OLD.course_id, NEW.course_id);
END;
CREATE TRIGGER content_revision_module_delete AFTER DELETE ON modules BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = OLD.course_id;
END;
CREATE TRIGGER content_revision_lesson_insert AFTER INSERT ON lessons BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = NEW.course_id;
END;
CREATE TRIGGER content_revision_lesson_update AFTER UPDATE ON lessons
WHEN (OLD.module_id, OLD.course_id, OLD.title, OLD.minutes, OLD.position, OLD.status, OLD.published_at)
  IS NOT (NEW.module_id, NEW.course_id, NEW.title, NEW.minutes, NEW.position, NEW.status, NEW.published_at)
BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id IN (OLD.course_id, NEW.course_id);
END;
CREATE TRIGGER content_revision_lesson_delete AFTER DELETE ON lessons BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = OLD.course_id;
END;
CREATE TRIGGER content_revision_assignment_insert AFTER INSERT ON assignments BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = NEW.course_id;
END;
CREATE TRIGGER content_revision_assignment_update AFTER UPDATE ON assignments
WHEN (OLD.module_id, OLD.course_id, OLD.title, OLD.position, OLD.status, OLD.published_at, OLD.due_at, OLD.points, OLD.submission_type, OLD.category_id, OLD.rubric)
  IS NOT (NEW.module_id, NEW.course_id, NEW.title, NEW.position, NEW.status, NEW.published_at, NEW.due_at, NEW.points, NEW.submission_type, NEW.category_id, NEW.rubric)
BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id IN (OLD.course_id, NEW.course_id);
END;
CREATE TRIGGER content_revision_assignment_delete AFTER DELETE ON assignments BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = OLD.course_id;
END;
CREATE TRIGGER content_revision_block_insert AFTER INSERT ON blocks BEGIN
  UPDATE courses SET content_revision = content_revision + 1
  WHERE id IN (SELECT course_id FROM lessons WHERE id = NEW.lesson_id UNION SELECT course_id FROM assignments WHERE id = NEW.assignment_id);
END;
CREATE TRIGGER content_revision_block_update AFTER UPDATE ON blocks
WHEN (OLD.lesson_id, OLD.assignment_id, OLD.position, OLD.type, OLD.content, OLD.origin, OLD.ai_state, OLD.provenance, OLD.previous)
  IS NOT (NEW.lesson_id, NEW.assignment_id, NEW.position, NEW.type, NEW.content, NEW.origin, NEW.ai_state, NEW.provenance, NEW.previous)
BEGIN
  UPDATE courses SET content_revision = content_revision + 1
  WHERE id IN (SELECT course_id FROM lessons WHERE id IN (OLD.lesson_id, NEW.lesson_id)
               UNION SELECT course_id FROM assignments WHERE id IN (OLD.assignment_id, NEW.assignment_id));
END;
CREATE TRIGGER content_revision_block_delete AFTER DELETE ON blocks BEGIN
  UPDATE courses SET content_revision = content_revision + 1
  WHERE id IN (SELECT course_id FROM lessons WHERE id = OLD.lesson_id UNION SELECT course_id FROM assignments WHERE id = OLD.assignment_id);
END;
CREATE TRIGGER content_revision_setup_insert AFTER INSERT ON gradebook_setups BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = NEW.course_id;
END;
CREATE TRIGGER content_revision_setup_update AFTER UPDATE ON gradebook_setups WHEN OLD.setup IS NOT NEW.setup BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE id = NEW.course_id;
END;
-- Per course and remote: the revisions both copies had after the last push or pull, and
-- the course file they both held then (what "changed since" is measured from).
CREATE TABLE course_sync_marks (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  remote TEXT NOT NULL,
  remote_revision INTEGER NOT NULL,
  local_revision INTEGER NOT NULL,
  base TEXT NOT NULL,
  synced_at TEXT NOT NULL,
  PRIMARY KEY (course_id, remote)
);
`,
  },
  // #19: a final-grade write checks its letter against the scheme's letters alone.
  {
    version: 6,
    name: "the scheme's letters beside the gradebook setup",
    // The letters, in the scheme's order, as a JSON array: written with every setup by the
    // table's one description (tables.ts GRADEBOOK_SETUPS), taken here from the setups
    // already stored. A final-grade PUT read them out of the whole setup document before
    // (json_extract over about 1.2 KB, then a parse of the bands in JavaScript).
    sqlite: `
ALTER TABLE gradebook_setups ADD COLUMN letters TEXT;
UPDATE gradebook_setups SET letters = (SELECT json_group_array(json_extract(b.value, '$.letter')) FROM json_each(setup, '$.scheme.bands') b);
`,
  },
  // Fifteenth session: a fixture store restarted after a crash may be reset again.
  {
    version: 7,
    name: 'the mark of a store a fixture made from its seed',
    // One row at most, written only by serve when it loads its --seed into an empty store
    // with the reset enabled (serve/service.ts): which seed, by its SHA-256, so a restart with
    // the same seed knows the store as the fixture's own. Not a record: no dump, import or
    // emptiness check sees it; a wipe removes it (a reset writes it again).
    sqlite: `
CREATE TABLE fixture_marks (
  seed_sha256 TEXT PRIMARY KEY,
  seed_name TEXT NOT NULL
);
`,
  },
];

export const MIGRATIONS: readonly { version: number; name: string; sqlite: string; postgres: string }[] = SQLITE_MIGRATIONS.map((m) => {
  const postgres = POSTGRES_MIGRATIONS[m.version];
  if (postgres === undefined) throw new Error(`migration ${m.version} has no PostgreSQL text`);
  return { ...m, postgres };
});

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
