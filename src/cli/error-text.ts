import type { AppError } from '../errors.js';
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
