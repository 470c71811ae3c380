/**
 * The one error type of coursebook. Every layer throws AppError; the HTTP edge turns it
 * into the envelope `{error: {code, message, details?}}` and the CLI into an exit code,
 * both from ERROR_TABLE, so a code can never answer two different ways.
 */
export type ErrorCode =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'not-ready'
  | 'rate-limited'
  | 'too-large'
  | 'unsupported'
  | 'ai-disabled'
  | 'ai-failed';

export const ERROR_TABLE: Record<ErrorCode, { status: number; exit: number }> = {
  invalid: { status: 400, exit: 3 },
  unauthenticated: { status: 401, exit: 4 },
  forbidden: { status: 403, exit: 4 },
  'not-found': { status: 404, exit: 5 },
  conflict: { status: 409, exit: 6 },
  'not-ready': { status: 409, exit: 6 },
  'rate-limited': { status: 429, exit: 7 },
  'too-large': { status: 413, exit: 3 },
  unsupported: { status: 415, exit: 3 },
  'ai-disabled': { status: 403, exit: 8 },
  'ai-failed': { status: 502, exit: 8 },
};

/** CLI exits that are not tied to an error code. */
export const EXIT = { ok: 0, unexpected: 1, usage: 2, unreachable: 9 } as const;

export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

export interface Problem {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    // An AppError is an answer (a 4xx, an exit code), never a bug: nothing prints its stack
    // (only unexpected errors are logged with theirs), and capturing one cost ~14 µs of
    // every error answer. The limit is the engine's, put back before anything else runs.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  get exitCode(): number {
    return ERROR_TABLE[this.code].exit;
  }

  toEnvelope(): { error: { code: ErrorCode; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_TABLE;
}

export const notFound = (what: string, id: string): AppError => new AppError('not-found', `${what} ${JSON.stringify(id)} was not found.`);

export const invalid = (problems: Problem[], message?: string): AppError => new AppError('invalid', message ?? problemsMessage(problems), problems);

/** The message of an `invalid` answer made of problems: the first one, and how many there are. */
export function problemsMessage(problems: readonly Problem[]): string {
  const first = problems[0];
  if (first === undefined) return 'The request is invalid.';
  return problems.length === 1 ? `${first.path}: ${first.message}` : `${problems.length} problems: ${first.path}: ${first.message}; ...`;
}
