/**
 * A SQLite UNIQUE or PRIMARY KEY failure is a `conflict` (409), never a 500: whichever path
 * tried to write a value that another record already holds, the caller gets told which
 * collection and which fields collided. The app's error handler calls this for every error.
 */
import Database from 'better-sqlite3';
import { AppError } from '../errors.js';

const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

const camel = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The conflict a unique-constraint failure means, or null for any other error. */
export function uniqueConflict(err: unknown): AppError | null {
  if (!(err instanceof Database.SqliteError) || !UNIQUE_CODES.has(err.code)) return null;
  // "UNIQUE constraint failed: certificates.id" or "...: final_grades.course_id, final_grades.student_id"
  const columns = err.message
    .replace(/^.*constraint failed:\s*/i, '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.includes('.'));
  const collection = camel(columns[0]?.split('.')[0] ?? 'records');
  const fields = columns.map((c) => camel(c.split('.')[1]!));
  const what = fields.length === 0 ? 'a unique value' : fields.length === 1 ? `the same ${fields[0]}` : `the same ${fields.join(' and ')}`;
  return new AppError('conflict', `Another record in ${collection} already has ${what}; nothing was written.`, { collection, fields });
}
