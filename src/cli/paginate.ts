/**
 * Following `Link: <...>; rel="next"` (cli-and-serve.md's lists, the API's optional pages):
 * every command's GET that answers an array gets all its pages, so a service that pages by
 * itself still gives whole lists; `--limit N` on list commands asks for N rows at most.
 */
import { type ApiClient, type ApiResponse, UsageError } from './command.js';

/** `path` with one query parameter set (kept in place when the path already has it). */
export function withQueryParam(path: string, name: string, value: string): string {
  const [base, query = ''] = path.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set(name, value);
  return `${base}?${params.toString()}`;
}

/** --limit's value: a whole number of rows, at least 1. */
export function parseLimit(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--limit must be a whole number of rows, 1 or more (got ${JSON.stringify(value)})`);
  return n;
}

/**
 * GET `path` and every page after it, or only as many as make `limit` rows. One page
 * answers its own bytes; several answer one JSON array of their rows (what the API would
 * have sent without paging: JSON.stringify of the list).
 */
export async function getAllPages(client: ApiClient, path: string, limit?: number): Promise<ApiResponse> {
  // The API's page limit comes with its page schema (zod): loaded only when a limit is asked for.
  const pageLimit = limit === undefined ? undefined : Math.min(limit, (await import('../api/pagination.js')).MAX_PAGE);
  const first = await client.request('GET', pageLimit === undefined ? path : withQueryParam(path, 'limit', String(pageLimit)));
  const firstRows = pageRows(first.data);
  if (firstRows === null) return first;
  const rows: unknown[] = [...firstRows];
  let next = first.next;
  while (next !== undefined && (limit === undefined || rows.length < limit)) {
    const page = await client.request('GET', next);
    const more = pageRows(page.data);
    if (more === null) break;
    rows.push(...more);
    next = page.next;
  }
  const cut = limit !== undefined && rows.length > limit;
  if (rows.length === firstRows.length && !cut) return first;
  const kept = cut ? rows.slice(0, limit) : rows;
  // A paged object (the grades view) keeps its fields, with every page's students.
  const data = Array.isArray(first.data) ? kept : { ...(first.data as Record<string, unknown>), students: kept };
  const { next: _dropped, ...rest } = first;
  return { ...rest, data, text: JSON.stringify(data) };
}

/** A page's rows: a list's items, or the students of a paged view (the grades view); null for anything else. */
function pageRows(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (data !== null && typeof data === 'object' && Array.isArray((data as { students?: unknown }).students)) return (data as { students: unknown[] }).students;
  return null;
}

/** A client whose GETs follow next links (and ask for at most `limit` rows, when given). */
export function pagingClient(inner: ApiClient, limit?: number): ApiClient {
  return {
    mode: inner.mode,
    request: <T>(method: string, path: string, body?: unknown) =>
      (method.toUpperCase() === 'GET' && body === undefined ? getAllPages(inner, path, limit) : inner.request(method, path, body)) as Promise<ApiResponse<T>>,
  };
}
