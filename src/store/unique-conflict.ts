/**
 * A UNIQUE or PRIMARY KEY failure is a `conflict` (409), never a 500: whichever path tried to
 * write a value that another record already holds, the caller gets told which collection and
 * which fields collided, in the same words on SQLite and on PostgreSQL. The app's error
 * handler calls this for every error.
 *
 * Foreign-key, CHECK and NOT NULL failures are left alone on both dialects (SQLite's
 * SQLITE_CONSTRAINT_FOREIGNKEY/_CHECK/_NOTNULL, PostgreSQL's 23503/23514/23502): every path
 * checks references and shapes before it writes, so reaching one is a bug in coursebook, not
 * something a caller sent, and it is answered as one (a logged 500) whichever the store.
 */
import Database from 'better-sqlite3';
import { AppError } from '../errors.js';
import { NUL_MESSAGE } from '../schemas/text.js';

const SQLITE_UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
/** PostgreSQL's unique_violation (primary keys included). */
const POSTGRES_UNIQUE_CODE = '23505';

const camel = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The table and columns of a unique failure, snake_case as in the schema, or null for any other error. */
function uniqueFailure(err: unknown): { table: string | null; columns: string[] } | null {
  if (err instanceof Database.SqliteError) {
    if (!SQLITE_UNIQUE_CODES.has(err.code)) return null;
    // "UNIQUE constraint failed: certificates.id" or "...: final_grades.course_id, final_grades.student_id"
    const qualified = err.message
      .replace(/^.*constraint failed:\s*/i, '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.includes('.'));
    return { table: qualified[0]?.split('.')[0] ?? null, columns: qualified.map((c) => c.split('.')[1]!) };
  }
  // pg's DatabaseError, recognised by its fields so that SQLite users never load pg.
  const pgError = err as { code?: unknown; table?: unknown; detail?: unknown };
  if (!(err instanceof Error) || pgError.code !== POSTGRES_UNIQUE_CODE) return null;
  // detail: "Key (course_id, student_id)=(c1, s1) already exists." Only the names are kept:
  // the values are the caller's (a token's hash among them) and never go into the answer.
  const keyList = typeof pgError.detail === 'string' ? /^Key \((.*?)\)=\(/.exec(pgError.detail)?.[1] : undefined;
  return {
    table: typeof pgError.table === 'string' ? pgError.table : null,
    columns: keyList === undefined ? [] : keyList.split(',').map((s) => s.trim()),
  };
}

/** The conflict a unique-constraint failure means, or null for any other error. */
export function uniqueConflict(err: unknown): AppError | null {
  const failure = uniqueFailure(err);
  if (!failure) return null;
  const collection = camel(failure.table ?? 'records');
  const fields = failure.columns.map(camel);
  const what = fields.length === 0 ? 'a unique value' : fields.length === 1 ? `the same ${fields[0]}` : `the same ${fields.join(' and ')}`;
  return new AppError('conflict', `Another record in ${collection} already has ${what}; nothing was written.`, { collection, fields });
}

/** PostgreSQL's character_not_in_repertoire: text holding U+0000, which it cannot store or compare. */
const POSTGRES_NUL_CODE = '22021';

/**
 * A backstop, not the rule: U+0000 is refused before the store on both dialects (bodies by
 * api/json-text.ts, datasets by parseDataset, ids by the Id piece, access lookups by
 * scope.ts). Should a path ever let one through to PostgreSQL, the caller is still told what
 * was wrong with what they sent (`invalid`) rather than getting a 500.
 */
export function nulRefusal(err: unknown): AppError | null {
  if (!(err instanceof Error) || (err as { code?: unknown }).code !== POSTGRES_NUL_CODE) return null;
  return new AppError('invalid', 'Some text in the request contains U+0000 (NUL), which text may not hold.', [{ path: '(request)', message: NUL_MESSAGE }]);
}
