import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { API_PREFIX, defaultStorePath, serviceRoot } from './client.js';
import { type ConfigSource, configPath, defaultProfileName, missingDefaultProfile, type Profile, profileNamed, redact } from './config.js';
import type { Env } from './io.js';
import { UsageError } from './usage-error.js';

/** The options every command inherits from `coursebook`. */
export interface GlobalOptions {
  db?: string;
  /** --db-pool N as typed (checked by backend.ts dbPoolSize). */
  dbPool?: string;
  memory?: boolean;
  baseUrl?: string;
  token?: string;
  profile?: string;
  as?: string;
  json?: boolean;
  input?: boolean;
  /** A JMESPath expression applied to the JSON output. */
  query?: string;
}

/** The profile in effect and its name (undefined when none applies). */
export interface SelectedProfile {
  name?: string;
  profile: Profile;
}

/**
 * Flags > environment > profile > default (cli-and-serve.md). The profile is --profile,
 * else COURSEBOOK_PROFILE, else the one `config use` chose, else the one named `default`.
 * A back-end flag (--db, --memory, --base-url) without --profile sets the default profile
 * aside whole: its settings (its course too) describe its own back end. A default chosen
 * with `config use` that the file no longer has is a usage error, not a silent local store.
 */
export async function selectedProfile(g: GlobalOptions, env: Env, config: ConfigSource): Promise<SelectedProfile> {
  const profileName = g.profile ?? env.COURSEBOOK_PROFILE;
  if (profileName === undefined && (g.db || g.memory || g.baseUrl)) return { profile: {} };
  const file = await config();
  const name = profileName ?? defaultProfileName(file);
  if (name === undefined) return { profile: {} };
  const found = profileNamed(file, name);
  if (!found) {
    if (profileName !== undefined) throw new UsageError(`no profile named ${JSON.stringify(name)} (see coursebook config list)`);
    throw new UsageError(missingDefaultProfile(configPath(env), name));
  }
  return { name, profile: found };
}

const pick = <T>(...values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined && v !== '');

/** A --db value with a scheme (`postgres://...`, `mysql://...`): a URL, never a file path. */
const isUrlShaped = (location: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(location);

export interface StorePath {
  path: string;
  /** The default location ($XDG_DATA_HOME/coursebook/coursebook.db): its folder is created on demand. */
  isDefault: boolean;
}

/**
 * The local store a command (or serve) uses: --memory, --db, COURSEBOOK_DB, the profile's db,
 * else the default path. The path may be a PostgreSQL URL (postgres://USER@HOST:PORT/DB):
 * src/store/db.ts decides the dialect, so that rule has one home.
 */
export function resolveStorePath(g: GlobalOptions, env: Env, profile: Profile): StorePath {
  refuseTwoStores(g);
  if (g.memory) return { path: ':memory:', isDefault: false };
  const chosen = pick(g.db, env.COURSEBOOK_DB, profile.db);
  return chosen === undefined ? { path: defaultStorePath(env), isDefault: true } : { path: chosen, isDefault: false };
}

export type Backend =
  | { kind: 'remote'; baseUrl: string; token?: string; profile?: string }
  | {
      kind: 'local';
      /** A file path, ':memory:' or a PostgreSQL URL (which may hold a password: print it through `redact('db', ...)`). */
      db: string;
      isDefault: boolean;
      memory: boolean;
      as?: string;
      /** Where `as` came from, for messages about it. */
      asFrom?: ActingUserSource;
      profile?: string;
      /** --db-pool: the most PostgreSQL connections this process opens (undefined: the store's default). */
      pool?: number;
    };

/** The largest --db-pool accepted: far above any server's max_connections default, low enough to catch a typo. */
export const MAX_DB_POOL = 1000;

/** --db-pool N: a whole number of connections from 1 to MAX_DB_POOL, or undefined when not given. */
export function dbPoolSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_DB_POOL)
    throw new UsageError(`--db-pool must be a whole number of connections from 1 to ${MAX_DB_POOL} (got ${JSON.stringify(value)})`);
  return n;
}

/**
 * --db-pool sizes a PostgreSQL connection pool. A SQLite store has one connection per
 * process, so on SQLite the flag would do nothing: refused rather than silently ignored.
 */
export function refusePoolForSqlite(pool: number | undefined, postgres: boolean): void {
  if (pool !== undefined && !postgres)
    throw new UsageError('--db-pool sizes the connection pool of a PostgreSQL store (--db postgres://...); a SQLite store has one connection');
}

function refuseTwoStores(g: GlobalOptions): void {
  if (!(g.memory && g.db !== undefined)) return;
  // --memory is always SQLite: said outright when --db names a database server.
  if (isUrlShaped(g.db)) throw new UsageError('--memory is a throwaway SQLite store and --db names a database server (PostgreSQL): give one, not both');
  throw new UsageError('--memory and --db both name a local store: give one');
}

/**
 * Where an acting user came from: the flag, COURSEBOOK_AS, or a profile's `as` (the profile
 * in effect, or the one --to/--from names: `flag`). Messages about it name that setting.
 */
export type ActingUserSource = { kind: 'flag' } | { kind: 'env' } | { kind: 'profile'; name: string; flag?: string };

/** The acting user that applies, by precedence (flag, environment, profile), and its source; undefined when none. */
function actingUser(g: GlobalOptions, env: Env, profileName: string | undefined, profile: Profile): { as: string; asFrom: ActingUserSource } | undefined {
  if (g.as !== undefined && g.as !== '') return { as: g.as, asFrom: { kind: 'flag' } };
  if (env.COURSEBOOK_AS !== undefined && env.COURSEBOOK_AS !== '') return { as: env.COURSEBOOK_AS, asFrom: { kind: 'env' } };
  if (profile.as !== undefined && profile.as !== '') return { as: profile.as, asFrom: { kind: 'profile', name: profileName ?? 'default' } };
  return undefined;
}

/** A profile as messages name it (`the profile "work"`, with the flag that named it), and the `config` command that removes its `as`. */
function profileAs(name: string, flag?: string): { which: string; unset: string } {
  return {
    which: `the profile ${JSON.stringify(name)}${flag === undefined ? '' : ` (${flag})`}`,
    unset: `coursebook config unset as${name === 'default' && flag === undefined ? '' : ` --name ${name}`}`,
  };
}

/**
 * A local store without the acting user: said of the setting that named it, with its fix
 * (the flag needs none: the value is on the command line).
 */
export function unknownActingUser(as: string, from: ActingUserSource | undefined): string {
  const missing = 'a user that does not exist in this store';
  if (from === undefined || from.kind === 'flag') return `--as names ${missing}: ${JSON.stringify(as)}`;
  if (from.kind === 'env') return `COURSEBOOK_AS (${JSON.stringify(as)}) names ${missing} (unset COURSEBOOK_AS, or give --as USER)`;
  const { which, unset } = profileAs(from.name, from.flag);
  const set = unset.replace('unset as', 'set as USER');
  // A profile named by --to/--from is the other end: the user is missing from its store.
  const where = from.flag === undefined ? missing : missing.replace('this store', 'its store');
  return `${which} sets as (${JSON.stringify(as)}), ${where} (set another with ${set}, or remove it with ${unset})`;
}

/** What an acting user (--as, COURSEBOOK_AS, a profile's as) is, and why a service takes none. */
const AGAINST_A_SERVICE = 'acts as a user of a local store; against a remote service the token says who you are';

/** Local-only flags next to a remote back end are a usage error, not silently ignored. */
function refuseMixedFlags(g: GlobalOptions, remote: boolean): void {
  refuseTwoStores(g);
  if ((g.memory || g.db !== undefined) && g.baseUrl !== undefined)
    throw new UsageError(`${g.memory ? '--memory' : '--db'} selects a local store and --base-url a remote service: give one`);
  if (remote && g.as !== undefined) throw new UsageError(`--as ${AGAINST_A_SERVICE} (drop --as, or use --db)`);
  if (remote && g.dbPool !== undefined) throw new UsageError('--db-pool sizes the connection pool of a local PostgreSQL store; a remote service has its own');
}

/**
 * The back end of a command. `--as` acts as a user of a local store: against a service the
 * token says who you are, so an acting user from any source (the flag, COURSEBOOK_AS, the
 * profile's `as`) with a remote back end is refused, naming where it came from, before any
 * request. With a local back end (a profile's `as` with --db too) it applies as always.
 */
export async function resolveBackend(g: GlobalOptions, env: Env, config: ConfigSource): Promise<Backend> {
  refuseMixedFlags(g, false);
  const { name, profile } = await selectedProfile(g, env, config);
  const named = name === undefined ? {} : { profile: name };
  const localFlag = g.db !== undefined || g.memory === true;
  const baseUrl = localFlag ? undefined : pick(g.baseUrl, env.COURSEBOOK_BASE_URL, profile.baseUrl);
  if (baseUrl) {
    refuseMixedFlags(g, true);
    refuseActingUser(env, name, profile);
    const token = pick(g.token, env.COURSEBOOK_TOKEN, profile.token);
    return { kind: 'remote', baseUrl, ...(token === undefined ? {} : { token }), ...named };
  }
  const acting = actingUser(g, env, name, profile);
  const store = resolveStorePath(g, env, profile);
  const pool = dbPoolSize(g.dbPool);
  return {
    kind: 'local',
    db: store.path,
    isDefault: store.isDefault,
    memory: g.memory === true,
    ...acting,
    ...named,
    ...(pool === undefined ? {} : { pool }),
  };
}

/**
 * An acting user that would otherwise be silently ignored by a remote back end, from the
 * environment or the profile (the flag is refused with the other local-only flags), named
 * as the source that would have applied: flags beat the environment, which beats the profile.
 */
function refuseActingUser(env: Env, profileName: string | undefined, profile: Profile): void {
  const acting = actingUser({}, env, profileName, profile);
  if (acting?.asFrom.kind === 'env')
    throw new UsageError(`COURSEBOOK_AS (${JSON.stringify(acting.as)}) ${AGAINST_A_SERVICE} (unset COURSEBOOK_AS, or use --db)`);
  if (acting?.asFrom.kind === 'profile') {
    const { which, unset } = profileAs(acting.asFrom.name);
    throw new UsageError(`${which} sets as (${JSON.stringify(acting.as)}), which ${AGAINST_A_SERVICE} (remove it with ${unset}, or use --db)`);
  }
}

/**
 * Before a SQLite store file is opened: a new store's folder must exist unless it is the
 * default location (created on demand), and a new store is announced on stderr. The caller
 * sends PostgreSQL URLs elsewhere (src/cli/local.ts prepareStore); any other URL is refused
 * here, since as a file path it would name a folder `mysql:` in the working directory.
 */
export function prepareStoreFile(store: StorePath, note: (message: string) => void): void {
  if (isUrlShaped(store.path))
    throw new UsageError(
      `--db takes a SQLite file path, :memory: or a PostgreSQL URL (postgres://USER@HOST:PORT/DB); got ${JSON.stringify(redact('db', store.path))}`,
    );
  if (store.path === ':memory:' || existsSync(store.path)) return;
  const folder = dirname(store.path);
  if (!existsSync(folder)) {
    if (!store.isDefault)
      throw new UsageError(
        `cannot create the store ${store.path}: the folder ${folder} does not exist (create it first; only the default store's folder is made for you)`,
      );
    mkdirSync(folder, { recursive: true });
  }
  note(`creating a new store at ${store.path}`);
}

/** The back end as `whoami` shows it: `local <store path>` or `remote <the service's root>` (serviceRoot: no credentials), and the profile. */
export function describeBackend(backend: Backend | null): { backend: string; profile: string } {
  if (!backend) return { backend: '', profile: '' };
  const where = backend.kind === 'remote' ? `remote ${serviceRoot(backend.baseUrl)}` : `local ${redact('db', backend.db)}`;
  return { backend: where, profile: backend.profile ?? '' };
}

// --- #14 offline authoring round trip: the two ends of a push, pull or diff ---------------

/** The copy a command works from (`here`) and the remote it pushes to or pulls from (`there`). */
export interface SyncEnds {
  here: Backend;
  there: Backend;
  /** How this store names the remote in its sync marks (no credentials), and shows it. */
  remote: string;
  /** Every name this store may hold the remote's sync marks under, `remote` first (syncMarkKeys). */
  remoteKeys: string[];
}

/** A profile used as the remote: its service (baseUrl, token) or its store file (db, as). A service's profile with `as` is refused, as for resolveBackend. */
function profileBackend(profile: Profile, name: string, flag: string): Backend {
  if (profile.baseUrl) {
    if (profile.as !== undefined && profile.as !== '') {
      const { which, unset } = profileAs(name, flag);
      throw new UsageError(`${which} sets as (${JSON.stringify(profile.as)}), which ${AGAINST_A_SERVICE} (remove it with ${unset})`);
    }
    return profile.token ? { kind: 'remote', baseUrl: profile.baseUrl, token: profile.token } : { kind: 'remote', baseUrl: profile.baseUrl };
  }
  if (profile.db)
    return {
      kind: 'local',
      db: profile.db,
      isDefault: false,
      memory: false,
      ...(profile.as ? { as: profile.as, asFrom: { kind: 'profile', name, flag } } : {}),
    };
  throw new UsageError(`profile ${JSON.stringify(name)} (${flag}) has neither a baseUrl nor a db; set one with coursebook config set`);
}

/**
 * A back end's name in sync marks: a service's one URL (serviceRoot: its root, whether it
 * was given as `http://host:8080` or `http://host:8080/api/v1/`, without credentials); `store:`
 * and the file's absolute path; or `store:` and a PostgreSQL URL without user, password or
 * query (whoever connects, it is the same database).
 */
export function backendKey(b: Backend): string {
  if (b.kind === 'local') {
    if (!isUrlShaped(b.db)) return `store:${b.db === ':memory:' ? b.db : resolve(b.db)}`;
    return `store:${withoutCredentials(b.db, '--db')}`;
  }
  return serviceRoot(b.baseUrl);
}

/**
 * The names a store may hold a back end's sync marks under, the current one first. Before
 * service URLs had one form a mark was kept under the URL as given, less credentials, query
 * and trailing slashes: for a service given as its API that is the root and `/api/v1`.
 */
export function syncMarkKeys(b: Backend): string[] {
  const key = backendKey(b);
  return b.kind === 'remote' ? [key, `${key}${API_PREFIX}`] : [key];
}

function withoutCredentials(location: string, flag: string): string {
  try {
    const u = new URL(location);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    throw new UsageError(`${flag} is not a URL: ${JSON.stringify(location.replace(/\/\/[^@/]*@/, '//'))}`);
  }
}

/**
 * What to do when --to/--from names no profile. A store file's path or a service's URL is
 * what people try first; the flag takes a profile, so the hint says how to make one of it.
 */
function profileHint(name: string): string {
  if (/^https?:\/\//i.test(name))
    return `: it takes a profile; make one of the service with coursebook config set baseUrl ${name} --name NAME (and config set token ... --name NAME), or give --base-url and --token instead`;
  if (/^postgres(ql)?:\/\//i.test(name) || /[\\/]|\.(db|sqlite3?)$/i.test(name))
    return `: it takes a profile; make one of the store with coursebook config set db ${name} --name NAME`;
  return ' (see coursebook config list)';
}

/**
 * The two ends of `courses push|pull|diff`. With `--to/--from PROFILE`, the remote is that
 * profile's back end and this end is the usual one (so a push may go from one service to
 * another, or from a service to a store file). Without it, `--base-url/--token` (or
 * COURSEBOOK_BASE_URL/COURSEBOOK_TOKEN) name the other end, so they set nothing aside: this
 * end is the local store that --db, --memory, --profile, COURSEBOOK_DB or the default
 * profile give, as without them. A profile in effect that is a service is not a local store,
 * and the error says so.
 */
export async function resolveSyncEnds(g: GlobalOptions, env: Env, config: ConfigSource, remoteProfile: string | undefined, flag: string): Promise<SyncEnds> {
  let here: Backend;
  let there: Backend;
  if (remoteProfile !== undefined) {
    const found = profileNamed(await config(), remoteProfile);
    if (!found) throw new UsageError(`no profile named ${JSON.stringify(remoteProfile)} for ${flag}${profileHint(remoteProfile)}`);
    there = profileBackend(found, remoteProfile, flag);
    here = await resolveBackend(g, env, config);
  } else {
    const baseUrl = pick(g.baseUrl, env.COURSEBOOK_BASE_URL);
    const token = pick(g.token, env.COURSEBOOK_TOKEN);
    here = await resolveBackend(
      { ...g, baseUrl: undefined, token: undefined },
      { ...env, COURSEBOOK_BASE_URL: undefined, COURSEBOOK_TOKEN: undefined },
      config,
    );
    if (here.kind === 'remote') {
      const name = here.profile ?? 'PROFILE';
      const service = `the profile ${here.profile === undefined ? 'in effect' : JSON.stringify(name)} is the service ${serviceRoot(here.baseUrl)}, not a local store`;
      if (!baseUrl)
        throw new UsageError(
          `missing the remote: give ${flag} PROFILE, or --base-url URL with --token TOKEN (${service}: it is the end this command works from; to make it the remote, give ${flag} ${name})`,
        );
      throw new UsageError(
        `--base-url names the other end, and this end comes from the profile, but ${service}: give the local store with --db PATH or --profile NAME (a profile with a db)`,
      );
    }
    if (!baseUrl) throw new UsageError(`missing the remote: give ${flag} PROFILE, or --base-url URL with --token TOKEN`);
    there = token === undefined ? { kind: 'remote', baseUrl } : { kind: 'remote', baseUrl, token };
  }
  const remote = backendKey(there);
  if (here.kind === there.kind && backendKey(here) === remote) throw new UsageError(`the remote (${remote}) is the copy this command works from`);
  return { here, there, remote, remoteKeys: syncMarkKeys(there) };
}
