/**
 * What a template PATCH would change, as a readable diff (cli-and-serve.md: bulk updates
 * preview each template's change). Scalars read `field: before -> after`; objects name the
 * leaf that changes; modules, their lessons and their blocks are matched by key and shown
 * `- removed`, `+ added`, `~ changed`, so a patch that drops a module or a lesson says so.
 */

/** A diff line: its depth (for indentation) and its text, starting with -, + or ~ for list items. */
export interface DiffLine {
  depth: number;
  text: string;
}

const json = (v: unknown): string => JSON.stringify(v) ?? 'undefined';
/** A value in a line: JSON, cut at 80 characters; a field the template (or the patch) does not have reads `(none)`. */
const short = (v: unknown): string => {
  if (v === undefined) return '(none)';
  const s = json(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => json(a) === json(b);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

interface Keyed {
  key: string;
  [field: string]: unknown;
}

const asKeyed = (v: unknown): Keyed[] => (Array.isArray(v) ? v.filter((x): x is Keyed => isObject(x) && typeof x.key === 'string') : []);

/** One level of a keyed list (modules, a module's lessons, a lesson's blocks). */
interface Level {
  /** What an item is called: module, lesson, block. */
  noun: string;
  /** The item's name in a line: its title or label. */
  label(item: Keyed): string;
  /** A removed item's size: "(2 lessons, 3 blocks)". */
  size(item: Keyed): string;
  /** Fields compared as scalars (a changed one reads `field: before -> after`). */
  fields: string[];
  /** The nested list and its level, if any. */
  child?: { field: string; level: Level };
}

const BLOCK: Level = {
  noun: 'block',
  label: (b) => (typeof b.label === 'string' && b.label !== '' ? json(b.label) : ''),
  size: (b) => (isObject(b.content) && typeof b.content.type === 'string' ? `(${b.content.type})` : ''),
  fields: ['label', 'content'],
};
const LESSON: Level = {
  noun: 'lesson',
  label: (l) => json(l.title),
  size: (l) => `(${plural(asKeyed(l.blocks).length, 'block')})`,
  fields: ['title', 'minutes'],
  child: { field: 'blocks', level: BLOCK },
};
const MODULE: Level = {
  noun: 'module',
  label: (m) => json(m.title),
  size: (m) => {
    const lessons = asKeyed(m.lessons);
    return `(${plural(lessons.length, 'lesson')}, ${plural(
      lessons.reduce((n, l) => n + asKeyed(l.blocks).length, 0),
      'block',
    )})`;
  },
  fields: ['title', 'objective'],
  child: { field: 'lessons', level: LESSON },
};

const words = (...parts: string[]): string => parts.filter((p) => p !== '').join(' ');

function diffList(before: Keyed[], after: Keyed[], level: Level, depth: number): DiffLine[] {
  const lines: DiffLine[] = [];
  const afterKeys = new Set(after.map((a) => a.key));
  const beforeByKey = new Map(before.map((b) => [b.key, b]));
  for (const b of before) if (!afterKeys.has(b.key)) lines.push({ depth, text: words('-', level.noun, b.key, level.label(b), level.size(b)) });
  for (const a of after) {
    const b = beforeByKey.get(a.key);
    if (!b) {
      lines.push({ depth, text: words('+', level.noun, a.key, level.label(a)) });
      continue;
    }
    const changes = level.fields.filter((f) => !same(b[f], a[f])).map((f) => (f === 'content' ? 'content changed' : `${f} ${short(b[f])} -> ${short(a[f])}`));
    const nested = level.child ? diffList(asKeyed(b[level.child.field]), asKeyed(a[level.child.field]), level.child.level, depth + 1) : [];
    if (changes.length > 0 || nested.length > 0)
      lines.push({ depth, text: `${words('~', level.noun, a.key)}${changes.length ? `: ${changes.join(', ')}` : ''}` }, ...nested);
  }
  const kept = (list: Keyed[]) => list.filter((x) => beforeByKey.has(x.key) && afterKeys.has(x.key)).map((x) => x.key);
  if (!same(kept(before), kept(after))) lines.push({ depth, text: `~ ${level.noun} order: ${kept(before).join(', ')} -> ${kept(after).join(', ')}` });
  return lines;
}

/** Leaf changes of an object field: `tutorDefaults.assignment: "off" -> "on"`. */
function diffObject(path: string, before: unknown, after: unknown): DiffLine[] {
  if (!isObject(before) || !isObject(after)) return [{ depth: 0, text: `${path}: ${short(before)} -> ${short(after)}` }];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((k) => !same(before[k], after[k])).flatMap((k) => diffObject(`${path}.${k}`, before[k], after[k]));
}

/** Every change the patch makes to the template, in the patch's field order. */
export function templateDiff(template: Record<string, unknown>, patch: Record<string, unknown>): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const [field, value] of Object.entries(patch)) {
    const before = template[field];
    if (same(before, value)) continue;
    if (field === 'modules') {
      const nested = diffList(asKeyed(before), asKeyed(value), MODULE, 1);
      if (nested.length > 0) lines.push({ depth: 0, text: 'modules:' }, ...nested);
    } else lines.push(...diffObject(field, before, value));
  }
  return lines;
}

/** The diff as text lines, two spaces per level. */
export const diffText = (lines: DiffLine[]): string[] => lines.map((l) => `${'  '.repeat(l.depth)}${l.text}`);
