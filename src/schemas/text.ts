/**
 * What counts as text in anything a caller sends: well-formed Unicode (no lone UTF-16
 * surrogates) without U+0000. A lone surrogate is not text at all; U+0000 is text, but
 * PostgreSQL cannot store it (SQLSTATE 22021) while SQLite would, so both stores refuse it
 * here, before either sees it, and answer alike (`invalid` naming the field).
 *
 * Documents (JSON bodies: api/json-text.ts; dataset files: store/dataset.ts parseDataset)
 * are walked whole with `textProblems`, so every string is covered, keys included, whatever
 * its schema says. Ids in paths and queries are checked by the `Id` piece (common.ts).
 */
import type { Problem } from '../errors.js';
import { formatPath } from './problems.js';

export const LONE_SURROGATE_MESSAGE = 'contains a lone UTF-16 surrogate, which is not text: send well-formed Unicode';
export const NUL_MESSAGE = 'contains U+0000 (NUL), which text may not hold: remove it';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string holds no U+0000. */
export const withoutNul = (s: string): boolean => !s.includes('\u0000');

/** A string without any of these code units is text (the precise checks run only on one that has some). */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** What is wrong with one string as text, or null. */
export function textProblem(s: string): string | null {
  if (!SUSPECT.test(s)) return null;
  if (LONE_SURROGATE.test(s)) return LONE_SURROGATE_MESSAGE;
  if (!withoutNul(s)) return NUL_MESSAGE;
  return null;
}

type Segment = string | number;
/** A place in the document as a chain to its parent, so walking deep nesting copies nothing. */
type Place = { segment: Segment; parent: Place } | null;

const pathOf = (place: Place): string => {
  const segments: Segment[] = [];
  for (let p = place; p !== null; p = p.parent) segments.push(p.segment);
  return formatPath(segments.reverse());
};

/**
 * A problem for every string (value or key) of a parsed JSON value that `problemOf` finds
 * fault with, named by its field path, in document order. Iterative: nesting depth cannot
 * overflow the stack.
 */
export function stringProblems(root: unknown, problemOf: (s: string) => string | null): Problem[] {
  const found: Problem[] = [];
  const stack: { value: unknown; place: Place; key?: string }[] = [{ value: root, place: null }];
  while (stack.length > 0) {
    const { value, place, key } = stack.pop()!;
    // A key is reported just before its value, so problems come in the order of the document.
    const keyMessage = key === undefined ? null : problemOf(key);
    if (keyMessage !== null) found.push({ path: pathOf(place), message: keyMessage });
    if (typeof value === 'string') {
      const message = problemOf(value);
      if (message !== null) found.push({ path: pathOf(place), message });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], place: { segment: i, parent: place } });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let k = keys.length - 1; k >= 0; k--) {
        const name = keys[k]!;
        stack.push({ value: (value as Record<string, unknown>)[name], place: { segment: name, parent: place }, key: name });
      }
    }
  }
  return found;
}

/**
 * Whether any string (value or key) of a parsed document holds a code unit `textProblem`
 * looks at: a walk that builds no paths, so a clean document (nearly every one) costs a
 * regular-expression test per string and nothing more.
 */
function anySuspectString(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (SUSPECT.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (SUSPECT.test(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Every string of a parsed document that is not text by the rules above. */
export function textProblems(document: unknown): Problem[] {
  return anySuspectString(document) ? stringProblems(document, textProblem) : [];
}

/**
 * Whether the parsed value of this JSON text can hold a string that is not text. Text that
 * came through a strict UTF-8 decoder holds no lone surrogate, and JSON refuses a raw
 * U+0000 in a string (and anywhere else), so such a string can only come from a `\u`
 * escape of U+0000 or of a surrogate. A false alarm (an escaped backslash before "u0000")
 * only costs the walk.
 */
export const jsonTextMayHoldNonText = (json: string): boolean => /\\u(?:0000|[dD][89a-fA-F])/.test(json);
