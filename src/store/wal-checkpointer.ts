/**
 * serve's SQLite checkpoints, on a thread of their own.
 *
 * A store file runs in WAL mode: a commit appends the pages it changed to the `-wal` file,
 * and a checkpoint later copies them into the database file and syncs it. SQLite runs that
 * checkpoint itself, on the connection whose commit took the WAL past 1,000 pages: under
 * serve that is the event loop's one connection, so every few hundred writes one request's
 * commit also copied a thousand pages and waited for two fsyncs. Under the serve benchmark's
 * writes that was about 7% of the main thread's time, and the fsyncs were its longest pauses.
 *
 * Here a worker thread with a connection of its own runs `PRAGMA wal_checkpoint(PASSIVE)`
 * shortly after the main connection's commits. A passive checkpoint takes no lock that a
 * reader or writer waits for, and never calls a busy handler: it copies what it can and
 * returns. It changes neither the WAL index's header nor `data_version`, so it is not seen
 * as another program's commit (wal-index-mark.ts).
 *
 * The main connection keeps an automatic checkpoint of its own as a backstop, at
 * BACKSTOP_PAGES. SQLite only starts the WAL over from its beginning when a write begins
 * after everything in it was copied, which a checkpoint running beside a stream of writes
 * seldom achieves: without the backstop the WAL grew to 500 MB in ten seconds of the
 * benchmark. With it, the main connection's checkpoint finds all but the last few
 * milliseconds of pages copied already, and the WAL stays under BACKSTOP_PAGES pages. If the
 * thread cannot start or fails, the connection's automatic checkpoint goes back to SQLite's
 * default, and the store works as it does without this.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** SQLite's own default for wal_autocheckpoint: what a connection without a checkpointer uses. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** The main connection's automatic checkpoint while a checkpointer runs (pages: 16 MB at 4 KB). */
export const BACKSTOP_PAGES = 4000;
/** How long the thread waits after a commit for more, before it checkpoints them together (20 ms measured no different). */
const GATHER_MS = 10;

/** Indexes into the shared signal: commits seen by the main connection, and the stop flag. */
const COMMITS = 0;
const STOP = 1;

export interface WalCheckpointer {
  /** The main connection committed: pages are waiting to be copied. Cheap (an atomic add). */
  committed(): void;
  /** Stop the thread and close its connection (before the main connection closes, so the last close removes the WAL). */
  close(): Promise<void>;
}

/**
 * The thread's program. CommonJS text, evaluated by the Worker, so it runs the same from the
 * sources (tests), the transpiled modules and the bundle, which has no file of its own for it.
 */
const CHECKPOINT_LOOP = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const signal = new Int32Array(workerData.signal);
const db = new Database(workerData.path, { fileMustExist: true });
// A passive checkpoint never waits on a lock; this is for the statements around it.
db.pragma('busy_timeout = 0');
let seen = 0;
while (Atomics.load(signal, ${STOP}) === 0) {
  // Until the count of commits moves from what was last seen (closing moves it too).
  Atomics.wait(signal, ${COMMITS}, seen);
  if (Atomics.load(signal, ${STOP}) !== 0) break;
  Atomics.wait(signal, ${STOP}, 0, workerData.gatherMs);
  if (Atomics.load(signal, ${STOP}) !== 0) break;
  seen = Atomics.load(signal, ${COMMITS});
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or gone for a moment: the main connection's backstop checkpoint covers it.
  }
}
db.close();
`;

/**
 * Start a checkpointer for the WAL-mode file `db` has open, and raise the connection's own
 * automatic checkpoint to the backstop. `onFailure` hears once if the thread stops on an error.
 */
export function startWalCheckpointer(db: Database.Database, options: { onFailure?: (err: Error) => void } = {}): WalCheckpointer {
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINT_LOOP, {
    eval: true,
    workerData: { path: db.name, sqlite, signal: signal.buffer, gatherMs: GATHER_MS },
  });
  // Never what keeps the process alive: serve's own handles do that.
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let running = true;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (err) => {
    running = false;
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    options.onFailure?.(err);
  });
  return {
    committed: () => {
      if (!running) return;
      Atomics.add(signal, COMMITS, 1);
      Atomics.notify(signal, COMMITS);
    },
    close: async () => {
      running = false;
      // The count moves too, so no moment of the thread's loop misses the stop: a thread
      // busy checkpointing (or still starting) when these notifications go out would
      // otherwise go back to waiting for a commit that never comes. A close then hung.
      Atomics.store(signal, STOP, 1);
      Atomics.add(signal, COMMITS, 1);
      Atomics.notify(signal, COMMITS);
      Atomics.notify(signal, STOP);
      await exited;
      if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    },
  };
}
