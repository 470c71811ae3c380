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
 * - It is atomic, without a savepoint of its own. A member that fails having changed
 *   nothing (its checks refused, or its one write was refused: SQLite takes back a failed
 *   statement) leaves nothing to take back, and the group goes on. A member that fails
 *   after a write completed can only be taken back with the whole transaction: the group is
 *   rolled back, the member fails with its error, and every other member, those that ran
 *   before it and those still waiting, starts again in a new group. That is safe because a
 *   transaction's function does nothing but store calls and pure work (the Store's rule; on
 *   PostgreSQL any transaction may run again). Failures after a write are rare (the rules
 *   check before they write), while a savepoint and its release for every member cost a
 *   final-grade PUT 5% of its instructions (SQLite also copies each page a member first
 *   changes into its statement journal).
 * - It is answered only once it is durable: every member's promise settles after the
 *   group's COMMIT, successes and failures alike (a failure may rest on what an earlier
 *   member wrote). If SQLite itself rolls the whole transaction back under a member (a full
 *   disk, an I/O error), the members start again in a new group as above. If the COMMIT
 *   fails, nothing of the group is stored and every member that ran fails with that error.
 *
 * The group closes at the first turn of the event loop with no member running or waiting
 * (so the requests that arrived in one read of the sockets share it), or at
 * MAX_GROUP_MEMBERS. Statements outside transactions wait for the COMMIT, as they wait for
 * any transaction.
 */
import type { StoreConnection } from './handle.js';

/** The connection a group runs on: one that says what it wrote and whether its transaction is open (SQLite's). */
type GroupConnection = StoreConnection & Required<Pick<StoreConnection, 'writesDone' | 'inTransaction'>>;

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
  conn: GroupConnection;
  /** Members that joined, and those not yet finished (running or waiting for their turn). */
  joined: number;
  unfinished: number;
  /** Settles when the member before the next one has finished. */
  turn: Promise<void>;
  /** Once set, no member may join: the group is committing or has ended. */
  closed: boolean;
  /**
   * Why a member broke the group (a failure after a write, or SQLite rolled the transaction
   * back under it), once one did: the other members run again in a new group. A failed
   * COMMIT is not a break: it fails every member (finish).
   */
  broken: { err: unknown } | null;
  commitScheduled: boolean;
  /** Settles once the group has committed (or failed); the connection is free after. */
  outcome: Promise<void>;
  settle(failure: { err: unknown } | null): void;
}

/** A group's connection must say what it wrote (SQLite's does). */
function assertGroupConnection(conn: StoreConnection): asserts conn is GroupConnection {
  if (!conn.writesDone || !conn.inTransaction) throw new Error('group commit needs a connection that counts its writes (writesDone, inTransaction)');
}

/**
 * A member's end: its value, its failure (its own, or the COMMIT's), or `rejoin` when
 * another member broke the group: what this one did, if anything, went with the group, so
 * it starts again. `brokeGroup` marks the member whose failure broke it.
 */
type Outcome<T> = { ok: true; value: T } | { ok: false; err: unknown; brokeGroup?: boolean } | { rejoin: true };

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
          assertGroupConnection(conn);
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
   * One member's work, with no savepoint (see the file's comment): a failure that changed
   * nothing costs the group nothing; one after a completed write, or one under which SQLite
   * rolled the whole transaction back, breaks the group, and the other members run again.
   */
  const runMember = async <T>(group: Group, fn: Work<T>): Promise<Outcome<T>> => {
    if (group.broken) return { rejoin: true };
    const writesBefore = group.conn.writesDone();
    try {
      return { ok: true, value: await fn(group.conn) };
    } catch (err) {
      if (!group.conn.inTransaction() || group.conn.writesDone() !== writesBefore) {
        group.broken = { err };
        group.closed = true;
        return { ok: false, err, brokeGroup: true };
      }
      return { ok: false, err };
    }
  };

  const member = async <T>(group: Group, fn: Work<T>): Promise<Outcome<T>> => {
    // Members run in the order they joined: the first to join is the first to run.
    group.joined++;
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
      outcome = await runMember(group, fn);
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
      // Another member broke the group: what this one wrote or read went with it, so it
      // runs again (a failure of its own included: it may rest on what is now undone).
      if (group.broken) return !outcome.ok && outcome.brokeGroup ? outcome : { rejoin: true };
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
