/**
 * Dataset import (fixtures, `coursebook import`, `serve --seed`) and dump. Import checks the
 * whole file first (shape, duplicate ids, references, positions) and lists every problem
 * with its path; only a sound file is written, in one transaction.
 */
import { defaultGradebookSetup } from '../domain/grading/index.js';
import { AppError, type Problem } from '../errors.js';
import { Dataset, type DatasetValue } from '../schemas/dataset.js';
import { formatZodIssues } from '../schemas/problems.js';
import type { Clock } from '../runtime/clock.js';
import type { Store } from '../store/db.js';
import { blockContentOf, existingKeys, lookupColumn, readEverything, siblingPositions, writeRow } from '../store/dataset.js';
import { sha256Hex } from '../store/tokens.js';

export interface ImportOptions {
  replace: boolean;
  /** Who is recorded as `updatedBy` of default gradebook setups. */
  actorId?: string;
}

export type ImportSummary = Record<string, number>;

const j = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

export function parseDataset(input: unknown): DatasetValue {
  const parsed = Dataset.safeParse(input);
  if (!parsed.success) {
    const problems = formatZodIssues(parsed.error.issues);
    throw new AppError('invalid', `The dataset has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported.`, problems);
  }
  return parsed.data;
}

export function importDataset(store: Store, clock: Clock, input: unknown, options: ImportOptions): ImportSummary {
  const d = parseDataset(input);
  const now = clock.now();
  const problems: Problem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });

  // --- ids unique within the file -----------------------------------------------------
  const unique = (collection: string, keys: string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      if (seen.has(k)) problem(`${collection}[${i}]`, `duplicate of ${collection}[${seen.get(k)}] (${k})`);
      else seen.set(k, i);
    });
  };
  unique('users', d.users.map((r) => r.id));
  unique('tokens', d.tokens.flatMap((r) => (r.id ? [r.id] : [])));
  unique('courses', d.courses.map((r) => r.id));
  unique('enrollments', d.enrollments.map((r) => `${r.courseId}/${r.userId}`));
  unique('modules', d.modules.map((r) => r.id));
  unique('lessons', d.lessons.map((r) => r.id));
  unique('blocks', [...d.blocks.map((r) => r.id), ...d.assignments.flatMap((a) => a.instructions.map((b) => b.id))]);
  unique('assignments', d.assignments.map((r) => r.id));
  unique('submissions', d.submissions.map((r) => r.id));
  unique('submissions', d.submissions.map((r) => `attempt ${r.attempt} of ${r.studentId} on ${r.assignmentId}`));
  unique('gradebookSetups', d.gradebookSetups.map((r) => r.courseId));
  unique('finalGrades', d.finalGrades.map((r) => `${r.courseId}/${r.studentId}`));
  unique('rubrics', d.rubrics.map((r) => r.id));
  unique('findings', d.findings.map((r) => `${r.courseId}/${r.itemId}`));
  unique('attestations', d.attestations.map((r) => `${r.courseId}/${r.rubricId}/${r.itemId}`));
  unique('templates', d.templates.map((r) => r.id));
  unique('certificates', d.certificates.map((r) => r.id));
  unique('certificates', d.certificates.map((r) => `code ${r.code}`));
  unique('reportingLines', d.reportingLines.map((r) => `${r.managerId}/${r.reportId}`));

  // --- records that already exist (before references and positions, which they would confuse) ---------------------------------------------------
  if (!options.replace) {
    const conflicts: Problem[] = [];
    const check = (collection: string, table: string, cols: string[], keys: unknown[][]) => {
      const found = existingKeys(store, table, cols, keys);
      keys.forEach((k, i) => {
        if (found.has(JSON.stringify(k))) conflicts.push({ path: `${collection}[${i}]`, message: `${k.join('/')} already exists in the store` });
      });
    };
    check('users', 'users', ['id'], d.users.map((r) => [r.id]));
    check('tokens', 'tokens', ['id'], d.tokens.flatMap((r) => (r.id ? [[r.id]] : [])));
    check('courses', 'courses', ['id'], d.courses.map((r) => [r.id]));
    check('enrollments', 'enrollments', ['course_id', 'user_id'], d.enrollments.map((r) => [r.courseId, r.userId]));
    check('modules', 'modules', ['id'], d.modules.map((r) => [r.id]));
    check('lessons', 'lessons', ['id'], d.lessons.map((r) => [r.id]));
    check('blocks', 'blocks', ['id'], d.blocks.map((r) => [r.id]));
    check('assignments', 'assignments', ['id'], d.assignments.map((r) => [r.id]));
    check('submissions', 'submissions', ['id'], d.submissions.map((r) => [r.id]));
    check('finalGrades', 'final_grades', ['course_id', 'student_id'], d.finalGrades.map((r) => [r.courseId, r.studentId]));
    check('rubrics', 'rubrics', ['id'], d.rubrics.map((r) => [r.id]));
    check('findings', 'findings', ['course_id', 'item_id'], d.findings.map((r) => [r.courseId, r.itemId]));
    check('templates', 'templates', ['id'], d.templates.map((r) => [r.id]));
    check('certificates', 'certificates', ['id'], d.certificates.map((r) => [r.id]));
    check('reportingLines', 'reporting_lines', ['manager_id', 'report_id'], d.reportingLines.map((r) => [r.managerId, r.reportId]));
    if (conflicts.length > 0) {
      throw new AppError('conflict', `${conflicts.length} record${conflicts.length === 1 ? '' : 's'} already exist in the store (import with --replace to overwrite); nothing was imported.`, conflicts);
    }
  }

  // --- references (to the file or to the store) -----------------------------------------
  const inFile = {
    users: new Set(d.users.map((r) => r.id)),
    courses: new Set(d.courses.map((r) => r.id)),
    modules: new Map(d.modules.map((r) => [r.id, r.courseId])),
    lessons: new Set(d.lessons.map((r) => r.id)),
    assignments: new Map<string, string>(),
    certificates: new Set(d.certificates.map((r) => r.id)),
  };
  const exists = (table: 'users' | 'courses' | 'lessons' | 'certificates', id: string) => inFile[table].has(id) || lookupColumn(store, table, 'id', id) !== undefined;
  const moduleCourse = (id: string): string | undefined => inFile.modules.get(id) ?? (lookupColumn(store, 'modules', 'course_id', id) as string | undefined);
  const ref = (ok: boolean, path: string, what: string, id: string) => {
    if (!ok) problem(path, `${what} ${JSON.stringify(id)} does not exist in the file or the store`);
  };

  d.tokens.forEach((r, i) => ref(exists('users', r.userId), `tokens[${i}].userId`, 'user', r.userId));
  d.enrollments.forEach((r, i) => {
    ref(exists('courses', r.courseId), `enrollments[${i}].courseId`, 'course', r.courseId);
    ref(exists('users', r.userId), `enrollments[${i}].userId`, 'user', r.userId);
  });
  d.modules.forEach((r, i) => ref(exists('courses', r.courseId), `modules[${i}].courseId`, 'course', r.courseId));
  const lessonCourse = new Map<string, string>();
  d.lessons.forEach((r, i) => {
    const course = moduleCourse(r.moduleId);
    ref(course !== undefined, `lessons[${i}].moduleId`, 'module', r.moduleId);
    if (course !== undefined && r.courseId !== undefined && r.courseId !== course) problem(`lessons[${i}].courseId`, `must be ${JSON.stringify(course)}, the course of module ${r.moduleId}`);
    if (course !== undefined) lessonCourse.set(r.id, course);
  });
  d.blocks.forEach((r, i) => ref(exists('lessons', r.lessonId), `blocks[${i}].lessonId`, 'lesson', r.lessonId));
  d.assignments.forEach((r, i) => {
    const course = moduleCourse(r.moduleId);
    ref(course !== undefined, `assignments[${i}].moduleId`, 'module', r.moduleId);
    if (course !== undefined && r.courseId !== undefined && r.courseId !== course) problem(`assignments[${i}].courseId`, `must be ${JSON.stringify(course)}, the course of module ${r.moduleId}`);
    if (course !== undefined) inFile.assignments.set(r.id, course);
  });
  d.submissions.forEach((r, i) => {
    const ok = inFile.assignments.has(r.assignmentId) || lookupColumn(store, 'assignments', 'id', r.assignmentId) !== undefined;
    ref(ok, `submissions[${i}].assignmentId`, 'assignment', r.assignmentId);
    ref(exists('users', r.studentId), `submissions[${i}].studentId`, 'user', r.studentId);
  });
  d.gradebookSetups.forEach((s, i) => {
    ref(exists('courses', s.courseId), `gradebookSetups[${i}].courseId`, 'course', s.courseId);
    if (s.rulesVersion !== 1) problem(`gradebookSetups[${i}].rulesVersion`, 'this build knows grading rules edition 1 only');
    const seen = new Set<string>();
    s.categories.forEach((c, k) => {
      if (c.courseId !== s.courseId) problem(`gradebookSetups[${i}].categories[${k}].courseId`, `must equal the setup's courseId ${JSON.stringify(s.courseId)}`);
      if (seen.has(c.id)) problem(`gradebookSetups[${i}].categories[${k}].id`, `duplicate category id ${JSON.stringify(c.id)}`);
      seen.add(c.id);
    });
  });
  d.finalGrades.forEach((r, i) => {
    ref(exists('courses', r.courseId), `finalGrades[${i}].courseId`, 'course', r.courseId);
    ref(exists('users', r.studentId), `finalGrades[${i}].studentId`, 'user', r.studentId);
  });
  d.finalGradeHistory.forEach((r, i) => ref(exists('courses', r.courseId), `finalGradeHistory[${i}].courseId`, 'course', r.courseId));
  d.findings.forEach((r, i) => ref(exists('courses', r.courseId), `findings[${i}].courseId`, 'course', r.courseId));
  d.attestations.forEach((r, i) => ref(exists('courses', r.courseId), `attestations[${i}].courseId`, 'course', r.courseId));
  d.templates.forEach((t, i) => {
    if (t.owner.kind === 'user') ref(exists('users', t.owner.userId), `templates[${i}].owner.userId`, 'user', t.owner.userId);
    const keys = new Set<string>();
    t.modules.forEach((m, k) => {
      if (keys.has(m.key)) problem(`templates[${i}].modules[${k}].key`, `duplicate key ${JSON.stringify(m.key)}`);
      keys.add(m.key);
    });
  });
  d.certificates.forEach((r, i) => {
    ref(exists('users', r.userId), `certificates[${i}].userId`, 'user', r.userId);
    if (r.replaces) ref(exists('certificates', r.replaces), `certificates[${i}].replaces`, 'certificate', r.replaces);
    if (r.replacedBy) ref(exists('certificates', r.replacedBy), `certificates[${i}].replacedBy`, 'certificate', r.replacedBy);
  });
  d.reportingLines.forEach((r, i) => {
    ref(exists('users', r.managerId), `reportingLines[${i}].managerId`, 'user', r.managerId);
    ref(exists('users', r.reportId), `reportingLines[${i}].reportId`, 'user', r.reportId);
    if (r.managerId === r.reportId) problem(`reportingLines[${i}]`, 'a user cannot report to themself');
  });

  // --- positions: given ones kept, missing ones appended, then each parent must be 0..n-1
  const place = <T extends { id: string; position?: number | undefined }>(
    records: T[], collection: string, table: string, parentCol: string, parentOf: (r: T) => string | undefined,
  ): Map<string, number> => {
    const result = new Map<string, number>();
    const groups = new Map<string, number[]>();
    records.forEach((r, i) => {
      const parent = parentOf(r);
      if (parent === undefined) return;
      const list = groups.get(parent) ?? [];
      list.push(i);
      groups.set(parent, list);
    });
    for (const [parent, indexes] of groups) {
      const fileIds = new Set(indexes.map((i) => records[i]!.id));
      const stored = siblingPositions(store, table, parentCol, parent).filter((s) => !fileIds.has(s.id));
      const taken = stored.map((s) => s.position);
      let next = taken.length === 0 ? 0 : Math.max(...taken) + 1;
      for (const i of indexes) {
        const r = records[i]!;
        const pos = r.position ?? next;
        next = Math.max(next, pos + 1);
        taken.push(pos);
        result.set(r.id, pos);
      }
      const sorted = [...taken].sort((a, b) => a - b);
      if (sorted.some((p, k) => p !== k)) {
        problem(`${collection}[${indexes[0]}].position`, `positions under ${parentCol.replace('_id', '')} ${JSON.stringify(parent)} must be 0..${sorted.length - 1} with no gaps or repeats (got ${sorted.join(', ')})`);
      }
    }
    return result;
  };
  const modulePos = place(d.modules, 'modules', 'modules', 'course_id', (r) => r.courseId);
  const lessonPos = place(d.lessons, 'lessons', 'lessons', 'module_id', (r) => r.moduleId);
  const blockPos = place(d.blocks, 'blocks', 'blocks', 'lesson_id', (r) => r.lessonId);
  const assignmentPos = place(d.assignments, 'assignments', 'assignments', 'module_id', (r) => r.moduleId);
  d.assignments.forEach((a, i) => {
    const positions = a.instructions.map((b, k) => b.position ?? k).sort((x, y) => x - y);
    if (positions.some((p, k) => p !== k)) problem(`assignments[${i}].instructions`, `block positions must be 0..${positions.length - 1} with no gaps or repeats`);
  });

  if (problems.length > 0) {
    throw new AppError('invalid', `The dataset has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported.`, problems);
  }

  // --- write, all or nothing ---------------------------------------------------------
  const rep = options.replace;
  store.tx(() => {
    for (const u of d.users) writeRow(store, 'users', { id: u.id, name: u.name, email: u.email, admin: u.admin ? 1 : 0 }, ['id'], rep);
    for (const c of d.courses) {
      writeRow(store, 'courses', {
        id: c.id, title: c.title, description: c.description, status: c.status, published_at: c.publishedAt, objectives: j(c.objectives),
        rubric_id: c.rubricId, template_id: c.templateId, access_floor: c.accessFloor, tutor_lesson: c.tutorDefaults.lesson,
        tutor_assignment: c.tutorDefaults.assignment, created_at: c.createdAt ?? now, updated_at: c.updatedAt ?? c.createdAt ?? now,
      }, ['id'], rep);
    }
    for (const e of d.enrollments) writeRow(store, 'enrollments', { course_id: e.courseId, user_id: e.userId, role: e.role }, ['course_id', 'user_id'], rep);
    for (const m of d.modules) {
      writeRow(store, 'modules', { id: m.id, course_id: m.courseId, title: m.title, objective: m.objective, position: modulePos.get(m.id), status: m.status }, ['id'], rep);
    }
    for (const l of d.lessons) {
      writeRow(store, 'lessons', {
        id: l.id, module_id: l.moduleId, course_id: lessonCourse.get(l.id), title: l.title, minutes: l.minutes, position: lessonPos.get(l.id),
        status: l.status, published_at: l.publishedAt,
      }, ['id'], rep);
    }
    for (const a of d.assignments) {
      writeRow(store, 'assignments', {
        id: a.id, module_id: a.moduleId, course_id: inFile.assignments.get(a.id), title: a.title, position: assignmentPos.get(a.id),
        status: a.status, published_at: a.publishedAt, due_at: a.dueAt, points: a.points, submission_type: a.submissionType,
        category_id: a.categoryId, rubric: j(a.rubric),
      }, ['id'], rep);
      a.instructions.forEach((b, k) => writeBlock(store, b as never, { assignment_id: a.id, lesson_id: null }, b.position ?? k, now, rep));
    }
    for (const b of d.blocks) writeBlock(store, b as never, { lesson_id: b.lessonId, assignment_id: null }, blockPos.get(b.id)!, now, rep);
    for (const s of d.submissions) {
      const state = s.state ?? (s.grade?.score !== null && s.grade?.score !== undefined ? (s.grade.releasedAt ? 'returned' : 'graded') : 'submitted');
      writeRow(store, 'submissions', {
        id: s.id, assignment_id: s.assignmentId, student_id: s.studentId, attempt: s.attempt, state, text: s.text, file_id: s.fileId,
        link: s.link, submitted_at: s.submittedAt, grade: j(s.grade), score: s.grade?.score ?? null, released_at: s.grade?.releasedAt ?? null,
      }, ['id'], rep);
    }
    const withSetup = new Set(d.gradebookSetups.map((s) => s.courseId));
    for (const s of d.gradebookSetups) writeRow(store, 'gradebook_setups', { course_id: s.courseId, setup: j(s), version: s.version }, ['course_id'], true);
    for (const c of d.courses) {
      if (withSetup.has(c.id) || existingKeys(store, 'gradebook_setups', ['course_id'], [[c.id]]).size > 0) continue;
      const setup = defaultGradebookSetup(c.id, c.createdAt ?? now, options.actorId ?? 'import');
      writeRow(store, 'gradebook_setups', { course_id: c.id, setup: j(setup), version: setup.version }, ['course_id'], false);
    }
    for (const f of d.finalGrades) {
      writeRow(store, 'final_grades', {
        course_id: f.courseId, student_id: f.studentId, letter: f.letter, percent: f.percent, reason: f.reason, version: f.version,
        updated_by: f.updatedBy, updated_at: f.updatedAt,
      }, ['course_id', 'student_id'], rep);
    }
    for (const h of d.finalGradeHistory) {
      writeRow(store, 'final_grade_history', {
        course_id: h.courseId, student_id: h.studentId, version: h.version, old_letter: h.oldLetter, old_percent: h.oldPercent,
        new_letter: h.newLetter, new_percent: h.newPercent, reason: h.reason, by: h.by, at: h.at,
      }, ['seq'], false);
    }
    for (const r of d.rubrics) writeRow(store, 'rubrics', { id: r.id, body: j(r) }, ['id'], rep);
    for (const f of d.findings) {
      writeRow(store, 'findings', {
        course_id: f.courseId, item_id: f.itemId, verdict: f.verdict, evidence: f.evidence, suggestion: f.suggestion, provenance: j(f.provenance),
        state: f.state, reviewed_by: f.reviewedBy, reviewed_at: f.reviewedAt, reviewed_by_name: f.reviewedByName,
      }, ['course_id', 'item_id'], rep);
    }
    for (const a of d.attestations) {
      writeRow(store, 'attestations', {
        course_id: a.courseId, rubric_id: a.rubricId, item_id: a.itemId, status: a.status, by: a.by, by_name: a.byName, note: a.note, at: a.at,
      }, ['course_id', 'rubric_id', 'item_id'], true);
    }
    for (const t of d.templates) {
      writeRow(store, 'templates', {
        id: t.id, name: t.name, description: t.description, owner: j(t.owner), modules: j(t.modules), tutor_lesson: t.tutorDefaults.lesson,
        tutor_assignment: t.tutorDefaults.assignment, access_floor: t.accessFloor, updated_by: t.updatedBy, updated_at: t.updatedAt ?? now,
      }, ['id'], rep);
    }
    for (const c of d.certificates) {
      writeRow(store, 'certificates', {
        id: c.id, code: c.code, user_id: c.userId, learner_name: c.learnerName, course_id: c.courseId, course_title: c.courseTitle,
        issued_at: c.issuedAt, basis: c.basis, replaces: c.replaces, replaced_by: c.replacedBy, replace_reason: c.replaceReason,
      }, ['id'], rep);
    }
    for (const r of d.reportingLines) {
      writeRow(store, 'reporting_lines', { manager_id: r.managerId, report_id: r.reportId, created_by: r.createdBy, created_at: r.createdAt ?? now }, ['manager_id', 'report_id'], rep);
    }
    d.tokens.forEach((t, i) => {
      writeRow(store, 'tokens', {
        id: t.id ?? `tok_import_${String(i + 1).padStart(4, '0')}`, user_id: t.userId, token_sha256: t.tokenSha256 ?? sha256Hex(t.token!),
        name: t.name, scopes: j(t.scopes), created_at: t.createdAt ?? now, expires_at: t.expiresAt, revoked_at: t.revokedAt, last_used_at: t.lastUsedAt,
      }, ['id'], rep);
    });
  });

  return {
    users: d.users.length, tokens: d.tokens.length, courses: d.courses.length, enrollments: d.enrollments.length, modules: d.modules.length,
    lessons: d.lessons.length, blocks: d.blocks.length, assignments: d.assignments.length, submissions: d.submissions.length,
    gradebookSetups: d.gradebookSetups.length, finalGrades: d.finalGrades.length, rubrics: d.rubrics.length, findings: d.findings.length,
    attestations: d.attestations.length, templates: d.templates.length, certificates: d.certificates.length, reportingLines: d.reportingLines.length,
  };
}

function writeBlock(store: Store, b: Record<string, unknown> & { id: string }, parent: { lesson_id: string | null; assignment_id: string | null }, position: number, now: string, replace: boolean): void {
  const content = blockContentOf(b);
  const { type, ...fields } = content;
  writeRow(store, 'blocks', {
    id: b.id, ...parent, position, type, content: j(fields), origin: b.origin ?? 'human', ai_state: b.aiState ?? null, provenance: j(b.provenance),
    previous: j(b.previous), updated_at: (b.updatedAt as string | undefined) ?? now,
  }, ['id'], replace);
}

/** The whole store as a dataset document; dump -> import -> dump gives the same bytes. */
export function dumpDataset(store: Store): string {
  return JSON.stringify(readEverything(store), null, 2) + '\n';
}
