/**
 * A bulk write on PostgreSQL as few statements as the protocol allows. The store's bulk
 * writes (insertRecords, saving grade cells) run one single-row INSERT per row; over a socket
 * each is a round trip, so a 26,000-record import spent seconds waiting. The same INSERT with
 * many rows in its VALUES list writes the same rows, fires the same row triggers and fails
 * on the same constraints, in one round trip per batch.
 *
 * Only the shape the store's own bulk statements have is rewritten:
 *   INSERT INTO t (c1, ..., ck) VALUES ($1, ..., $k) [ON CONFLICT (key) DO UPDATE SET ...]
 * anything else runs row by row, as before.
 */

/** PostgreSQL's limit on the parameters of one statement (a 16-bit count in the protocol). */
export const MAX_PARAMETERS = 65_535;

/** Rows per statement: past a few hundred, a larger batch saves nothing measurable. */
export const MAX_ROWS = 500;

export interface Statement {
  sql: string;
  params: readonly unknown[];
}

interface SingleRowInsert {
  /** `INSERT INTO t (c1, ..., ck) VALUES` */
  head: string;
  /** What follows the VALUES tuple: empty, or ` ON CONFLICT (...) DO UPDATE SET ...`. */
  tail: string;
  width: number;
  /** Positions in the row of the ON CONFLICT key columns; empty without ON CONFLICT. */
  key: number[];
}

const INSERT = /^(INSERT INTO\s+\w+\s*\(([^()]*)\)\s*VALUES)\s*\(([^()]*)\)(.*)$/is;
const UPSERT_TAIL = /^\s*ON CONFLICT\s*\(([^()]*)\)\s*DO UPDATE SET\s[^$?]*$/is;

/** The parts of a single-row INSERT whose VALUES tuple is exactly $1..$k, or null. */
function parseSingleRowInsert(sql: string): SingleRowInsert | null {
  const m = INSERT.exec(sql);
  if (!m) return null;
  const [, head, columnList, tuple, tail] = m as unknown as [string, string, string, string, string];
  const columns = columnList.split(',').map((c) => c.trim());
  const placeholders = tuple.split(',').map((p) => p.trim());
  if (placeholders.length !== columns.length || placeholders.some((p, i) => p !== `$${i + 1}`)) return null;
  if (tail.trim() === '') return { head, tail: '', width: columns.length, key: [] };
  const upsert = UPSERT_TAIL.exec(tail);
  if (!upsert) return null;
  const key = upsert[1]!.split(',').map((c) => columns.indexOf(c.trim()));
  if (key.some((i) => i < 0)) return null;
  return { head, tail, width: columns.length, key };
}

/**
 * Rows in batches of at most `maxRows` (and MAX_PARAMETERS parameters). An upsert's batch
 * never holds two rows of one key: PostgreSQL refuses to update a row twice in one statement,
 * and one after the other the later row wins, as it does when each row is its own statement.
 * Keys are told apart by their text, so two keys that only look alike cost a split, never a merge.
 */
function batches(insert: SingleRowInsert, rows: readonly (readonly unknown[])[], maxRows: number): (readonly unknown[])[][] {
  const size = Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMETERS / insert.width)));
  const out: (readonly unknown[])[][] = [];
  let current: (readonly unknown[])[] = [];
  let keys = new Set<string>();
  for (const row of rows) {
    const key = insert.key.length > 0 ? insert.key.map((i) => String(row[i])).join('\u0000') : null;
    if (current.length === size || (key !== null && keys.has(key))) {
      out.push(current);
      current = [];
      keys = new Set();
    }
    current.push(row);
    if (key !== null) keys.add(key);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * The statements that run `sql` (with PostgreSQL's $n placeholders) once per parameter list:
 * multi-row INSERTs when `sql` is a single-row INSERT of the shape above, else the statement
 * once per row. Every row is written, in order.
 */
export function bulkStatements(sql: string, rows: readonly (readonly unknown[])[], maxRows = MAX_ROWS): Statement[] {
  const insert = parseSingleRowInsert(sql);
  if (!insert || rows.some((r) => r.length !== insert.width)) return rows.map((params) => ({ sql, params }));
  return batches(insert, rows, maxRows).map((batch) => {
    const tuples: string[] = [];
    let n = 0;
    for (let r = 0; r < batch.length; r++) {
      const slots: string[] = [];
      for (let c = 0; c < insert.width; c++) slots.push(`$${++n}`);
      tuples.push(`(${slots.join(', ')})`);
    }
    return { sql: `${insert.head} ${tuples.join(', ')}${insert.tail}`, params: batch.flat() };
  });
}
