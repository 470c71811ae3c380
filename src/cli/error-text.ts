import { AppError, type Problem } from '../errors.js';
import { UsageError } from './command.js';

/**
 * An error as a person reads it, one line each: `error (code): message`, then each problem
 * of an `invalid` list (unless the message already is that one problem).
 */
export function errorLines(err: AppError | UsageError): string[] {
  if (err instanceof UsageError) return [`error: ${err.message}`];
  const lines = [`error (${err.code}): ${err.message}`];
  if (Array.isArray(err.details)) {
    const problems = (err.details as { path?: unknown; message?: unknown }[]).filter((p) => typeof p?.path === 'string');
    const restated = problems.length === 1 && err.message.includes(`${problems[0]!.path as string}: `);
    if (!restated) for (const p of problems) lines.push(`  ${p.path as string}: ${String(p.message)}`);
  }
  return lines;
}

/**
 * An `invalid` answer restated in the command's flags. When the body was built from flags
 * and `flagOf` names one for every problem's path, each problem is shown under its flag
 * (`--level: is required`), so what to fix is what to type. Any other error, or a list
 * with a problem no flag made, is returned as it is.
 */
export function problemsByFlag(err: unknown, flagOf: (path: string) => string | undefined): unknown {
  if (!(err instanceof AppError) || err.code !== 'invalid' || !Array.isArray(err.details)) return err;
  const named = (err.details as Problem[]).map((p) => ({ flag: flagOf(p.path), message: p.message }));
  if (named.length === 0 || !named.every((p) => p.flag !== undefined)) return err;
  const restated = named.map((p) => ({ path: p.flag!, message: p.message }));
  return new AppError(
    'invalid',
    restated.length === 1 ? `${restated[0]!.path}: ${restated[0]!.message}` : `${restated.length} problems: ${restated.map((p) => p.path).join(', ')}`,
    restated,
  );
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

/** A file that cannot be read or written is a one-line usage error naming it, never a stack trace. */
export function fileError(action: 'read' | 'write', path: string, err: unknown): never {
  const code = (err as { code?: string }).code ?? '';
  throw new UsageError(`cannot ${action} ${path}: ${FILE_REASONS[code] ?? (err as Error).message}`);
}
