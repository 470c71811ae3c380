import { AppError, type Problem } from '../errors.js';
import { NotUtf8Error } from '../runtime/utf8.js';
import { UsageError } from './usage-error.js';

/**
 * An error as a person reads it, one line each: `error (code): message`, then each problem
 * of an `invalid` list (unless the message already is that one problem).
 */
export function errorLines(err: AppError | UsageError): string[] {
  if (err instanceof UsageError) return [`error: ${err.message}`];
  const lines = [`error (${err.code}): ${err.message}`];
  if (Array.isArray(err.details)) {
    const problems = (err.details as { path?: unknown; message?: unknown }[]).filter((p) => typeof p?.path === 'string');
    // A problem of the whole body, restated for people (problemsByFlag), has no path to show.
    const line = (p: { path?: unknown; message?: unknown }) => (p.path === '' ? String(p.message) : `${p.path as string}: ${String(p.message)}`);
    const [first] = problems;
    const restated = problems.length === 1 && err.message.includes(first!.path === '' ? String(first!.message) : `${first!.path as string}: `);
    if (!restated) for (const p of problems) lines.push(`  ${line(p)}`);
  }
  return lines;
}

/**
 * An `invalid` answer restated in the command's flags. When the body was built from flags
 * and `flagOf` names one for every problem's path, each problem is shown under its flag
 * (`--level: is required`), so what to fix is what to type. A problem whose message is one
 * of the command's sentences about its fields (`restate`, from CommandDef.sentences) is
 * said with the flags instead; one about the whole body (`(root)`) is named by no flag but
 * its restated sentence. Any other error, or a list with a problem no flag made, is
 * returned as it is.
 */
export function problemsByFlag(
  err: unknown,
  flagOf: (path: string) => string | undefined,
  restate: (message: string) => string | undefined = () => undefined,
): unknown {
  if (!(err instanceof AppError) || err.code !== 'invalid' || !Array.isArray(err.details)) return err;
  const problems = err.details as Problem[];
  const named = problems.map((p) => {
    const sentence = restate(p.message);
    const flag = p.path === '(root)' ? (sentence === undefined ? undefined : '') : flagOf(p.path);
    return { flag, message: sentence ?? p.message, restated: sentence !== undefined };
  });
  if (named.length === 0 || !named.every((p) => p.flag !== undefined)) return err;
  const restated = named.map((p) => ({ path: p.flag!, message: p.message }));
  if (restated.length > 1) return new AppError('invalid', `${restated.length} problems: ${restated.map((p) => p.path || p.message).join(', ')}`, restated);
  // One problem: the answer's own sentence about it, where it has one, says more than the
  // problem's (`letter: "Q" is not a letter of the course's scheme (A, B)`), unless the
  // problem's was restated in flags.
  const [only] = restated as [Problem];
  if (only.path === '') return new AppError('invalid', only.message, restated);
  const own = `${problems[0]!.path}: `;
  const fromAnswer = !named[0]!.restated && err.message.startsWith(own) ? err.message.slice(own.length) : only.message;
  return new AppError('invalid', `${only.path}: ${fromAnswer}`, restated);
}

/**
 * A command's sentences about its fields (CommandDef.sentences) as `problemsByFlag` restates
 * them: from the API's words (each field by its name) to the command's (each by its flag).
 */
export function sentencesByFlag(
  sentences: (name: (field: string) => string) => Record<string, string>,
  flagOf: (path: string) => string | undefined,
): (message: string) => string | undefined {
  const api = sentences((field) => field);
  const cli = sentences((field) => flagOf(field) ?? field);
  const byText = new Map(Object.keys(api).map((key) => [api[key]!, cli[key]!]));
  return (message) => byText.get(message);
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** The `index`th (0-based) use of a repeatable flag, as problems name it: `--item (the 2nd)`. */
export const nthFlag = (flag: string, index: number): string => `${flag} (the ${ordinal(index + 1)})`;

/**
 * The flag that set a body field, from a command's flags (`--due <iso>`) and its declared
 * `fieldFlags`: a field named like its flag (`submissionType`, `--submission-type`), one
 * declared (`dueAt: '--due'`), a parent's id (`moduleId`, `--module`); `items[1]` is the
 * 2nd `--item`. Undefined for any other path (a nested field, one no flag sets).
 */
export function flagOfField(flags: readonly string[], fieldFlags: Readonly<Record<string, string>> = {}): (path: string) => string | undefined {
  const given = new Set(flags.flatMap((f) => f.split(/[ ,|]+/).filter((w) => w.startsWith('--'))));
  return (path) => {
    // `criteria[0].levelId`: a field of the element one flag's value made (`--criterion
    // p1=full`), so that flag names it.
    const m = /^([A-Za-z][A-Za-z0-9]*)(?:\[(\d+)\](?:\.[A-Za-z][A-Za-z0-9]*)*)?$/.exec(path);
    if (!m) return undefined;
    const [, field, index] = m as unknown as [string, string, string | undefined];
    const kebab = `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const parent = field.endsWith('Id') ? `--${field.slice(0, -2)}` : undefined;
    const flag = fieldFlags[field] ?? (given.has(kebab) ? kebab : parent !== undefined && given.has(parent) ? parent : undefined);
    if (flag === undefined) return undefined;
    return index === undefined ? flag : nthFlag(flag, Number(index));
  };
}

const FILE_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/**
 * A file (or standard input) a command reads: one that was read but is not UTF-8 text is
 * `invalid` (exit 3) naming it and the first bad byte, as a file that is not JSON is
 * (command.ts parseJsonText) and as the API answers a body that is not UTF-8; one that
 * cannot be read at all is fileError's usage error (exit 2).
 */
export function readError(path: string, err: unknown): never {
  if (err instanceof NotUtf8Error) {
    const problem = { path, message: err.message };
    throw new AppError('invalid', `${path}: ${err.message}`, [problem]);
  }
  return fileError('read', path, err);
}

/** A file that cannot be read or written is a one-line usage error naming it, never a stack trace. */
export function fileError(action: 'read' | 'write', path: string, err: unknown): never {
  const code = (err as { code?: string }).code ?? '';
  throw new UsageError(`cannot ${action} ${path}: ${FILE_REASONS[code] ?? (err as Error).message}`);
}
