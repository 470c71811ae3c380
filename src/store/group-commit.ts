/**
 * Group commit for a store with one connection (SQLite): the transactions that arrive while
 * one is open join it, each as a savepoint, and the group commits once.
 *
 * Why: on SQLite a transaction's BEGIN IMMEDIATE and COMMIT take and drop file locks and
 * write the WAL, system calls that cost more than the statements of a small write. Under
 * `serve`'s concurrent writes (a final grade per request) they were most of a request's
 * time; shared by the transactions that arrive in one turn of the event loop, they are paid
 * once for all of them.
 *
 * What each transaction still gets, as alone:
 * - It runs by itself: members run one after another, never interleaved.
 * - It is atomic: a member that fails is rolled back to its savepoint (the first member,
 *   alone in the transaction so far, with the whole transaction), and only its own writes
 *   are taken back. The others keep theirs; those still waiting start a new group.
 * - It is answered only once it is durable: every member's promise settles after the
 *   group's COMMIT, successes and failures alike (a failure may rest on what an earlier
 *   member wrote). If the COMMIT fails, or SQLite itself rolls the whole transaction back
 *   (a full disk, an I/O error), nothing of the group is stored: every member that ran
 *   fails with that error, and those whose turn had not come start again in a new group.
 *
 * The group closes at the first turn of the event loop with no member running or waiting
 * (so the requests that arrived in one read of the sockets share it), or at
 * MAX_GROUP_MEMBERS. Statements outside transactions wait for the COMMIT, as they wait for
 * any transaction.
 */
import type { StoreConnection } from './db.js';

/** The most transactions one COMMIT covers: a bound on how long readers wait behind a group. */
export const MAX_GROUP_MEMBERS = 64;

export interface GroupCommitParts {
  /** Run fn holding the connection; it is free again once fn settles. */
  hold(fn: (conn: StoreConnection) => Promise<void>): Promise<void>;
  /** The statement that starts a write transaction (BEGIN IMMEDIATE). */
  begin: string;
  /** After a failed attempt: throw err, or pause when the transaction may be tried again (Store's retry rule). */
  retryOrThrow(err: unknown, started: number, attempt: number, options: { wait?: boolean }): Promise<void>;
}

interface Group {
  conn: StoreConnection;
  /** Members that joined, and those not yet finished (running or waiting for their turn). */
  joined: number;
  unfinished: number;
  /** Settles when the member before the next one has finished. */
  turn: Promise<void>;
  /** Once set, no member may join: the group is committing or has ended. */
  closed: boolean;
  /** Why the whole group failed (its transaction is gone), once it did. */
  broken: { err: unknown } | null;
  commitScheduled: boolean;
  /** Settles once the group has committed (or failed); the connection is free after. */
  outcome: Promise<void>;
  settle(failure: { err: unknown } | null): void;
}

/**
 * A member's end: its value, its failure (its own, or the group's when the group failed), or
 * `rejoin` when the group broke before the member's turn: it ran nothing, so it starts again.
 */
type Outcome<T> = { ok: true; value: T } | { ok: false; err: unknown } | { rejoin: true };

/** One transaction's work, given the connection its statements go to. */
type Work<T> = (conn: StoreConnection) => Promise<T>;

/** A `tx` whose transactions commit in groups (see the file's comment). */
export function groupCommit(parts: GroupCommitParts): <T>(fn: Work<T>, options?: { wait?: boolean }) => Promise<T> {
  let open: Group | null = null;
  let opening: Promise<Group> | null = null;

  /** A new group: the connection held and the transaction begun, until the group settles. */
  const start = (): Promise<Group> =>
    new Promise<Group>((resolve, reject) => {
      parts
        .hold(async (conn) => {
          await conn.query(parts.begin, []);
          let settle!: Group['settle'];
          const outcome = new Promise<void>((done, fail) => {
            settle = (failure) => (failure ? fail(failure.err) : done());
          });
          // Members read the outcome; the holder only waits for it.
          outcome.catch(() => undefined);
          const group: Group = {
            conn,
            joined: 0,
            unfinished: 0,
            turn: Promise.resolve(),
            closed: false,
            broken: null,
            commitScheduled: false,
            outcome,
            settle,
          };
          open = group;
          resolve(group);
          await outcome.catch(() => undefined);
        })
        .catch(reject);
    });

  /** The open group, or a new one once the connection is free (a failure to begin is thrown). */
  const join = async (): Promise<Group> => {
    for (;;) {
      if (open && !open.closed) return open;
      opening ??= start().finally(() => {
        opening = null;
      });
      const group = await opening;
      if (!group.closed) return group;
    }
  };

  /** Close the group and end its transaction: COMMIT, or ROLLBACK when it is broken. */
  const finish = async (group: Group): Promise<void> => {
    group.closed = true;
    if (open === group) open = null;
    if (group.broken) {
      await group.conn.query('ROLLBACK', []).catch(() => undefined);
      group.settle(group.broken);
      return;
    }
    try {
      await group.conn.query('COMMIT', []);
      group.settle(null);
    } catch (err) {
      await group.conn.query('ROLLBACK', []).catch(() => undefined);
      group.settle({ err });
    }
  };

  /** After a member: commit at the next turn of the event loop unless another member joined by then. */
  const scheduleCommit = (group: Group): void => {
    if (group.commitScheduled) return;
    group.commitScheduled = true;
    setImmediate(() => {
      group.commitScheduled = false;
      if (group.unfinished === 0 && !group.closed) void finish(group);
    });
  };

  /**
   * One member's work: fn in a savepoint, released or rolled back. The first member needs
   * none: the transaction holds nothing else, so its failure rolls the whole transaction
   * back. That spares a lone transaction (a CLI write, an import) SQLite's savepoint
   * journal, which cost a large import 15% of its time.
   */
  const runMember = async <T>(group: Group, fn: Work<T>, first: boolean): Promise<Outcome<T>> => {
    if (group.broken) return { rejoin: true };
    if (!first) await group.conn.query('SAVEPOINT member', []);
    try {
      const value = await fn(group.conn);
      if (!first) await group.conn.query('RELEASE member', []);
      return { ok: true, value };
    } catch (err) {
      // The first member's writes are the transaction's only ones: it is rolled back whole
      // when the group ends, and members waiting their turn start again in a new group. A
      // later member whose savepoint is gone found the whole transaction rolled back by
      // SQLite (a full disk, an I/O error): earlier members' writes went with it, so the
      // whole group fails. Either way no one else joins the group.
      if (first || !(await rolledBackToSavepoint(group.conn))) {
        group.broken = { err };
        group.closed = true;
      }
      return { ok: false, err };
    }
  };

  /** Take back a member's writes; false when its savepoint is gone (the transaction with it). */
  const rolledBackToSavepoint = async (conn: StoreConnection): Promise<boolean> => {
    try {
      await conn.query('ROLLBACK TO member', []);
      await conn.query('RELEASE member', []);
      return true;
    } catch {
      return false;
    }
  };

  const member = async <T>(group: Group, fn: Work<T>): Promise<Outcome<T>> => {
    // Members run in the order they joined: the first to join is the first to run.
    const first = group.joined++ === 0;
    group.unfinished++;
    if (group.joined >= MAX_GROUP_MEMBERS) group.closed = true;
    const before = group.turn;
    let done!: () => void;
    group.turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    await before;
    let outcome: Outcome<T>;
    try {
      outcome = await runMember(group, fn, first);
    } finally {
      group.unfinished--;
      done();
      if (group.unfinished === 0) {
        // A full or broken group (closed) ends at once; others wait a turn for more members.
        if (group.closed) void finish(group);
        else scheduleCommit(group);
      }
    }
    if ('rejoin' in outcome) return outcome;
    try {
      await group.outcome;
    } catch (err) {
      return { ok: false, err };
    }
    return outcome;
  };

  return async <T>(fn: Work<T>, options: { wait?: boolean } = {}): Promise<T> => {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let failure: unknown;
      try {
        const outcome = await member(await join(), fn);
        if ('rejoin' in outcome) continue;
        if (outcome.ok) return outcome.value;
        failure = outcome.err;
      } catch (err) {
        failure = err; // the group could not begin
      }
      await parts.retryOrThrow(failure, started, attempt, options);
    }
  };
}
