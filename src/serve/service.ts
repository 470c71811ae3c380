/**
 * The service `coursebook serve` runs, without its socket: the store opened (and seeded,
 * from the seed cache when it can), the clock, ids, limits, logging and fixture tools, and
 * the app over them (buildService). server.ts puts it on a port; tests use it in-process.
 */
import { bearerAuthenticator, type JwtVerifier } from '../api/auth.js';
import type { AppDeps, FixtureTools } from '../api/context.js';
import type { Grader } from '../api/grader.js';
import { parseRateLimit, tokenBucketLimiter } from '../api/rate-limit.js';
import { ReadCache } from '../api/read-cache.js';
import { lazyApp } from '../api/route-table.js';
import { faultRules } from '../domain/fixture/faults.js';
import { requestJournal } from '../domain/fixture/journal.js';
import { resetRefusal, resetRefusedMessage, type SeedOutcome } from '../domain/fixture/reset-refusal.js';
import { AppError } from '../errors.js';
import { controllableClock } from '../runtime/controllable-clock.js';
import { nodeCrypto } from '../runtime/crypto.js';
import { type Ids, randomIds, sequentialIds } from '../runtime/ids.js';
import { resetGate } from '../runtime/reset-gate.js';
import type { DatasetInput } from '../schemas/dataset.js';
import { openSqlite, openStore, type Store } from '../store/db.js';
import { type FixtureMark, fixtureMark, markFixtureStore } from '../store/fixture-marks.js';
import { storeTakenCheck } from '../store/ids-in-use.js';
import { keepRevoked, revokedTokens } from '../store/tokens.js';
import { isStoreEmpty, wipeStore } from '../store/wipe.js';
import { DEFAULT_JOURNAL_SIZE, DEFAULT_RATE_LIMIT, DETERMINISTIC_EPOCH } from './defaults.js';
import { bundledBuild, type SeedCache, seedCacheKey } from './seed-cache.js';

export interface ServeOptions {
  /** Runs grade computations; startServer gives a pool of worker threads. */
  grader?: Grader | undefined;
  /** A SQLite file path, ':memory:' or a PostgreSQL URL (which may hold a password: print `store.path`, never this). */
  db: string;
  /** PostgreSQL only: the most connections this process opens (--db-pool; the store's default when undefined). */
  dbPool?: number | undefined;
  /**
   * The seed dataset's file name (for messages) and text, read by the caller; with `bytes`
   * (the file as read) the text is asked for only when the seed is imported.
   */
  seed?: { name: string; text: string | (() => Promise<string>); bytes?: Uint8Array } | undefined;
  /** Load the seed over a store that already holds data (replace semantics). */
  reseed?: boolean;
  /** `--memory` with a seed: where loaded stores are kept as images (seed-cache.ts); null or absent: none. */
  seedCache?: SeedCache | null | undefined;
  host: string;
  port: number;
  portFile?: string | undefined;
  now?: string | undefined;
  deterministic: boolean;
  /** The fixture control routes (/_admin/...) and POST /_reset. */
  allowAdmin: boolean;
  /** POST /_reset alone (--allow-reset without --allow-admin). */
  allowReset?: boolean;
  /** Allowed browser origins (`['*']` for any), or none. */
  cors?: string[] | null | undefined;
  /** N/s, N/min or off; undefined: off for an in-memory store, 600/min for a file. */
  rateLimit?: string | undefined;
  rateBurst?: number | undefined;
  /** Failed authentications per client address: N/s, N/min or off. */
  authFailureLimit?: string;
  maxBody: number;
  jwt?: JwtVerifier | null;
  log: 'json' | 'pretty' | 'off';
  stderr: { write(s: string): unknown };
  /** Requests the journal keeps (--journal-size, default 1000). */
  journalSize?: number | undefined;
  /** --delay: every answer waits this long. */
  delayMs?: number | undefined;
  /** The wall clock in epoch milliseconds and a timer, injectable for tests. */
  wallMs?: () => number;
  /** Waits `ms`, or until the signal aborts (a reset began). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds: the request headers must arrive within this (slowloris). */
  headersTimeoutMs?: number;
  /** Milliseconds: the whole request, body included, must arrive within this. */
  requestTimeoutMs?: number;
  /** Milliseconds requests in flight may take to finish after a stop before their sockets are cut. */
  shutdownTimeoutMs?: number;
}

/** The admin `serve --memory` creates when there is no seed, so an empty fixture is usable at once. */
export const GENERATED_ADMIN_ID = 'usr_admin';

export interface BuiltService {
  /** The service's routes, loaded as requests reach them (api/route-table.ts lazyApp). */
  app: ReturnType<typeof lazyApp>;
  store: Store;
  deps: AppDeps;
  /** The generated admin's token (`serve --memory` without a seed), else null. */
  adminToken: string | null;
  /** Start-up and shutdown notes on stderr. */
  note: ReturnType<typeof notice>;
}

export const DEFAULT_AUTH_FAILURE_LIMIT = '30/min';

function logger(mode: ServeOptions['log'], stderr: ServeOptions['stderr'], wallMs: () => number) {
  if (mode === 'off') return null;
  const time = () => new Date(wallMs()).toISOString();
  if (mode === 'json') return (entry: Record<string, unknown>) => void stderr.write(JSON.stringify({ time: time(), ...entry }) + '\n');
  return (entry: Record<string, unknown>) => {
    if (entry.event !== 'request') return void stderr.write(`${time()} ${entry.event}: ${entry.error ?? ''}\n`);
    const query = entry.query ? `?${entry.query}` : '';
    const fault = entry.fault ? ` fault=${entry.fault}` : '';
    stderr.write(
      `${time()} ${entry.method} ${entry.path}${query} ${entry.status ?? 'dropped'} ${entry.ms}ms ${entry.caller ?? '-'} ${entry.requestId}${fault}\n`,
    );
  };
}

/** Start-up and shutdown notes: always written (whatever --log says), as a JSON line under --log json. */
function notice(mode: ServeOptions['log'], stderr: ServeOptions['stderr']) {
  return (event: string, text: string, fields: Record<string, unknown> = {}) =>
    void stderr.write(mode === 'json' ? `${JSON.stringify({ event, message: text, ...fields })}\n` : `coursebook serve: ${text}\n`);
}

function rateLimitFor(o: ServeOptions) {
  if (o.rateLimit === undefined && o.db === ':memory:') {
    if (o.rateBurst !== undefined) throw new Error('--rate-burst has no effect: with --memory the rate limit is off unless --rate-limit is given');
    return null;
  }
  return parseRateLimit(o.rateLimit ?? DEFAULT_RATE_LIMIT, o.rateBurst);
}

const seedText = async (seed: NonNullable<ServeOptions['seed']>): Promise<string> => (typeof seed.text === 'string' ? seed.text : seed.text());

/** The seed's identity in a fixture's mark: the SHA-256 of the file as read. */
const seedSha256 = async (seed: NonNullable<ServeOptions['seed']>): Promise<string> =>
  nodeCrypto()
    .createHash('sha256')
    .update(seed.bytes ?? (await seedText(seed)))
    .digest('hex');

async function parseSeed(seed: NonNullable<ServeOptions['seed']>): Promise<unknown> {
  const text = await seedText(seed);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('invalid', `--seed ${seed.name} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The dataset import, loaded when a seed is imported: it brings every resource's schema,
 * which a start from the seed cache never needs (routes load theirs as requests arrive).
 */
const loadImport = async () => (await import('../store/dataset.js')).importDataset;

/** The store kept for this seed, or null (none kept, or an image that no longer opens: the seed is imported). */
async function openCachedSeed(cache: SeedCache, key: string): Promise<Store | null> {
  const image = await cache.read(key).catch(() => null);
  if (!image) return null;
  try {
    return openSqlite(':memory:', image);
  } catch {
    return null;
  }
}

/** serve's own wait (--delay, a rule's delayMs): `ms` milliseconds, or less when `signal` aborts (a reset began). */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A seed of one admin and a full-scope token, for `serve --memory` with no seed. */
function generatedAdminSeed(token: string): DatasetInput {
  return {
    coursebook: 1,
    users: [{ id: GENERATED_ADMIN_ID, name: 'Fixture admin', admin: true }],
    tokens: [{ id: 'tok_admin', token, userId: GENERATED_ADMIN_ID, scopes: ['*'], name: 'generated by serve --memory' }],
  };
}

/**
 * The whole service without a socket: store, seed, clock, ids, fixture tools and the app.
 * startServer puts it on a port; tests may call it directly and use `app.request`.
 */
export async function buildService(o: ServeOptions): Promise<BuiltService> {
  // Everything that can be refused before the store is opened is checked first.
  const rate = rateLimitFor(o);
  const authFailures = parseRateLimit(o.authFailureLimit ?? DEFAULT_AUTH_FAILURE_LIMIT, undefined, '--auth-failure-limit');
  const wallMs = o.wallMs ?? (() => Date.now());
  const note = notice(o.log, o.stderr);
  let adminToken: string | null = null;
  const frozenAt = o.now ?? (o.deterministic ? DETERMINISTIC_EPOCH : null);
  const clock = controllableClock(frozenAt, wallMs);
  // --memory --seed: the store an earlier start loaded from the same seed, if kept.
  const cache = o.seed && o.db === ':memory:' && o.seedCache ? o.seedCache : null;
  const cacheBuild = cache ? (cache.build ?? bundledBuild(import.meta.url)) : null;
  const cacheKey = cache && cacheBuild && o.seed ? seedCacheKey(cacheBuild, o.seed.bytes ?? (await seedText(o.seed)), frozenAt) : null;
  const cached = cache && cacheKey ? await openCachedSeed(cache, cacheKey) : null;

  let seed: unknown = null;
  // From the cache, the seed is parsed only if a reset asks for it.
  if (o.seed && !cached) seed = await parseSeed(o.seed);
  else if (!o.seed && o.db === ':memory:') {
    adminToken = (o.deterministic ? sequentialIds() : randomIds()).secret();
    seed = generatedAdminSeed(adminToken);
  }
  const parsedSeed = async (): Promise<unknown> => {
    if (seed === null && o.seed) seed = await parseSeed(o.seed);
    return seed;
  };
  // On a SQLite file, the WAL's checkpoints run on a thread of their own (wal-checkpointer.ts).
  const checkpointThread = {
    onFailure: (err: Error) =>
      note('checkpoint-inline', `warning: the checkpoint thread stopped (${err.message}); the store checkpoints on the main thread`, { error: err.message }),
  };
  const store = cached ?? (await openStore(o.db, { checkpointThread, ...(o.dbPool === undefined ? {} : { pool: o.dbPool }) }));
  if (cached) note('seed-cached', `loaded ${o.seed?.name} from the seed cache in ${cache?.where} (--no-seed-cache imports it again)`, { seed: o.seed?.name });

  // Sequential ids skip every id and token secret the store already holds (the seed's).
  const makeIds = async (from: Store): Promise<Ids> => (o.deterministic ? sequentialIds(await storeTakenCheck(from)) : randomIds());
  // Reset swaps the id source for a fresh one; the app reads it through this holder. Made
  // once the seed is in, so that it skips the seed's ids.
  let ids: Ids = randomIds();
  // What became of --seed: a reset may wipe only a store the seed was loaded into (or one in memory).
  let seedOutcome: SeedOutcome = cached ? 'loaded' : 'none';
  const allowReset = o.allowAdmin || o.allowReset === true;
  // A file or database this serve makes from its seed, with the reset enabled, is marked so:
  // a restart with the same seed (after a crash) knows it as the fixture's own and may reset
  // it. Never a store that held data at start: the mark is written only with the seed's load.
  const mark: FixtureMark | null = allowReset && o.seed && o.db !== ':memory:' ? { seedSha256: await seedSha256(o.seed), seedName: o.seed.name } : null;
  try {
    // A seed goes into an empty store only: restarting the same command after a crash must
    // not undo acknowledged work. --reseed replaces, said out loud; even then the import
    // keeps revoked tokens revoked and never appends history again (importDataset).
    // "Empty?" and the import are one transaction: instances started together on one empty
    // PostgreSQL database load the seed once (the others' transactions are run again, find
    // it loaded and skip it), as processes sharing a new SQLite file queue on its lock.
    if (seed !== null) {
      const seedName = o.seed?.name ?? 'the generated admin';
      // Whether the import took a time from a running clock (then its store is not kept).
      let readRunningClock = false;
      const watched = {
        now: () => {
          if (frozenAt === null) readRunningClock = true;
          return clock.now();
        },
      };
      const outcome = await store.tx(async (tx): Promise<SeedOutcome> => {
        if (await isStoreEmpty(tx)) {
          await (await loadImport())(tx, watched, seed, { replace: false });
          if (mark) await markFixtureStore(tx, mark);
          return 'loaded';
        }
        if (mark && (await fixtureMark(tx))?.seedSha256 === mark.seedSha256) {
          if (o.reseed) await (await loadImport())(tx, clock, seed, { replace: true });
          return 'restarted';
        }
        if (!o.reseed) return 'skipped';
        await (await loadImport())(tx, clock, seed, { replace: true });
        return 'replaced';
      });
      seedOutcome = outcome;
      if (outcome === 'loaded' && cache && cacheKey && !readRunningClock && store.snapshot)
        await cache.write(cacheKey, store.snapshot()).catch(() => undefined);
      // Said once the outcome is known: a transaction run again must not say it twice.
      if (outcome === 'replaced')
        note('reseed', `--reseed: replacing records of ${store.path} with those of ${seedName} (revoked tokens stay revoked; history is kept)`, {
          db: store.path,
          seed: seedName,
        });
      else if (outcome === 'restarted')
        note(
          'fixture-restarted',
          `${store.path} was made from ${seedName} by an earlier start (it holds its mark), so ${seedName} was not loaded again${o.reseed ? ' (--reseed replaced its records)' : ''}; a reset restores it`,
          { db: store.path, seed: seedName },
        );
      else if (outcome === 'skipped')
        note('seed-skipped', `${store.path} already holds data, so ${seedName} was not loaded (--reseed replaces its records)`, {
          db: store.path,
          seed: seedName,
        });
    }
  } catch (err) {
    await store.close();
    throw err;
  }
  ids = await makeIds(store);

  const control = o.allowAdmin ? { journal: requestJournal(o.journalSize ?? DEFAULT_JOURNAL_SIZE), faults: faultRules(), clock } : null;
  const gate = allowReset ? resetGate() : null;
  // A reset deletes every record: on a store that is not the fixture's own (a real one) it is
  // refused, and said at start, so a pipeline learns it before its first reset.
  const refusal = allowReset ? resetRefusal({ path: store.path, memory: o.db === ':memory:' }, { name: o.seed?.name ?? null, outcome: seedOutcome }) : null;
  const resetFlag = o.allowAdmin ? '--allow-admin' : '--allow-reset';
  if (refusal) note('reset-refused', `warning: ${resetFlag}: POST /api/v1/_reset will be refused: ${refusal.reason}. ${refusal.fix}`, { db: store.path });
  const fixture: FixtureTools = {
    control,
    delayMs: o.delayMs ?? 0,
    sleep: o.sleep ?? wait,
    wallClock: { now: () => new Date(wallMs()).toISOString() },
  };
  const deps: AppDeps = {
    store,
    clock,
    ids: { next: (p) => ids.next(p), draw: (n) => ids.draw(n), secret: () => ids.secret() },
    auth: bearerAuthenticator({ jwt: o.jwt ?? null }),
    rateLimiter: rate ? tokenBucketLimiter(rate) : null,
    authFailureLimiter: authFailures ? tokenBucketLimiter(authFailures) : null,
    options: {
      allowReset,
      allowAdmin: o.allowAdmin,
      cors: o.cors && o.cors.length > 0 ? (o.cors.includes('*') ? '*' : o.cors) : null,
      maxBody: o.maxBody,
      log: logger(o.log, o.stderr, wallMs),
    },
    fixture,
    grader: o.grader ?? null,
    readCache: new ReadCache(),
    // A reset restores the seed exactly: records, ids and the seed's clock; fault rules go.
    // The journal stays (it is a record of what happened; DELETE /_admin/requests empties it).
    // The seed is restored exactly, except that a revocation is never undone. It runs
    // through the gate: requests still waiting are answered unserved, those being served
    // finish first, and those arriving meanwhile wait until it is done.
    resetGate: gate,
    reset: gate
      ? async () => {
          // Refused before the gate: no request waiting is cut short, none is held.
          if (refusal) throw new AppError('conflict', resetRefusedMessage(refusal));
          await gate.run(async () => {
            clock.restore();
            control?.faults.clear();
            await store.tx(async (tx) => {
              const revoked = await revokedTokens(tx);
              await wipeStore(tx);
              const reseed = await parsedSeed();
              if (reseed !== null) await (await loadImport())(tx, clock, reseed, { replace: false });
              if (mark) await markFixtureStore(tx, mark);
              await keepRevoked(tx, revoked);
              ids = await makeIds(tx);
            });
          });
        }
      : null,
  };
  // The control routes exist only with --allow-admin (createApp registers them only then).
  const controlRoutes = o.allowAdmin ? (await import('../api/routes/admin.js')).fixtureControlRoutes : [];
  return { app: lazyApp(deps, controlRoutes), store, deps, adminToken, note };
}
