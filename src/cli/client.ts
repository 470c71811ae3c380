import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError, isErrorCode } from '../errors.js';
import type { Env } from './io.js';
import { UsageError } from './usage-error.js';

export interface ApiResponse<T = unknown> {
  status: number;
  /** The body exactly as the API sent it: what --json prints. */
  text: string;
  data: T;
  /** What was asked: the method and the path under /api/v1 (the renderer names what a POST created). */
  request?: { method: string; path: string };
  /** The next page (a path under /api/v1) when the answer had a `Link: <...>; rel="next"` header. */
  next?: string;
}

export interface ApiClient {
  /** Sends one API request. Error envelopes are thrown as AppError with their code. */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  readonly mode: 'local' | 'remote';
}

/** The remote service could not be reached (exit 9). */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/**
 * What undici's own codes mean. They name undici's classes, not the network: shown bare
 * (`UND_ERR_SOCKET`) they read as an internal error. The system's codes (`ECONNREFUSED`,
 * `ENOTFOUND`, ...) are what other tools print, and are shown as they are.
 */
const UNDICI_REASONS: Record<string, string> = {
  UND_ERR_SOCKET: 'the connection was closed before a complete answer',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_DESTROYED: 'the connection was closed',
  UND_ERR_CONNECT_TIMEOUT: 'no connection was made in time',
  UND_ERR_HEADERS_TIMEOUT: 'no answer came in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  UND_ERR_HEADERS_OVERFLOW: "the answer's headers were too large",
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer was not as long as its Content-Length said',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'the answer was too large',
  UND_ERR_ABORTED: 'the request was cancelled',
  UND_ERR_ABORT: 'the request was cancelled',
  UND_ERR_PRX_TLS: 'the secure connection to the proxy failed',
};

/** The code of a failed connection (undici's or the system's), else its message. */
export function failureCode(err: unknown): string {
  return (err as { code?: string }).code ?? (err as Error).message;
}

/**
 * Why a service could not be reached, as said after `cannot reach URL:` (every command:
 * the remote client and `health`): undici's codes as a reason with the code after it,
 * `the connection was closed before a complete answer (UND_ERR_SOCKET)`; others as they are.
 */
export function unreachableReason(code: string): string {
  const reason = UNDICI_REASONS[code] ?? (code.startsWith('UND_ERR_') ? 'the connection failed' : undefined);
  return reason === undefined ? code : `${reason} (${code})`;
}

/** Some other failure reported by the service (a 500, or an answer that is not the API's envelope): exit 1. */
export class ServiceError extends Error {
  constructor(
    message: string,
    /** The HTTP status the service answered with, when there was one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

function toResponse<T>(status: number, text: string, request: { method: string; path: string }, next?: string): ApiResponse<T> {
  let data: unknown;
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (status >= 400) {
    const err = (data as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    if (err && isErrorCode(err.code)) throw new AppError(err.code, String(err.message ?? ''), err.details);
    throw new ServiceError(`the service answered ${status}: ${typeof err?.message === 'string' ? err.message : text.slice(0, 200)}`, status);
  }
  // The caller names the shape it expects of a success body (the API's schema says it).
  return { status, text, data: data as T, request, ...(next === undefined ? {} : { next }) };
}

/**
 * The next page named by a `Link` header (RFC 8288), as a path under /api/v1, or undefined.
 * A relative link resolves against the request's URL; a link to another origin is ignored.
 */
export function nextPageFromLink(header: string | null | undefined, requestUrl: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(m[2]!)?.[1] ?? '';
    if (!rel.toLowerCase().split(/\s+/).includes('next')) continue;
    let url: URL;
    try {
      url = new URL(m[1]!, requestUrl);
    } catch {
      return undefined;
    }
    if (url.origin !== new URL(requestUrl).origin) return undefined;
    const at = url.pathname.indexOf(`${API_PREFIX}/`);
    return at < 0 ? undefined : `${url.pathname.slice(at + API_PREFIX.length)}${url.search}`;
  }
  return undefined;
}

export const API_PREFIX = '/api/v1';

/**
 * A service's root path, however it was pasted: trailing slashes and one trailing /api/v1
 * (the API, as the service's answers and docs show it) removed; a prefix in front is kept.
 */
export function serviceRootPath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed.slice(0, -API_PREFIX.length).replace(/\/+$/, '') : trimmed;
}

/**
 * A service's URL in its one form, the one it is compared, keyed (sync marks) and shown by:
 * `http://host:8080` for `HTTP://Host:8080/api/v1/`. Scheme and host in lower case and a
 * default port dropped (the WHATWG URL does both), the path through serviceRootPath, and
 * never credentials, a query or a fragment.
 */
export function serviceRoot(given: string): string {
  let u: URL | undefined;
  try {
    u = new URL(given);
  } catch {
    u = undefined;
  }
  if (u === undefined || !/^https?:$/.test(u.protocol))
    throw new UsageError(`--base-url is not an http(s) URL: ${JSON.stringify(given.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^@/]*@/i, '$1'))}`);
  return `${u.origin}${serviceRootPath(u.pathname)}`;
}

export function defaultStorePath(env: Env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'coursebook', 'coursebook.db');
}

/** In-process client: the same HTTP app, no socket. */
export function inProcessClient(app: { request(input: string, init?: RequestInit): Response | Promise<Response> }): ApiClient {
  return {
    mode: 'local',
    async request(method, path, body) {
      // A call answered in this process has no request of another's to trace: it names itself,
      // and the app draws no random id for it (nor loads node:crypto to draw one).
      const headers: Record<string, string> = { 'x-request-id': 'local' };
      const init: RequestInit = { method, headers };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      const url = `http://local${API_PREFIX}${path}`;
      const res = await app.request(url, init);
      return toResponse(res.status, await res.text(), { method, path }, nextPageFromLink(res.headers.get('link'), url));
    },
  };
}

/** How the remote client waits and tells the user it is retrying. */
export interface RetryPolicy {
  sleep(ms: number): Promise<void>;
  note(message: string): void;
  /** The current time, for a Retry-After given as an HTTP date. */
  now(): string;
}

/** At most this many tries of one request (the first and 4 retries). */
export const MAX_TRIES = 5;
/** A Retry-After longer than this is not waited for: the rate-limited error goes to the user. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Safe to send twice: the same request again leaves the same result (RFC 9110, 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Connection failures that may pass; a name that does not resolve will not. */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Exponential backoff between tries: 0.5 s, 1 s, 2 s, 4 s. */
export const backoffMs = (failedTries: number): number => 500 * 2 ** (failedTries - 1);

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110, 10.2.3); undefined when unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now: string): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.parse(now));
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * Remote client: undici, bearer token. The token never appears in a message. A 429 is
 * retried after its Retry-After (any method: the service refused it before doing anything);
 * a connection failure is retried with backoff for idempotent methods only. At most
 * MAX_TRIES tries, each retry announced on stderr.
 */
export async function remoteClient(baseUrl: string, token: string | undefined, retry: RetryPolicy): Promise<ApiClient> {
  // The service's root, however it was pasted: `.../api/v1` (what its answers and docs
  // show) names the same service, so the prefix is not asked for twice. Credentials in the
  // URL were never sent (undici asks the origin and path), and are never shown.
  const root = serviceRoot(baseUrl);
  const { request } = await import('undici');
  return {
    mode: 'remote',
    async request(method, path, body) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      const url = `${root}${API_PREFIX}${path}`;
      for (let tries = 1; ; tries++) {
        let status: number;
        let text: string;
        let link: string | undefined;
        let retryAfter: string | string[] | undefined;
        try {
          const res = await request(url, { method: method as 'GET', headers, body: payload });
          status = res.statusCode;
          retryAfter = res.headers['retry-after'];
          const linkHeader = res.headers.link;
          link = Array.isArray(linkHeader) ? linkHeader.join(', ') : linkHeader;
          text = await res.body.text();
        } catch (err) {
          const code = failureCode(err);
          if (tries < MAX_TRIES && IDEMPOTENT.has(method.toUpperCase()) && TRANSIENT.has(code)) {
            const wait = backoffMs(tries);
            retry.note(`cannot reach ${root}: ${unreachableReason(code)}; retrying in ${seconds(wait)} (try ${tries + 1} of ${MAX_TRIES})`);
            await retry.sleep(wait);
            continue;
          }
          const after = tries > 1 ? ` after ${tries} tries` : '';
          throw new UnreachableError(`cannot reach ${root}: ${unreachableReason(code)}${after}`);
        }
        if (status === 429 && tries < MAX_TRIES) {
          const wait = retryAfterMs(retryAfter, retry.now()) ?? backoffMs(tries);
          if (wait <= MAX_RETRY_AFTER_MS) {
            retry.note(`rate-limited by ${root}; retrying in ${seconds(wait)} (try ${tries + 1} of ${MAX_TRIES})`);
            await retry.sleep(wait);
            continue;
          }
        }
        return toResponse(status, text, { method, path }, nextPageFromLink(link, url));
      }
    },
  };
}
