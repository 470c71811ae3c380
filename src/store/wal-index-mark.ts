/**
 * How the SQLite store sees other connections' commits to its file: the header of the WAL
 * index (the `-shm` file), which every commit rewrites, read with one `pread`. The store's
 * revision (sqlite-dialect.ts), and so serve's read cache, keys on this mark.
 */
import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** The WAL index's version number (the first field of its header): what a wal-index file of this format starts with. */
const WAL_INDEX_VERSION = 3007000;
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * A mark that moves whenever another connection commits to the database file.
 *
 * In WAL mode (every store file), every connection shares the WAL index, the `-shm` file
 * beside the database, and every commit rewrites its 48-byte header (its change counter,
 * frame count and checksums; sqlite.org/walformat.html). Reading that header is one
 * `pread` of memory the kernel already holds; `PRAGMA data_version`, which answers the same
 * question, opens and closes a read transaction: two locks on the `-shm` file and a
 * `stat` of the database, three system calls, and under serve's load about 10% of a
 * request's time. A read that overlaps a commit may see the header half-written: that only
 * moves the mark once more (a value read again), never keeps it still. Where there is no
 * such index (another journal mode, a file the header does not check out in), the mark
 * falls back to data_version.
 */
export function otherCommits(db: Database.Database): {
  source: 'wal-index' | 'data_version';
  mark(): number;
  afterOwnCommit(): void;
  close(): void;
} {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const opened = walIndexFile(db);
  if (opened === null) return { source: 'data_version', mark: () => dataVersion.get() as number, afterOwnCommit: () => {}, close: () => {} };
  const { header: seen } = opened;
  // Null once closed: a second close must not close whatever file the kernel has since
  // given the same descriptor number.
  let index: number | null = opened.fd;
  const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let version = dataVersion.get() as number;
  let changes = 0;
  return {
    source: 'wal-index',
    mark: () => {
      if (index === null) return changes;
      readSync(index, header, 0, WAL_INDEX_HEADER_BYTES, 0);
      if (!header.equals(seen)) {
        header.copy(seen);
        changes++;
      }
      return changes;
    },
    // This connection's own commit rewrote the header too, and the mark is of the others'
    // commits alone (the store counts its own), so the header is taken as seen again. Read
    // first, then data_version (which moves only with other connections' commits): a commit
    // of theirs before the header was read shows in data_version, and one after it shows in
    // the next mark. Only a write pays these two reads.
    afterOwnCommit: () => {
      if (index === null) return;
      readSync(index, seen, 0, WAL_INDEX_HEADER_BYTES, 0);
      const now = dataVersion.get() as number;
      if (now !== version) {
        version = now;
        changes++;
      }
    },
    close: () => {
      if (index === null) return;
      closeSync(index);
      index = null;
    },
  };
}

/** The open `-shm` file of a WAL database whose header checks out, and that header; or null. */
function walIndexFile(db: Database.Database): { fd: number; header: Buffer } | null {
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  // A read makes SQLite open (or build) the WAL index; SQLite names it after the database
  // file with symbolic links resolved.
  db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
  let fd: number;
  try {
    fd = openSync(`${realpathSync(db.name)}-shm`, 'r');
  } catch {
    return null;
  }
  const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const read = readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0);
  // iVersion (native byte order) and isInit, set once the index is built.
  const version = header.readUInt32LE(0) === WAL_INDEX_VERSION || header.readUInt32BE(0) === WAL_INDEX_VERSION;
  if (read === WAL_INDEX_HEADER_BYTES && version && header[12] === 1) return { fd, header };
  closeSync(fd);
  return null;
}
