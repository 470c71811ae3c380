/**
 * The PostgreSQL schema (#18): for each version of migrations.ts, the DDL that gives the same
 * tables, columns, keys, indexes and trigger behaviour on PostgreSQL. The row mapping of
 * tables.ts is shared by both dialects, so every column type is chosen for the JS value the
 * pg driver hands back (docs/postgres-notes.md lists the reasons and the dialect differences):
 * - SQLite TEXT is `text COLLATE "C"`: byte order, as SQLite's BINARY collation, so ORDER BY
 *   and UNIQUE behave the same whatever locale the server or database was created with;
 * - INTEGER is `bigint` (the store parses int8 into a JS number), except `users.admin`, a
 *   0/1 flag that stays an `integer` (never a boolean), and `grade_slots.slot` (see there);
 * - REAL is `double precision`, BLOB is `bytea` (pg gives a Buffer, as better-sqlite3 does),
 *   JSON stays text.
 *
 * Each version mirrors its SQLite counterpart, so a PostgreSQL store at version N has the
 * columns of a SQLite store at version N, in the same order. What SQLite's versions do to
 * rows that predate them (the score backfill of version 2, the slot backfill of version 3,
 * dropping old-layout cells in version 4) is left out: no PostgreSQL store existed before
 * this build, every build that opens one knows all five versions, and so versions 1 to 5
 * always run together on an empty database, with no row to convert.
 *
 * Triggers are plpgsql functions named like the SQLite triggers they stand for. They run in
 * the writing statement's transaction, as SQLite's do. One addition has no SQLite
 * counterpart: the grade-cell triggers refuse to run outside a SERIALIZABLE transaction,
 * because on PostgreSQL that isolation is what keeps a cell from going stale when a
 * rebuild and a submission write overlap (docs/grading.md, "Grade cells on PostgreSQL").
 *
 * Run each text with no parameters (the simple query protocol): a text holds several
 * statements, which a prepared statement cannot.
 */

/** SQLite TEXT: compared and ordered byte by byte (code points), never by the server's locale. */
const TEXT = 'text COLLATE "C"';
/** SQLite INTEGER. */
const INTEGER = 'bigint';
/** SQLite REAL. */
const REAL = 'double precision';
/** SQLite BLOB. */
const BLOB = 'bytea';

const VERSION_1 = `
CREATE TABLE users (
  id ${TEXT} PRIMARY KEY,
  name ${TEXT} NOT NULL,
  email ${TEXT},
  admin integer NOT NULL DEFAULT 0
);
CREATE TABLE tokens (
  id ${TEXT} PRIMARY KEY,
  user_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_sha256 ${TEXT} NOT NULL UNIQUE,
  name ${TEXT} NOT NULL DEFAULT '',
  scopes ${TEXT} NOT NULL,
  created_at ${TEXT} NOT NULL,
  expires_at ${TEXT},
  revoked_at ${TEXT},
  last_used_at ${TEXT}
);
CREATE TABLE courses (
  id ${TEXT} PRIMARY KEY,
  title ${TEXT} NOT NULL,
  description ${TEXT} NOT NULL DEFAULT '',
  status ${TEXT} NOT NULL DEFAULT 'draft',
  published_at ${TEXT},
  objectives ${TEXT} NOT NULL DEFAULT '[]',
  rubric_id ${TEXT} NOT NULL DEFAULT 'course-essentials',
  template_id ${TEXT},
  access_floor ${REAL},
  tutor_lesson ${TEXT} NOT NULL DEFAULT 'off',
  tutor_assignment ${TEXT} NOT NULL DEFAULT 'off',
  created_at ${TEXT} NOT NULL,
  updated_at ${TEXT} NOT NULL
);
CREATE TABLE enrollments (
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  user_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role ${TEXT} NOT NULL,
  PRIMARY KEY (course_id, user_id)
);
CREATE INDEX enrollments_user ON enrollments(user_id);
CREATE TABLE modules (
  id ${TEXT} PRIMARY KEY,
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title ${TEXT} NOT NULL,
  objective ${TEXT} NOT NULL DEFAULT '',
  position ${INTEGER} NOT NULL,
  status ${TEXT} NOT NULL DEFAULT 'draft'
);
CREATE INDEX modules_course ON modules(course_id, position);
CREATE TABLE lessons (
  id ${TEXT} PRIMARY KEY,
  module_id ${TEXT} NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title ${TEXT} NOT NULL,
  minutes ${INTEGER} NOT NULL,
  position ${INTEGER} NOT NULL,
  status ${TEXT} NOT NULL DEFAULT 'draft',
  published_at ${TEXT}
);
CREATE INDEX lessons_module ON lessons(module_id, position);
CREATE TABLE assignments (
  id ${TEXT} PRIMARY KEY,
  module_id ${TEXT} NOT NULL REFERENCES modules(id) ON DELETE CASCADE,
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  title ${TEXT} NOT NULL,
  position ${INTEGER} NOT NULL,
  status ${TEXT} NOT NULL DEFAULT 'draft',
  published_at ${TEXT},
  due_at ${TEXT},
  points ${REAL} NOT NULL,
  submission_type ${TEXT} NOT NULL DEFAULT 'text',
  category_id ${TEXT},
  rubric ${TEXT} NOT NULL DEFAULT '[]'
);
CREATE INDEX assignments_module ON assignments(module_id, position);
CREATE INDEX assignments_course ON assignments(course_id);
CREATE TABLE blocks (
  id ${TEXT} PRIMARY KEY,
  lesson_id ${TEXT} REFERENCES lessons(id) ON DELETE CASCADE,
  assignment_id ${TEXT} REFERENCES assignments(id) ON DELETE CASCADE,
  position ${INTEGER} NOT NULL,
  type ${TEXT} NOT NULL,
  content ${TEXT} NOT NULL,
  origin ${TEXT} NOT NULL DEFAULT 'human',
  ai_state ${TEXT},
  provenance ${TEXT},
  previous ${TEXT},
  updated_at ${TEXT} NOT NULL,
  CHECK ((lesson_id IS NULL) <> (assignment_id IS NULL))
);
CREATE INDEX blocks_lesson ON blocks(lesson_id, position);
CREATE INDEX blocks_assignment ON blocks(assignment_id, position);
CREATE TABLE submissions (
  id ${TEXT} PRIMARY KEY,
  assignment_id ${TEXT} NOT NULL REFERENCES assignments(id) ON DELETE CASCADE,
  student_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  attempt ${INTEGER} NOT NULL,
  state ${TEXT} NOT NULL,
  text ${TEXT},
  file_id ${TEXT},
  link ${TEXT},
  submitted_at ${TEXT} NOT NULL,
  grade ${TEXT},
  UNIQUE (assignment_id, student_id, attempt)
);
CREATE INDEX submissions_student ON submissions(student_id);
CREATE TABLE gradebook_setups (
  course_id ${TEXT} PRIMARY KEY REFERENCES courses(id) ON DELETE CASCADE,
  setup ${TEXT} NOT NULL,
  version ${INTEGER} NOT NULL
);
CREATE TABLE final_grades (
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  student_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  letter ${TEXT},
  percent ${REAL},
  reason ${TEXT} NOT NULL,
  version ${INTEGER} NOT NULL,
  updated_by ${TEXT} NOT NULL,
  updated_at ${TEXT} NOT NULL,
  PRIMARY KEY (course_id, student_id)
);
-- SQLite's AUTOINCREMENT: numbered by the database, never reused. BY DEFAULT (not ALWAYS)
-- because SQLite accepts an explicit value too; unlike SQLite, PostgreSQL does not move
-- the sequence past a value given explicitly.
CREATE TABLE final_grade_history (
  seq ${INTEGER} GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  student_id ${TEXT} NOT NULL,
  version ${INTEGER} NOT NULL,
  old_letter ${TEXT},
  old_percent ${REAL},
  new_letter ${TEXT},
  new_percent ${REAL},
  reason ${TEXT} NOT NULL,
  by ${TEXT} NOT NULL,
  at ${TEXT} NOT NULL
);
CREATE INDEX final_grade_history_student ON final_grade_history(course_id, student_id, version);
CREATE TABLE rubrics (
  id ${TEXT} PRIMARY KEY,
  body ${TEXT} NOT NULL
);
CREATE TABLE findings (
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  item_id ${TEXT} NOT NULL,
  verdict ${TEXT} NOT NULL,
  evidence ${TEXT} NOT NULL,
  suggestion ${TEXT} NOT NULL DEFAULT '',
  provenance ${TEXT},
  state ${TEXT} NOT NULL,
  reviewed_by ${TEXT},
  reviewed_at ${TEXT},
  reviewed_by_name ${TEXT},
  PRIMARY KEY (course_id, item_id)
);
CREATE TABLE attestations (
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  rubric_id ${TEXT} NOT NULL,
  item_id ${TEXT} NOT NULL,
  status ${TEXT} NOT NULL DEFAULT 'attested',
  by ${TEXT} NOT NULL,
  by_name ${TEXT} NOT NULL,
  note ${TEXT} NOT NULL,
  at ${TEXT} NOT NULL,
  PRIMARY KEY (course_id, rubric_id, item_id)
);
CREATE TABLE templates (
  id ${TEXT} PRIMARY KEY,
  name ${TEXT} NOT NULL,
  description ${TEXT} NOT NULL DEFAULT '',
  owner ${TEXT} NOT NULL,
  modules ${TEXT} NOT NULL DEFAULT '[]',
  tutor_lesson ${TEXT} NOT NULL DEFAULT 'off',
  tutor_assignment ${TEXT} NOT NULL DEFAULT 'off',
  access_floor ${REAL} NOT NULL DEFAULT 0,
  updated_by ${TEXT} NOT NULL DEFAULT '',
  updated_at ${TEXT} NOT NULL
);
CREATE TABLE certificates (
  id ${TEXT} PRIMARY KEY,
  code ${TEXT} NOT NULL UNIQUE,
  user_id ${TEXT} NOT NULL REFERENCES users(id),
  learner_name ${TEXT} NOT NULL,
  course_id ${TEXT} NOT NULL,
  course_title ${TEXT} NOT NULL,
  issued_at ${TEXT} NOT NULL,
  basis ${TEXT} NOT NULL,
  replaces ${TEXT},
  replaced_by ${TEXT},
  replace_reason ${TEXT}
);
CREATE INDEX certificates_user ON certificates(user_id);
CREATE TABLE reporting_lines (
  manager_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  report_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by ${TEXT} NOT NULL DEFAULT '',
  created_at ${TEXT} NOT NULL,
  PRIMARY KEY (manager_id, report_id)
);
CREATE INDEX reporting_lines_report ON reporting_lines(report_id);
`;

// SQLite's version 2 also copied score and releasedAt out of existing grades: no row to copy here.
const VERSION_2 = `
ALTER TABLE submissions ADD COLUMN score ${REAL};
ALTER TABLE submissions ADD COLUMN released_at ${TEXT};
CREATE INDEX submissions_grading ON submissions(assignment_id, student_id, attempt, submitted_at, score, released_at);
`;

/** Raise unless the current transaction is SERIALIZABLE (see the file comment and docs/grading.md). */
const REQUIRE_SERIALIZABLE = `
CREATE FUNCTION grade_cells_require_serializable() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_isolation') <> 'serializable' THEN
    RAISE EXCEPTION 'submissions, assignment moves and grade cells are written in SERIALIZABLE transactions only (this one is %)',
      current_setting('transaction_isolation')
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'BEGIN ISOLATION LEVEL SERIALIZABLE, or SET default_transaction_isolation = ''serializable'' for the session: '
                   'otherwise a grade cell rebuilt at the same moment could miss this change.';
  END IF;
END $$;
`;

// SQLite's version 3 also gave every existing assignment its slot: no assignment exists yet here.
const VERSION_3 = `
-- slot is an integer, not a bigint: a cell packs slots as Int32 (store/grade-cells.ts), so
-- the sequence must stop with an error at 2^31 - 1 rather than hand out a slot that wraps.
-- A retired slot is never reused: a sequence never hands a value out twice (values of a
-- rolled-back transaction or of an ignored conflicting insert are skipped, never reissued).
CREATE TABLE grade_slots (
  slot integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  assignment_id ${TEXT} NOT NULL,
  UNIQUE (course_id, assignment_id)
);
CREATE TABLE grade_cells (
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  student_id ${TEXT} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  data ${BLOB} NOT NULL,
  PRIMARY KEY (course_id, student_id)
);
${REQUIRE_SERIALIZABLE}
CREATE FUNCTION grade_slots_assignment_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- SQLite's INSERT OR IGNORE: only the unique (course_id, assignment_id) can fail here.
  INSERT INTO grade_slots (course_id, assignment_id) VALUES (NEW.course_id, NEW.id) ON CONFLICT (course_id, assignment_id) DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER grade_slots_assignment_insert AFTER INSERT ON assignments FOR EACH ROW EXECUTE FUNCTION grade_slots_assignment_insert();

-- Cached entries under a retired slot just stop counting.
CREATE FUNCTION grade_slots_assignment_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM grade_slots WHERE course_id = OLD.course_id AND assignment_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER grade_slots_assignment_delete AFTER DELETE ON assignments FOR EACH ROW EXECUTE FUNCTION grade_slots_assignment_delete();

-- Fires whenever id or course_id is in the SET list, changed or not (as SQLite's UPDATE OF).
CREATE FUNCTION grade_slots_assignment_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM grade_cells_require_serializable();
  DELETE FROM grade_slots WHERE course_id = OLD.course_id AND assignment_id = OLD.id;
  INSERT INTO grade_slots (course_id, assignment_id) VALUES (NEW.course_id, NEW.id) ON CONFLICT (course_id, assignment_id) DO NOTHING;
  DELETE FROM grade_cells WHERE course_id = NEW.course_id AND student_id IN (SELECT student_id FROM submissions WHERE assignment_id = NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER grade_slots_assignment_move AFTER UPDATE OF id, course_id ON assignments FOR EACH ROW EXECUTE FUNCTION grade_slots_assignment_move();

CREATE FUNCTION grade_cells_submission_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM grade_cells_require_serializable();
  DELETE FROM grade_cells WHERE student_id = NEW.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = NEW.assignment_id);
  RETURN NULL;
END $$;
CREATE TRIGGER grade_cells_submission_insert AFTER INSERT ON submissions FOR EACH ROW EXECUTE FUNCTION grade_cells_submission_insert();

CREATE FUNCTION grade_cells_submission_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM grade_cells_require_serializable();
  DELETE FROM grade_cells WHERE student_id = OLD.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = OLD.assignment_id);
  DELETE FROM grade_cells WHERE student_id = NEW.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = NEW.assignment_id);
  RETURN NULL;
END $$;
CREATE TRIGGER grade_cells_submission_update AFTER UPDATE OF assignment_id, student_id, attempt, submitted_at, score, released_at ON submissions
  FOR EACH ROW EXECUTE FUNCTION grade_cells_submission_update();

CREATE FUNCTION grade_cells_submission_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM grade_cells_require_serializable();
  DELETE FROM grade_cells WHERE student_id = OLD.student_id AND course_id = (SELECT course_id FROM assignments WHERE id = OLD.assignment_id);
  RETURN NULL;
END $$;
CREATE TRIGGER grade_cells_submission_delete AFTER DELETE ON submissions FOR EACH ROW EXECUTE FUNCTION grade_cells_submission_delete();

-- No SQLite counterpart (SQLite has one writer at a time): a cell is saved only by a
-- SERIALIZABLE transaction, the one isolation that sees a concurrent submission write.
CREATE FUNCTION grade_cells_serializable_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM grade_cells_require_serializable();
  RETURN NULL;
END $$;
CREATE TRIGGER grade_cells_serializable_write BEFORE INSERT OR UPDATE ON grade_cells FOR EACH STATEMENT EXECUTE FUNCTION grade_cells_serializable_write();
`;

// SQLite's version 4 dropped the cells of the old layout (attempts as Int32): there is none here.
const VERSION_4 = `
-- Nothing to do: no PostgreSQL store ever held a grade cell of the layout before version 4.
SELECT 1;
`;

/**
 * The bodies of the content-revision triggers, by which course ids they bump. A trigger's
 * WHEN clause (row comparison with IS DISTINCT FROM, SQLite's null-safe IS NOT) keeps a
 * write that changes nothing from counting, exactly as SQLite's WHEN clauses do.
 */
const bump = (name: string, where: string) => `
CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE courses SET content_revision = content_revision + 1 WHERE ${where};
  RETURN NULL;
END $$;`;

const VERSION_5 = `
ALTER TABLE courses ADD COLUMN content_revision ${INTEGER} NOT NULL DEFAULT 0;
${bump('content_revision_of_course', 'id = NEW.id')}
${bump('content_revision_of_new_course', 'id = NEW.course_id')}
${bump('content_revision_of_old_course', 'id = OLD.course_id')}
${bump('content_revision_of_both_courses', 'id IN (OLD.course_id, NEW.course_id)')}
-- A block finds its course through its lesson or its assignment; OLD is not set on INSERT, NEW not on DELETE.
CREATE FUNCTION content_revision_of_block() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE courses SET content_revision = content_revision + 1
    WHERE id IN (SELECT course_id FROM lessons WHERE id = NEW.lesson_id UNION SELECT course_id FROM assignments WHERE id = NEW.assignment_id);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE courses SET content_revision = content_revision + 1
    WHERE id IN (SELECT course_id FROM lessons WHERE id = OLD.lesson_id UNION SELECT course_id FROM assignments WHERE id = OLD.assignment_id);
  ELSE
    UPDATE courses SET content_revision = content_revision + 1
    WHERE id IN (SELECT course_id FROM lessons WHERE id IN (OLD.lesson_id, NEW.lesson_id)
                 UNION SELECT course_id FROM assignments WHERE id IN (OLD.assignment_id, NEW.assignment_id));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER content_revision_course AFTER UPDATE OF title, description, status, published_at, objectives, rubric_id, tutor_lesson, tutor_assignment ON courses
FOR EACH ROW WHEN ((OLD.title, OLD.description, OLD.status, OLD.published_at, OLD.objectives, OLD.rubric_id, OLD.tutor_lesson, OLD.tutor_assignment)
  IS DISTINCT FROM (NEW.title, NEW.description, NEW.status, NEW.published_at, NEW.objectives, NEW.rubric_id, NEW.tutor_lesson, NEW.tutor_assignment))
EXECUTE FUNCTION content_revision_of_course();
CREATE TRIGGER content_revision_module_insert AFTER INSERT ON modules FOR EACH ROW EXECUTE FUNCTION content_revision_of_new_course();
CREATE TRIGGER content_revision_module_update AFTER UPDATE ON modules
FOR EACH ROW WHEN ((OLD.course_id, OLD.title, OLD.objective, OLD.position, OLD.status) IS DISTINCT FROM (NEW.course_id, NEW.title, NEW.objective, NEW.position, NEW.status))
EXECUTE FUNCTION content_revision_of_both_courses();
CREATE TRIGGER content_revision_module_delete AFTER DELETE ON modules FOR EACH ROW EXECUTE FUNCTION content_revision_of_old_course();
CREATE TRIGGER content_revision_lesson_insert AFTER INSERT ON lessons FOR EACH ROW EXECUTE FUNCTION content_revision_of_new_course();
CREATE TRIGGER content_revision_lesson_update AFTER UPDATE ON lessons
FOR EACH ROW WHEN ((OLD.module_id, OLD.course_id, OLD.title, OLD.minutes, OLD.position, OLD.status, OLD.published_at)
  IS DISTINCT FROM (NEW.module_id, NEW.course_id, NEW.title, NEW.minutes, NEW.position, NEW.status, NEW.published_at))
EXECUTE FUNCTION content_revision_of_both_courses();
CREATE TRIGGER content_revision_lesson_delete AFTER DELETE ON lessons FOR EACH ROW EXECUTE FUNCTION content_revision_of_old_course();
CREATE TRIGGER content_revision_assignment_insert AFTER INSERT ON assignments FOR EACH ROW EXECUTE FUNCTION content_revision_of_new_course();
CREATE TRIGGER content_revision_assignment_update AFTER UPDATE ON assignments
FOR EACH ROW WHEN ((OLD.module_id, OLD.course_id, OLD.title, OLD.position, OLD.status, OLD.published_at, OLD.due_at, OLD.points, OLD.submission_type, OLD.category_id, OLD.rubric)
  IS DISTINCT FROM (NEW.module_id, NEW.course_id, NEW.title, NEW.position, NEW.status, NEW.published_at, NEW.due_at, NEW.points, NEW.submission_type, NEW.category_id, NEW.rubric))
EXECUTE FUNCTION content_revision_of_both_courses();
CREATE TRIGGER content_revision_assignment_delete AFTER DELETE ON assignments FOR EACH ROW EXECUTE FUNCTION content_revision_of_old_course();
CREATE TRIGGER content_revision_block_insert AFTER INSERT ON blocks FOR EACH ROW EXECUTE FUNCTION content_revision_of_block();
CREATE TRIGGER content_revision_block_update AFTER UPDATE ON blocks
FOR EACH ROW WHEN ((OLD.lesson_id, OLD.assignment_id, OLD.position, OLD.type, OLD.content, OLD.origin, OLD.ai_state, OLD.provenance, OLD.previous)
  IS DISTINCT FROM (NEW.lesson_id, NEW.assignment_id, NEW.position, NEW.type, NEW.content, NEW.origin, NEW.ai_state, NEW.provenance, NEW.previous))
EXECUTE FUNCTION content_revision_of_block();
CREATE TRIGGER content_revision_block_delete AFTER DELETE ON blocks FOR EACH ROW EXECUTE FUNCTION content_revision_of_block();
CREATE TRIGGER content_revision_setup_insert AFTER INSERT ON gradebook_setups FOR EACH ROW EXECUTE FUNCTION content_revision_of_new_course();
CREATE TRIGGER content_revision_setup_update AFTER UPDATE ON gradebook_setups
FOR EACH ROW WHEN (OLD.setup IS DISTINCT FROM NEW.setup)
EXECUTE FUNCTION content_revision_of_new_course();
-- Per course and remote: the revisions both copies had after the last push or pull, and
-- the course file they both held then (what "changed since" is measured from).
CREATE TABLE course_sync_marks (
  course_id ${TEXT} NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  remote ${TEXT} NOT NULL,
  remote_revision ${INTEGER} NOT NULL,
  local_revision ${INTEGER} NOT NULL,
  base ${TEXT} NOT NULL,
  synced_at ${TEXT} NOT NULL,
  PRIMARY KEY (course_id, remote)
);
`;

/** Version 6: the scheme's letters beside the setup (migrations.ts says why), in the bands' order. */
const VERSION_6 = `
ALTER TABLE gradebook_setups ADD COLUMN letters ${TEXT};
UPDATE gradebook_setups SET letters = COALESCE(
  (SELECT json_agg(b.band ->> 'letter' ORDER BY b.n)::text
     FROM jsonb_array_elements(setup::jsonb -> 'scheme' -> 'bands') WITH ORDINALITY AS b(band, n)),
  '[]');
`;

/** Version 7: the mark of a store a fixture made from its seed (migrations.ts says why). */
const VERSION_7 = `
CREATE TABLE fixture_marks (
  seed_sha256 ${TEXT} PRIMARY KEY,
  seed_name ${TEXT} NOT NULL
);
`;

/** Version -> the SQL that brings a PostgreSQL store from the version before to it (same numbers as MIGRATIONS). */
export const POSTGRES_MIGRATIONS: Readonly<Record<number, string>> = Object.freeze({
  1: VERSION_1,
  2: VERSION_2,
  3: VERSION_3,
  4: VERSION_4,
  5: VERSION_5,
  6: VERSION_6,
  7: VERSION_7,
});
