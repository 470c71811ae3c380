import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AppError, isErrorCode } from '../errors.js';
import type { ApiClient, ApiResponse } from './command.js';
import type { Env } from './io.js';

/** The remote service could not be reached (exit 9). */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** Some other failure reported by the service (a 500): exit 1. */
export class ServiceError extends Error {}

function toResponse<T>(status: number, text: string): ApiResponse<T> {
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
    throw new ServiceError(`the service answered ${status}: ${typeof err?.message === 'string' ? err.message : text.slice(0, 200)}`);
  }
  // The caller names the shape it expects of a success body (the API's schema says it).
  return { status, text, data: data as T };
}

export const API_PREFIX = '/api/v1';

export function defaultStorePath(env: Env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'coursebook', 'coursebook.db');
}

export function ensureParentDir(path: string): void {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
}

/** In-process client: the same HTTP app, no socket. */
export function inProcessClient(app: { request(input: string, init?: RequestInit): Response | Promise<Response> }): ApiClient {
  return {
    mode: 'local',
    async request(method, path, body) {
      const init: RequestInit = { method };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        init.headers = { 'content-type': 'application/json' };
      }
      const res = await app.request(`http://local${API_PREFIX}${path}`, init);
      return toResponse(res.status, await res.text());
    },
  };
}

/** Remote client: undici, bearer token. The token never appears in a message. */
export async function remoteClient(baseUrl: string, token: string | undefined): Promise<ApiClient> {
  const { request } = await import('undici');
  const root = baseUrl.replace(/\/+$/, '');
  let safeBase: string;
  try {
    const u = new URL(root);
    u.username = '';
    u.password = '';
    safeBase = u.toString().replace(/\/+$/, '');
  } catch {
    throw new AppError('invalid', `--base-url is not a URL`);
  }
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
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(`${root}${API_PREFIX}${path}`, { method: method as 'GET', headers, body: payload });
      } catch (err) {
        throw new UnreachableError(`cannot reach ${safeBase}: ${(err as { code?: string }).code ?? (err as Error).message}`);
      }
      return toResponse(res.statusCode, await res.body.text());
    },
  };
}
