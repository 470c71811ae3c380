/** What opening a store shares between the dialects: where it is, the pool size, a too-new schema. */
import { AppError } from '../errors.js';
import { SCHEMA_VERSION } from './migrations.js';

export interface OpenOptions {
  /** PostgreSQL only: the most connections this process holds (default 10). */
  pool?: number;
  /**
   * SQLite file only: the WAL's checkpoints run on a thread of their own (serve;
   * wal-checkpointer.ts). onFailure hears once if that thread cannot start or stops.
   */
  checkpointThread?: { onFailure(err: Error): void };
}

export const DEFAULT_POOL_SIZE = 10;

/** Whether a --db value names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL with any password removed: what logs, errors and `whoami` may show. */
export function redactUrl(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const u = new URL(location);
    if (u.password) u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

export function tooNewStore(path: string, version: number): AppError {
  return new AppError(
    'unsupported',
    `The store ${path} has schema version ${version}, written by a newer coursebook; this build knows up to version ${SCHEMA_VERSION}. Upgrade coursebook to open it.`,
    { storeVersion: version, supportedVersion: SCHEMA_VERSION },
  );
}
