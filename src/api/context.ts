import type { Context } from 'hono';
import type { Clock } from '../runtime/clock.js';
import type { Ids } from '../runtime/ids.js';
import type { UserValue } from '../schemas/people.js';
import type { Store } from '../store/db.js';

/** Who is calling, and with which credential. Local mode is a caller with scope `*`. */
export interface Caller {
  user: UserValue;
  scopes: ReadonlySet<string>;
  credential: { kind: 'local' | 'token' | 'jwt'; id: string };
}

/** Turns a request into a Caller, or null when it carries no usable credential. */
export interface Authenticator {
  authenticate(c: Context<AppEnv>, deps: AppDeps): Promise<Caller | null>;
}

export interface RateLimiter {
  /** Seconds to wait before retrying, or 0 when the request may go ahead (and is counted). */
  take(key: string): number;
  /** The same answer as take, without counting anything. */
  peek(key: string): number;
}

export interface AppOptions {
  /** Largest request body in bytes (errors-and-auth.md: 1 MiB default). */
  maxBody: number;
  /** Largest body for the dataset import route. */
  maxImportBody: number;
  allowReset: boolean;
  cors: string | null;
  /** Writes one log line per request/error; never receives tokens. */
  log: ((entry: Record<string, unknown>) => void) | null;
}

export interface AppDeps {
  store: Store;
  clock: Clock;
  ids: Ids;
  auth: Authenticator;
  /** Requests per user: every credential of one user draws on one budget. */
  rateLimiter?: RateLimiter | null;
  /** Failed authentications per client address (`local` for in-process requests). */
  authFailureLimiter?: RateLimiter | null;
  options?: Partial<AppOptions>;
  /** Restores the seed for POST /_reset (serve --allow-reset). */
  reset?: (() => void) | null;
}

/** What the access layer learned about the request, for handlers to use. */
export interface Granted {
  caller: Caller;
  courseId?: string;
  /** The caller's standing in the course: an enrollment role, or `admin`. */
  role?: 'instructor' | 'reviewer' | 'student' | 'admin';
}

export type AppEnv = { Variables: { granted: Granted; deps: AppDeps } };
export type AppContext = Context<AppEnv>;
