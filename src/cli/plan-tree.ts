/**
 * A content plan drawn as a tree (#14, `courses push|pull|diff`): the course, then each
 * module, lesson, assignment and block that changes, under its unchanged ancestors.
 * `+` added, `~` changed (with the fields), `>` moved, `-` removed; coloured on a terminal.
 * Removed items sit where they were; what a removed item held goes with it, counted.
 */
import { Chalk } from 'chalk';
import type { ContentPlanValue } from '../schemas/course-content.js';
import type { CourseFileValue } from '../schemas/course-file.js';

type File = CourseFileValue;
type Module = File['modules'][number];
type Lesson = Module['lessons'][number];
type Assignment = Module['assignments'][number];
type Block = Lesson['blocks'][number];
type Kind = 'modules' | 'lessons' | 'assignments' | 'blocks';
type Mark = '+' | '~' | '>' | '-' | ' ';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function blockLabel(b: Block): string {
  const fields = b as Record<string, unknown>;
  const text =
    typeof fields.text === 'string'
      ? fields.text
      : Array.isArray(fields.items)
        ? String(fields.items[0] ?? '')
        : typeof fields.url === 'string'
          ? fields.url
          : '';
  const short = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  const level = b.type === 'heading' ? ` ${String(fields.level)}` : '';
  return `block ${b.id} ${b.type}${level}${short === '' ? '' : ` ${JSON.stringify(short)}`}`;
}

/** Where each item of a file sits: its parent's label and its position. */
function placesOf(file: File | null): Map<string, { parent: string; position: number }> {
  const places = new Map<string, { parent: string; position: number }>();
  file?.modules.forEach((m, mi) => {
    places.set(`modules:${m.id}`, { parent: 'course', position: mi });
    m.lessons.forEach((l, li) => {
      places.set(`lessons:${l.id}`, { parent: `module ${m.id}`, position: li });
      l.blocks.forEach((b, bi) => places.set(`blocks:${b.id}`, { parent: `lesson ${l.id}`, position: bi }));
    });
    m.assignments.forEach((a, ai) => {
      places.set(`assignments:${a.id}`, { parent: `module ${m.id}`, position: ai });
      a.instructions.forEach((b, bi) => places.set(`blocks:${b.id}`, { parent: `assignment ${a.id}`, position: bi }));
    });
  });
  return places;
}

export function renderPlanTree(plan: ContentPlanValue, current: File | null, desired: File, color: boolean): string {
  const ink = new Chalk({ level: color ? 1 : 0 });
  const paint: Record<Mark, (s: string) => string> = { '+': ink.green, '~': ink.yellow, '>': ink.cyan, '-': ink.red, ' ': (s) => s };
  const sets = (kind: Kind) => ({
    added: new Set(plan[kind].added),
    changed: new Map(plan[kind].changed.map((c) => [c.id, c.fields])),
    moved: new Set(plan[kind].moved),
    removed: new Set(plan[kind].removed),
  });
  const kinds = { modules: sets('modules'), lessons: sets('lessons'), assignments: sets('assignments'), blocks: sets('blocks') };
  const before = placesOf(current);
  const after = placesOf(desired);

  /** A node's own line (mark and text), or null when it does not change. */
  const own = (kind: Kind, id: string | undefined, label: string): { mark: Mark; text: string } | null => {
    const k = kinds[kind];
    const key = id ?? '';
    if (k.added.has(key)) return { mark: '+', text: label };
    const fields = k.changed.get(key);
    const notes: string[] = fields ? [fields.join(', ')] : [];
    if (k.moved.has(key)) {
      const from = before.get(`${kind}:${key}`)!;
      const to = after.get(`${kind}:${key}`)!;
      notes.push(from.parent === to.parent ? `moved: position ${from.position} -> ${to.position}` : `moved from ${from.parent}`);
    }
    if (notes.length === 0) return null;
    return { mark: k.moved.has(key) && !fields ? '>' : '~', text: `${label} (${notes.join('; ')})` };
  };

  interface Node {
    mark: Mark;
    text: string;
    children: Node[];
  }
  /** Keep a node when it changes or holds a change. */
  const node = (line: { mark: Mark; text: string } | null, label: string, children: Node[]): Node | null =>
    line || children.length > 0 ? { mark: line?.mark ?? ' ', text: line?.text ?? label, children } : null;
  const present = <T>(list: (T | null)[]): T[] => list.filter((x): x is T => x !== null);
  const removedNode = (text: string, held: string[]): Node => ({ mark: '-', text: held.length > 0 ? `${text} (with ${held.join(', ')})` : text, children: [] });

  const removedBlocks = (list: Block[]) => present(list.map((b) => (kinds.blocks.removed.has(b.id ?? '') ? removedNode(blockLabel(b), []) : null)));
  const blockNodes = (list: Block[]) => present(list.map((b) => node(own('blocks', b.id, blockLabel(b)), blockLabel(b), [])));
  const currentModule = (id: string | undefined) => current?.modules.find((m) => m.id === id);
  const lessonNode = (l: Lesson, was: Lesson | undefined) => {
    const label = `lesson ${l.id} ${JSON.stringify(l.title)}`;
    return node(own('lessons', l.id, label), label, [...blockNodes(l.blocks), ...(was ? removedBlocks(was.blocks) : [])]);
  };
  const assignmentNode = (a: Assignment, was: Assignment | undefined) => {
    const label = `assignment ${a.id} ${JSON.stringify(a.title)}`;
    return node(own('assignments', a.id, label), label, [...blockNodes(a.instructions), ...(was ? removedBlocks(was.instructions) : [])]);
  };
  const gone = (list: Block[]) => list.filter((b) => kinds.blocks.removed.has(b.id ?? '')).length;
  const removedLesson = (l: Lesson) => removedNode(`lesson ${l.id} ${JSON.stringify(l.title)}`, gone(l.blocks) > 0 ? [plural(gone(l.blocks), 'block')] : []);
  const removedAssignment = (a: Assignment) =>
    removedNode(`assignment ${a.id} ${JSON.stringify(a.title)}`, gone(a.instructions) > 0 ? [plural(gone(a.instructions), 'instruction block')] : []);

  const moduleNodes = present(
    desired.modules.map((m) => {
      const was = currentModule(m.id);
      const label = `module ${m.id} ${JSON.stringify(m.title)}`;
      const lessonWas = (id: string | undefined) => was?.lessons.find((l) => l.id === id);
      const assignmentWas = (id: string | undefined) => was?.assignments.find((a) => a.id === id);
      // A kept item's old self may sit under another module; find it anywhere for its removed children.
      const anyLesson = (id: string | undefined) => lessonWas(id) ?? current?.modules.flatMap((x) => x.lessons).find((l) => l.id === id);
      const anyAssignment = (id: string | undefined) => assignmentWas(id) ?? current?.modules.flatMap((x) => x.assignments).find((a) => a.id === id);
      const children = [
        ...present(m.lessons.map((l) => lessonNode(l, anyLesson(l.id)))),
        ...present((was?.lessons ?? []).map((l) => (kinds.lessons.removed.has(l.id ?? '') ? removedLesson(l) : null))),
        ...present(m.assignments.map((a) => assignmentNode(a, anyAssignment(a.id)))),
        ...present((was?.assignments ?? []).map((a) => (kinds.assignments.removed.has(a.id ?? '') ? removedAssignment(a) : null))),
      ];
      return node(own('modules', m.id, label), label, children);
    }),
  );
  const removedModules = present(
    (current?.modules ?? []).map((m) => {
      if (!kinds.modules.removed.has(m.id ?? '')) return null;
      const goneLessons = m.lessons.filter((l) => kinds.lessons.removed.has(l.id ?? '')).length;
      const goneAssignments = m.assignments.filter((a) => kinds.assignments.removed.has(a.id ?? '')).length;
      const held = [...(goneLessons > 0 ? [plural(goneLessons, 'lesson')] : []), ...(goneAssignments > 0 ? [plural(goneAssignments, 'assignment')] : [])];
      return removedNode(`module ${m.id} ${JSON.stringify(m.title)}`, held);
    }),
  );

  const courseLabel = `course ${desired.course.id ?? ''} ${JSON.stringify(desired.course.title)}`;
  const courseMark: Mark = plan.course.created ? '+' : plan.course.changed.length > 0 ? '~' : ' ';
  const lines: string[] = [];
  const draw = (n: Node, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${paint[n.mark](`${n.mark} ${n.text}`)}`);
    for (const c of n.children) draw(c, depth + 1);
  };
  draw({ mark: courseMark, text: plan.course.changed.length > 0 ? `${courseLabel} (${plan.course.changed.join(', ')})` : courseLabel, children: [] }, 0);
  if (plan.gradebookSetup.changed.length > 0) draw({ mark: '~', text: `gradebook setup (${plan.gradebookSetup.changed.join(', ')})`, children: [] }, 1);
  for (const n of [...moduleNodes, ...removedModules]) draw(n, 1);
  return `${lines.join('\n')}\n`;
}

/** `3 added, 1 changed, 2 moved, 1 removed` (what is zero is left out). */
export function planSummary(plan: ContentPlanValue): string {
  const all = [plan.modules, plan.lessons, plan.assignments, plan.blocks];
  const added = all.reduce((n, k) => n + k.added.length, plan.course.created ? 1 : 0);
  const changed = all.reduce((n, k) => n + k.changed.length, (plan.course.changed.length > 0 ? 1 : 0) + (plan.gradebookSetup.changed.length > 0 ? 1 : 0));
  const moved = all.reduce((n, k) => n + k.moved.length, 0);
  const removed = all.reduce((n, k) => n + k.removed.length, 0);
  const parts = [
    [added, 'added'],
    [changed, 'changed'],
    [moved, 'moved'],
    [removed, 'removed'],
  ].filter(([n]) => (n as number) > 0);
  return parts.length === 0 ? 'no changes' : parts.map(([n, w]) => `${n} ${w}`).join(', ');
}
