/**
 * Optional pages for every list operation (a GET whose response is an array): `?limit=N`
 * answers at most N rows and, when more follow, a `Link: <...>; rel="next"` header whose
 * URL carries an opaque `cursor`. Without `limit` or `cursor` a list answers every row, as
 * it always did. Pages are cut from the list the operation computes, so each page has the
 * same order, visibility and rows as the whole list.
 */
import { z } from '@hono/zod-openapi';
import { AppError } from '../errors.js';

export const MAX_PAGE = 1000;

export const PageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .optional()
    .openapi({ description: `At most this many rows (1 to ${MAX_PAGE}); a Link rel="next" header names the next page. Without it: every row.` }),
  cursor: z.string().min(1).max(400).optional().openapi({ description: 'Where the page starts: the cursor of a Link rel="next" header.' }),
});

export const LINK_HEADER = {
  Link: {
    description: 'RFC 8288 link to the next page (`<url>; rel="next"`), when a limit was given and more rows follow.',
    schema: { type: 'string' as const },
  },
};

interface Cursor {
  /** How many rows earlier pages held. */
  offset: number;
  /** The id of the last row of the previous page, when rows have ids. */
  after: string | null;
}

const encode = (c: Cursor): string => Buffer.from(JSON.stringify([c.offset, c.after])).toString('base64url');

function decode(text: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && parsed[0] >= 0) {
      const after = parsed[1];
      if (after === null || typeof after === 'string') return { offset: parsed[0], after };
    }
  } catch {
    // fall through: not one of ours
  }
  throw new AppError('invalid', 'cursor: is not a cursor this list gave out; start again without it', [
    { path: 'cursor', message: 'is not a cursor this list gave out; start again without it' },
  ]);
}

const idOf = (row: unknown): string | null =>
  row !== null && typeof row === 'object' && typeof (row as { id?: unknown }).id === 'string' ? (row as { id: string }).id : null;

/**
 * One page of `rows`. A cursor resumes after the row it names when that row is still in the
 * list (rows added or removed before it do not shift the page), else at the same offset.
 */
export function pageOf<T>(rows: readonly T[], page: { limit?: number | undefined; cursor?: string | undefined }): { rows: T[]; next: string | null } {
  let start = 0;
  if (page.cursor !== undefined) {
    const cursor = decode(page.cursor);
    const at = cursor.after === null ? -1 : rows.findIndex((r) => idOf(r) === cursor.after);
    start = at >= 0 ? at + 1 : Math.min(cursor.offset, rows.length);
  }
  const end = page.limit === undefined ? rows.length : Math.min(rows.length, start + page.limit);
  const slice = rows.slice(start, end);
  const next = end < rows.length ? encode({ offset: end, after: idOf(rows[end - 1]) }) : null;
  return { rows: slice, next };
}

/** The `Link` header for the next page: the request's own path and query with the new cursor. */
export function nextLink(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl);
  url.searchParams.set('cursor', cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}
