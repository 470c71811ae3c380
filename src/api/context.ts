import type { Context } from 'hono';
import type { FaultRules } from '../domain/fixture/faults.js';
import type { RequestJournal } from '../domain/fixture/journal.js';
import type { Clock } from '../runtime/clock.js';
import type { ControllableClock } from '../runtime/controllable-clock.js';
import type { Ids } from '../runtime/ids.js';
import type { ResetGate } from '../runtime/reset-gate.js';
import type { UserValue } from '../schemas/people.js';
import type { Store } from '../store/db.js';
import type { Grader } from './grader.js';
import type { ReadCache, Reads } from './read-cache.js';

/** Who is calling, and with which credential. Local mode is a caller with scope `*`. */
export interface Caller {
  user: UserValue;
  scopes: ReadonlySet<string>;
  credential: { kind: 'local' | 'token' | 'jwt'; id: string };
  /** Who this is, as the read cache's key (caller.ts makeCaller makes it with the rest). */
  key: string;
}

/** Turns a request into a Caller, or null when it carries no usable credential. */
export interface Authenticator {
  authenticate(c: Context<AppEnv>, deps: AppDeps): Promise<Caller | null>;
}

/** What the rate limiter decided for one request, and the RateLimit-* headers it answers with. */
export interface RateDecision {
  /** Seconds to wait before retrying, or 0 when the request may go ahead. */
  retryAfter: number;
  /** RateLimit-Limit: requests allowed in a burst. */
  limit: number;
  /** RateLimit-Remaining: requests left right now. */
  remaining: number;
  /** RateLimit-Reset: seconds until the full burst is available again. */
  reset: number;
}

export interface RateLimiter {
  take(key: string): RateDecision;
  /** The same answer's wait in seconds (0: it may go ahead), without counting anything. */
  peek(key: string): number;
}

export interface AppOptions {
  /** Largest request body in bytes (errors-and-auth.md: 1 MiB default). */
  maxBody: number;
  /** Largest body for the dataset import route. */
  maxImportBody: number;
  allowReset: boolean;
  /** serve --allow-admin: the fixture control routes (/_admin/...) are registered. */
  allowAdmin: boolean;
  /** Origins allowed to call from a browser (`*` for any), or null. */
  cors: string | string[] | null;
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
  /** Runs grade computations (worker threads under serve); in-thread when absent. */
  grader?: Grader | null;
  /** Restores the seed for POST /_reset (serve --allow-reset), through resetGate when there is one. */
  reset?: (() => Promise<void>) | null;
  /** serve --allow-reset: what every other request enters, so none overlaps a reset (runtime/reset-gate.ts). */
  resetGate?: ResetGate | null;
  /** serve's fixture tools (journal, faults, clock control, --delay); none in local mode. */
  fixture?: FixtureTools | null;
  /** serve: reads kept for requests that find the store unchanged (read-cache.ts); none in local mode. */
  readCache?: ReadCache | null;
}

/** What `serve` gives a CI fixture (docs/fixtures.md). */
export interface FixtureTools {
  /** With --allow-admin: what the /_admin routes read and change. */
  control: { journal: RequestJournal; faults: FaultRules; clock: ControllableClock } | null;
  /** --delay: every answer but the control routes' waits this long first. */
  delayMs: number;
  /**
   * Waits `ms` milliseconds, or until `signal` aborts (a reset began: the request is not
   * served). Injected, so tests wait for nothing, or for what they choose.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** The wall clock journal entries are stamped with. */
  wallClock: Clock;
}

/** What the access layer learned about the request, for handlers to use. */
export interface Granted {
  caller: Caller;
  courseId?: string;
  /** The caller's standing in the course: an enrollment role, or `admin`. */
  role?: 'instructor' | 'reviewer' | 'student' | 'admin';
}

/**
 * The headers every answer to a request carries, whatever made it: its request id and, once
 * the rate limiter has counted it, the RateLimit-* headers. Names in lower case, as they go
 * on the wire.
 */
export type AnswerHeaders = Record<string, string>;

export type AppEnv = {
  Variables: {
    granted: Granted;
    deps: AppDeps;
    reads: Reads;
    answerHeaders: AnswerHeaders;
    /** The answer define.ts made with answerHeaders already in it: nothing to add. */
    madeWithHeaders: Response;
  };
};
export type AppContext = Context<AppEnv>;
