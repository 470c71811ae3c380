/**
 * What the request middleware of app.ts does for a fixture server (docs/fixtures.md): request
 * ids, --delay and fault rules before a request is served, and its journal entry after.
 * The control routes themselves (/_admin/..., /_reset) are never delayed, faulted or
 * journaled, so a test can always read and change the fixture.
 */
import { AppError } from '../errors.js';
import { JOURNAL_BODY_LIMIT } from '../schemas/fixture-limits.js';
import type { AppContext, FixtureTools } from './context.js';
import { API_PREFIX, callerIdOf } from './define.js';

export function isControlPath(path: string): boolean {
  return path === `${API_PREFIX}/_reset` || path === `${API_PREFIX}/_admin` || path.startsWith(`${API_PREFIX}/_admin/`);
}

/** A caller's X-Request-Id is echoed when it is 1 to 200 visible ASCII characters; otherwise a new one is made. */
const CALLER_REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

export function requestIdFor(given: string | undefined, next: () => string): string {
  return given !== undefined && CALLER_REQUEST_ID.test(given) ? given : next();
}

export interface FaultOutcome {
  faultId: string | null;
  /** The fault's answer, when a rule answers instead of the service. */
  answer: Response | null;
  /** True when the connection was dropped: nothing is sent. */
  dropped: boolean;
}

/**
 * Waits for --delay and the matching rule's delay, then answers for the rule when it says so.
 * A reset that begins during the wait (`signal`) ends it: the request is answered `conflict`
 * and not served, so nothing it would write lands in the restored seed.
 */
export async function applyFaults(c: AppContext, tools: FixtureTools, signal?: AbortSignal): Promise<FaultOutcome> {
  const rule = tools.control?.faults.take(c.req.method, c.req.path) ?? null;
  const delay = tools.delayMs + (rule?.delayMs ?? 0);
  if (delay > 0) {
    await tools.sleep(delay, signal);
    if (signal?.aborted) return { faultId: rule?.id ?? null, answer: cutByReset(rule?.id ?? null), dropped: false };
  }
  if (!rule) return { faultId: null, answer: null, dropped: false };
  if (rule.dropConnection) {
    // Over a socket (@hono/node-server passes the Node request as env.incoming) the
    // connection is destroyed; in-process there is none, and a network-error Response
    // (status 0) stands for the missing answer.
    const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
    if (socket) {
      socket.destroy();
      return { faultId: rule.id, answer: new Response(null, { status: 500 }), dropped: true };
    }
    return { faultId: rule.id, answer: Response.error(), dropped: true };
  }
  if (rule.status === null) return { faultId: rule.id, answer: null, dropped: false };
  // A Retry-After goes in the header and, as in the service's own 429, in the details.
  const details = rule.retryAfter === null ? { faultId: rule.id } : { faultId: rule.id, retryAfter: rule.retryAfter };
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-coursebook-fault': rule.id };
  if (rule.retryAfter !== null) headers['retry-after'] = String(rule.retryAfter);
  const envelope = { error: { code: rule.code, message: rule.message, details } };
  return { faultId: rule.id, answer: new Response(JSON.stringify(envelope), { status: rule.status, headers }), dropped: false };
}

/** The answer to a request whose wait a reset ended: 409, never served. */
function cutByReset(faultId: string | null): Response {
  const details = faultId === null ? { reset: true } : { reset: true, faultId };
  const error = new AppError('conflict', 'The fixture was reset while this request waited to be served; it was not served.', details);
  return new Response(JSON.stringify(error.toEnvelope()), { status: error.status, headers: { 'content-type': 'application/json' } });
}

/** Never kept in the journal: credentials. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** At most JOURNAL_BODY_LIMIT bytes of a text, and whether it was cut. */
function cut(text: string): { text: string; truncated: boolean } {
  const bytes = encoder.encode(text);
  return bytes.length <= JOURNAL_BODY_LIMIT ? { text, truncated: false } : { text: decoder.decode(bytes.subarray(0, JOURNAL_BODY_LIMIT)), truncated: true };
}

/** Reads at most JOURNAL_BODY_LIMIT bytes of a stream, then lets the rest go. */
async function readUpTo(stream: ReadableStream<Uint8Array>): Promise<{ text: string; truncated: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > JOURNAL_BODY_LIMIT) {
      truncated = true;
      // Not awaited: cancelling one branch of a tee'd (cloned) body settles only when the
      // other branch is done too, and that branch is the answer still to be sent.
      reader.cancel().catch(() => {});
      break;
    }
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return { text: decoder.decode(all.subarray(0, JOURNAL_BODY_LIMIT)), truncated };
}

/** The request body as the handler saw it (Hono caches what it read), else at most 64 KiB of the unread stream. */
async function requestBody(c: AppContext): Promise<{ text: string | null; truncated: boolean }> {
  if (Object.keys(c.req.bodyCache).length > 0) return cut(await c.req.text());
  const body = c.req.raw.body;
  if (body === null || c.req.raw.bodyUsed) return { text: null, truncated: false };
  return readUpTo(body);
}

async function responseBody(res: Response): Promise<{ text: string | null; truncated: boolean }> {
  const body = res.clone().body;
  return body === null ? { text: null, truncated: false } : readUpTo(body);
}

/** Records the request just answered in the journal. */
export async function recordRequest(
  c: AppContext,
  tools: FixtureTools,
  request: { requestId: string; time: string; serviceTime: string; durationMs: number; fault: FaultOutcome },
): Promise<void> {
  const journal = tools.control?.journal;
  if (!journal || journal.capacity === 0) return;
  const url = new URL(c.req.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of c.req.raw.headers) if (!SECRET_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  const sent = await requestBody(c);
  const answered = request.fault.dropped ? { text: null, truncated: false } : await responseBody(c.res);
  journal.record({
    requestId: request.requestId,
    time: request.time,
    serviceTime: request.serviceTime,
    method: c.req.method,
    path: c.req.path,
    query: url.search.replace(/^\?/, ''),
    status: request.fault.dropped ? null : c.res.status,
    callerId: callerIdOf(c),
    durationMs: request.durationMs,
    faultId: request.fault.faultId,
    requestHeaders: headers,
    requestBody: sent.text,
    responseBody: answered.text,
    truncated: sent.truncated || answered.truncated,
  });
}
