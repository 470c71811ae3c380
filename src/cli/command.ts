import { AppError } from '../errors.js';
import type { AnswerCheck } from './answer-checks.js';
import type { Backend, GlobalOptions } from './backend.js';
import type { ApiClient, ApiResponse } from './client.js';
import type { ConfigSource } from './config.js';
import type { Env, Io } from './io.js';
import type { Prompter } from './prompter.js';
import { UsageError } from './usage-error.js';

// What a command module needs, in one place (defined where each belongs).
export type { GlobalOptions } from './backend.js';
export type { ApiClient, ApiResponse } from './client.js';
export type { Prompter } from './prompter.js';
export { UsageError } from './usage-error.js';

/**
 * A command module (pnpm style): a small definition whose handler returns data and never
 * prints. The program wires options and arguments; render.ts decides how data is shown.
 */

export interface Column {
  key: string;
  header: string;
  /** Text for a cell; default: the value, JSON for objects, empty for null. */
  format?: (value: unknown, row: Record<string, unknown>) => string;
  /** A style for TTY output only (chalk); never used when piped. */
  color?: (text: string, row: Record<string, unknown>) => string;
}

export type CommandResult =
  /**
   * API data: --json prints `response.text`; otherwise a table (arrays) or a field list
   * (objects). `failure`: an answer that is itself a negative one (a certificate code that
   * verifies as not valid): printed, then the failure as any error is, with its exit code.
   */
  | { kind: 'api'; response: ApiResponse; columns?: Column[]; rows?: (data: unknown) => Record<string, unknown>[]; failure?: Error }
  /**
   * Plain output written as is (CSV, a dump, a report rendered by the command). `json` is what --json prints.
   * `failure`: the command did part of its work and reports it (a bulk change's summary):
   * the output is printed, then the failure as any error is (stderr), and its exit code is
   * the command's.
   */
  | { kind: 'text'; text: string; json?: string; failure?: Error }
  /** Nothing on stdout (the command wrote a file, say); a note for stderr. */
  | { kind: 'none'; note?: string };

export interface CommandContext {
  client: ApiClient;
  /** Everything outside the command's arguments (streams, env, files, editor, clock, signals). */
  io: Io;
  env: Env;
  /** True when prompts are allowed: stdin and stdout are TTYs, CI unset, no --no-input. */
  interactive: boolean;
  /** Colour on stdout (a TTY, or FORCE_COLOR; never with NO_COLOR). */
  color: boolean;
  prompt: Prompter;
  /** Progress and notes (stderr; no-op when stderr is not a TTY for progress). */
  note(message: string): void;
  progress(done: number, total: number, label?: string): void;
  /** Reads a file, or stdin for '-': not readable, a usage error; not UTF-8, `invalid` (error-text.ts readError). */
  readText(path: string): Promise<string>;
  /** The same, as UTF-8 bytes checked but not decoded (a large file whose text may not be needed). */
  readBytes(path: string): Promise<Uint8Array>;
  writeFile(path: string, text: string): Promise<void>;
  /**
   * A value the user must give: prompts when interactive (checking each answer as it is
   * typed with the named check of prompt.ts VALIDATE, when given: loaded, with the schemas
   * it checks with, only when a prompt is shown), else a usage error naming the flag.
   */
  require(value: string | undefined, flag: string, question: string, check?: AnswerCheck): Promise<string>;
  /** Global options (json, db, baseUrl, ...), for commands that need them (serve, config). */
  globals: GlobalOptions;
  /** The config file of this run, read and checked once (src/cli/config.ts; its warnings said once). */
  config: ConfigSource;
  /** A client for another back end (push, pull and diff talk to two); closed when the command ends. */
  openClient(backend: Backend): Promise<ApiClient>;
  stdoutIsTTY: boolean;
  /** The back end in use (store path or service URL, and the profile), or null for commands without a client. */
  backend: Backend | null;
  /**
   * The id of a parent the command declares in `parents`: its flag (or an old positional
   * id); for the course, then COURSEBOOK_COURSE, then the profile's course; then a pick
   * list on a terminal; else a usage error naming the flag (src/cli/parents.ts).
   */
  parent(kind: ParentKind): Promise<string>;
  /** A parent's id only when typed (an optional filter such as `certificates list --course`). */
  parentGiven(kind: ParentKind): string | undefined;
  /**
   * Name an `invalid` answer's problems by these flags too, for a body whose fields nest
   * (a setup's `categories[2].weight` is `--weight`). Shown by the runner with the flags
   * `fieldFlags` and the options name, for people; `--json` keeps the API's paths.
   */
  nameProblemsBy(flagOf: (path: string) => string | undefined): void;
}

export type ParentKind = 'course' | 'module' | 'lesson' | 'assignment' | 'user';

/** Which users a `--user` pick list offers: the course's students, everyone enrolled in it, or every user. */
export type UserPick = 'student' | 'member' | 'user';

/** A parent a command works inside: the program gives it its flag, and `ctx.parent(kind)` resolves it. */
export interface ParentDef {
  kind: ParentKind;
  /** The flag's help text, when more than "the module" is worth saying. */
  description?: string;
  /** It was a positional argument before: still accepted (after the command's own arguments), with a deprecation note. */
  positional?: boolean;
  /** A filter that may be left out (`certificates list --course`): no default, no pick list; read with `ctx.parentGiven`. */
  optional?: boolean;
  /** For `user`: what its pick list offers (default: the course's students). */
  pick?: UserPick;
}

export interface OptionDef {
  /** commander syntax: '--title <text>', '--points <n>', '--yes' */
  flags: string;
  description: string;
  default?: string | boolean;
}

export interface CommandDef {
  /** Space-separated path: 'assignments list', 'gradebook final set'. */
  name: string;
  description: string;
  /** commander syntax: '<blockId>', '[file]'. A parent's id is not an argument: see `parents`. */
  args?: { name: string; description: string }[];
  options?: OptionDef[];
  /**
   * The course (and other parents) the command works inside: each gets its flag
   * (`-c/--course`, `--module`, `--lesson`, `--assignment`, `--user`) and is read with
   * `ctx.parent(kind)`, the one way parents are resolved (docs/cli.md, "Naming the course").
   */
  parents?: ParentDef[];
  /** Old names of the command's last word, still accepted (commander aliases); help and completion lead with `name`. */
  aliases?: string[];
  /** Serve and other long-running commands manage their own output and exit. */
  handler: (ctx: CommandContext, args: string[], opts: Record<string, unknown>) => Promise<CommandResult>;
  /**
   * Body fields set by a flag of another name (`dueAt: '--due'`, `items: '--item'`). With
   * these and the fields named like their flags (`submissionType`, `--submission-type`), an
   * `invalid` answer to a body made from flags is shown by flag (cli/error-text.ts
   * flagOfField).
   */
  fieldFlags?: Record<string, string>;
  /**
   * The API's sentences that name fields of this command's body (a rule across fields, such
   * as `a rule needs an effect: delayMs, ...`), written with `name(field)` for each field:
   * the runner says them with the flags instead (cli/error-text.ts sentencesByFlag).
   */
  sentences?: (name: (field: string) => string) => Record<string, string>;
  /** Commands that do not talk to the API (config, serve, health) skip client set-up. */
  noClient?: boolean;
  /** Shown after the options in --help (where to read more). */
  help?: string;
  /** Example command lines for `--help` (lines starting with `#` explain the next one); else src/commands/examples.ts. */
  examples?: string[];
  /**
   * The client answers each request as the API did, one page at a time (`api`); every other
   * command's client follows `Link rel="next"` to whole lists.
   */
  rawClient?: boolean;
}

/** A command group (`gradebook setup`): its --help description and a pointer to more. */
export interface GroupDef {
  name: string;
  description: string;
  help?: string;
}

export const defineCommands = (defs: CommandDef[]): CommandDef[] => defs;

/** Usage error (exit 2) that names what is missing or wrong. */

/** Encode one path segment: ids may hold characters that mean something in a URL. */
export const seg = (value: string): string => encodeURIComponent(value);

/** Parse a number option, or fail with a usage error naming the flag. */
export function numberOption(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number (got ${JSON.stringify(value)})`);
  return n;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parse JSON text from a file option (a request body to be), or fail naming the file. Read
 * but not JSON is `invalid` (exit 3), as malformed JSON sent to the API is; a file that
 * cannot be read at all stays a usage error (exit 2).
 */
export function parseJsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const where = source === '-' ? 'standard input' : source;
    const problem = { path: where, message: `not valid JSON: ${(err as Error).message}` };
    throw new AppError('invalid', `${problem.path}: ${problem.message}`, [problem]);
  }
}
