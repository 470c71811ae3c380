/**
 * The plan that makes one course file equal to another, by id (docs/authoring.md): for
 * modules, lessons, assignments and blocks (lesson blocks and assignment instructions),
 * the ids added, changed (with the changed field names), moved and removed; the course's
 * changed fields; the gradebook setup's changed parts. Pure: `PUT .../content` applies
 * it (or answers it for a dry run) and the CLI draws it as a tree.
 */
import type { Problem } from '../../errors.js';
import type { ContentPlanValue } from '../../schemas/course-content.js';
import type { CourseFileValue } from '../../schemas/course-file.js';

type File = CourseFileValue;
type KindPlan = ContentPlanValue['modules'];
export type ContentKind = 'modules' | 'lessons' | 'assignments' | 'blocks';

/** The fields compared for each kind; positions and parents are what "moved" is about. */
export const COURSE_FIELDS = ['title', 'description', 'objectives', 'rubricId', 'tutorDefaults', 'status', 'publishedAt'] as const;
const MODULE_FIELDS = ['title', 'objective', 'status'] as const;
const LESSON_FIELDS = ['title', 'minutes', 'status', 'publishedAt'] as const;
const ASSIGNMENT_FIELDS = ['title', 'points', 'dueAt', 'submissionType', 'categoryId', 'status', 'publishedAt', 'rubric'] as const;
/** A setup's own bookkeeping, never compared: every store counts its own versions. */
const SETUP_BOOKKEEPING = new Set(['courseId', 'version', 'updatedBy', 'updatedAt']);

/** JSON with sorted keys, undefined read as null: two values are the same when this is. */
export function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A block as compared: its content and its review state, the plain human defaults filled in. */
export function comparableBlock(block: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = block;
  return { ...rest, origin: rest.origin ?? 'human', aiState: rest.aiState ?? null, provenance: rest.provenance ?? null, previous: rest.previous ?? null };
}

/** One item where a file puts it: its parent (`course`, a module, `lesson:<id>`, `assignment:<id>`) and index. */
export interface Placed {
  id: string;
  parent: string;
  index: number;
  fields: Record<string, unknown>;
}

const pick = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** Every item of a file in reading order (module, its lessons and their blocks, its assignments and their instructions). */
export function placeAll(file: File | null): Record<ContentKind, Placed[]> {
  const out: Record<ContentKind, Placed[]> = { modules: [], lessons: [], assignments: [], blocks: [] };
  if (!file) return out;
  file.modules.forEach((m, mi) => {
    const moduleId = m.id ?? '';
    out.modules.push({ id: moduleId, parent: 'course', index: mi, fields: pick(m, MODULE_FIELDS) });
    m.lessons.forEach((l, li) => {
      const lessonId = l.id ?? '';
      out.lessons.push({ id: lessonId, parent: moduleId, index: li, fields: pick(l, LESSON_FIELDS) });
      l.blocks.forEach((b, bi) => out.blocks.push({ id: b.id ?? '', parent: `lesson:${lessonId}`, index: bi, fields: comparableBlock(b) }));
    });
    m.assignments.forEach((a, ai) => {
      const assignmentId = a.id ?? '';
      out.assignments.push({ id: assignmentId, parent: moduleId, index: ai, fields: pick(a, ASSIGNMENT_FIELDS) });
      a.instructions.forEach((b, bi) => out.blocks.push({ id: b.id ?? '', parent: `assignment:${assignmentId}`, index: bi, fields: comparableBlock(b) }));
    });
  });
  return out;
}

/** Names of the fields whose values differ. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !skip.has(k));
  return keys.filter((k) => canonical(before[k]) !== canonical(after[k]));
}

/** Indexes (into `seq`) of one longest strictly increasing subsequence. */
function longestIncreasing(seq: number[]): Set<number> {
  const tails: number[] = []; // tails[k]: index in seq of the smallest tail of a run of length k+1
  const prev: number[] = new Array(seq.length).fill(-1);
  seq.forEach((v, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const keep = new Set<number>();
  for (let i = tails.length === 0 ? -1 : tails[tails.length - 1]!; i !== -1; i = prev[i]!) keep.add(i);
  return keep;
}

/**
 * Items that moved: to another parent, or out of order among the siblings that stay with
 * them. The fewest moves that explain the new order are reported (everything off one longest
 * run kept in order), so deleting one item never makes its later siblings "moved".
 */
function movedIds(current: Placed[], desired: Placed[]): Set<string> {
  const before = new Map(current.map((p) => [p.id, p]));
  const moved = new Set<string>();
  const stayers = new Map<string, string[]>();
  for (const d of desired) {
    const c = before.get(d.id);
    if (!c) continue;
    if (c.parent !== d.parent) moved.add(d.id);
    else stayers.set(d.parent, [...(stayers.get(d.parent) ?? []), d.id]);
  }
  for (const ids of stayers.values()) {
    const seq = ids.map((id) => before.get(id)!.index);
    const keep = longestIncreasing(seq);
    ids.forEach((id, i) => {
      if (!keep.has(i)) moved.add(id);
    });
  }
  return moved;
}

function planKind(current: Placed[], desired: Placed[]): KindPlan {
  const before = new Map(current.map((p) => [p.id, p]));
  const wanted = new Set(desired.map((p) => p.id));
  const moved = movedIds(current, desired);
  const plan: KindPlan = { added: [], changed: [], moved: [], removed: [] };
  for (const d of desired) {
    const c = before.get(d.id);
    if (!c) {
      plan.added.push(d.id);
      continue;
    }
    const fields = changedFields(c.fields, d.fields);
    if (fields.length > 0) plan.changed.push({ id: d.id, fields });
    if (moved.has(d.id)) plan.moved.push(d.id);
  }
  for (const c of current) if (!wanted.has(c.id)) plan.removed.push(c.id);
  return plan;
}

/**
 * The plan that turns `current` (null: the course does not exist) into `desired`. A
 * desired file without a gradebook setup leaves the setup as it is.
 */
export function planContent(current: File | null, desired: File): ContentPlanValue {
  const before = placeAll(current);
  const after = placeAll(desired);
  const setupChanged =
    current?.gradebookSetup && desired.gradebookSetup ? changedFields(current.gradebookSetup, desired.gradebookSetup, SETUP_BOOKKEEPING) : [];
  return {
    course: { created: current === null, changed: current ? changedFields(pick(current.course, COURSE_FIELDS), pick(desired.course, COURSE_FIELDS)) : [] },
    modules: planKind(before.modules, after.modules),
    lessons: planKind(before.lessons, after.lessons),
    assignments: planKind(before.assignments, after.assignments),
    blocks: planKind(before.blocks, after.blocks),
    gradebookSetup: { changed: setupChanged },
  };
}

/** How many things a plan changes: the course and the setup count once each, as does every item however it changes. */
export function planSize(plan: ContentPlanValue): number {
  const kinds = [plan.modules, plan.lessons, plan.assignments, plan.blocks];
  const items = kinds.reduce((n, k) => n + new Set([...k.added, ...k.changed.map((c) => c.id), ...k.moved, ...k.removed]).size, 0);
  const course = plan.course.created || plan.course.changed.length > 0 ? 1 : 0;
  return course + (plan.gradebookSetup.changed.length > 0 ? 1 : 0) + items;
}

/**
 * What a file must be to be written by id: every module, lesson, assignment and block has
 * an id, no id twice within its kind (lesson blocks and instructions share one), and the
 * course's id (when given) is the one being written.
 */
export function contentFileProblems(file: File, courseId: string): Problem[] {
  const problems: Problem[] = [];
  if (file.course.id !== undefined && file.course.id !== courseId)
    problems.push({ path: 'course.id', message: `must be ${JSON.stringify(courseId)}, the course being written (or left out)` });
  const seen: Record<ContentKind, Map<string, string>> = { modules: new Map(), lessons: new Map(), assignments: new Map(), blocks: new Map() };
  const check = (kind: ContentKind, id: string | undefined, path: string) => {
    if (id === undefined) {
      problems.push({ path: `${path}.id`, message: 'is required: content is written by id (GET .../content or courses export gives every id)' });
      return;
    }
    const first = seen[kind].get(id);
    if (first !== undefined) problems.push({ path: `${path}.id`, message: `${JSON.stringify(id)} is also ${first}.id` });
    else seen[kind].set(id, path);
  };
  file.modules.forEach((m, mi) => {
    const mp = `modules[${mi}]`;
    check('modules', m.id, mp);
    m.lessons.forEach((l, li) => {
      check('lessons', l.id, `${mp}.lessons[${li}]`);
      l.blocks.forEach((b, bi) => check('blocks', b.id, `${mp}.lessons[${li}].blocks[${bi}]`));
    });
    m.assignments.forEach((a, ai) => {
      check('assignments', a.id, `${mp}.assignments[${ai}]`);
      a.instructions.forEach((b, bi) => check('blocks', b.id, `${mp}.assignments[${ai}].instructions[${bi}]`));
    });
  });
  return problems;
}
