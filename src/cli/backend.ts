import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultStorePath } from './client.js';
import { type GlobalOptions, UsageError } from './command.js';
import { configPath, defaultProfileName, type Profile, readConfig, redact } from './config.js';
import type { Env } from './io.js';

/** The profile in effect and its name (undefined when none applies). */
interface SelectedProfile {
  name?: string;
  profile: Profile;
}

/**
 * Flags > environment > profile > default (cli-and-serve.md). The profile is --profile,
 * else COURSEBOOK_PROFILE, else the one `config use` chose, else the one named `default`.
 */
function selectedProfile(g: GlobalOptions, env: Env): SelectedProfile {
  const profileName = g.profile ?? env.COURSEBOOK_PROFILE;
  if (profileName === undefined && (g.db || g.memory || g.baseUrl)) return { profile: {} };
  const config = readConfig(configPath(env));
  const name = profileName ?? defaultProfileName(config);
  if (name === undefined) return { profile: {} };
  const found = config.profiles[name];
  if (!found) {
    if (profileName !== undefined) throw new UsageError(`no profile named ${JSON.stringify(name)} (see coursebook config list)`);
    return { profile: {} };
  }
  return { name, profile: found };
}

const pick = <T>(...values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined && v !== '');

export interface StorePath {
  path: string;
  /** The default location ($XDG_DATA_HOME/coursebook/coursebook.db): its folder is created on demand. */
  isDefault: boolean;
}

/** The local store a command (or serve) uses: --memory, --db, COURSEBOOK_DB, the profile's db, else the default path. */
export function resolveStorePath(g: GlobalOptions, env: Env, profile: Profile = selectedProfile(g, env).profile): StorePath {
  if (g.memory) return { path: ':memory:', isDefault: false };
  const chosen = pick(g.db, env.COURSEBOOK_DB, profile.db);
  return chosen === undefined ? { path: defaultStorePath(env), isDefault: true } : { path: chosen, isDefault: false };
}

export type Backend =
  | { kind: 'remote'; baseUrl: string; token?: string; profile?: string }
  | { kind: 'local'; db: string; isDefault: boolean; memory: boolean; as?: string; profile?: string };

/** Local-only flags next to a remote back end are a usage error, not silently ignored. */
function refuseMixedFlags(g: GlobalOptions, remote: boolean): void {
  if (g.memory && g.db !== undefined) throw new UsageError('--memory and --db both name a local store: give one');
  if ((g.memory || g.db !== undefined) && g.baseUrl !== undefined)
    throw new UsageError(`${g.memory ? '--memory' : '--db'} selects a local store and --base-url a remote service: give one`);
  if (remote && g.as !== undefined)
    throw new UsageError('--as acts as a user of a local store; against a remote service the token says who you are (drop --as, or use --db)');
}

export function resolveBackend(g: GlobalOptions, env: Env): Backend {
  refuseMixedFlags(g, false);
  const { name, profile } = selectedProfile(g, env);
  const named = name === undefined ? {} : { profile: name };
  const localFlag = g.db !== undefined || g.memory === true;
  const baseUrl = localFlag ? undefined : pick(g.baseUrl, env.COURSEBOOK_BASE_URL, profile.baseUrl);
  if (baseUrl) {
    refuseMixedFlags(g, true);
    const token = pick(g.token, env.COURSEBOOK_TOKEN, profile.token);
    return { kind: 'remote', baseUrl, ...(token === undefined ? {} : { token }), ...named };
  }
  const as = pick(g.as, env.COURSEBOOK_AS, profile.as);
  const store = resolveStorePath(g, env, profile);
  return { kind: 'local', db: store.path, isDefault: store.isDefault, memory: g.memory === true, ...(as ? { as } : {}), ...named };
}

/**
 * Before a store file is opened: a new store's folder must exist unless it is the default
 * location (created on demand), and a new store is announced on stderr.
 */
export function prepareStoreFile(store: StorePath, note: (message: string) => void): void {
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

/** The back end as `whoami` shows it: `local <store path>` or `remote <URL without credentials>`, and the profile. */
export function describeBackend(backend: Backend | null): { backend: string; profile: string } {
  if (!backend) return { backend: '', profile: '' };
  const where = backend.kind === 'remote' ? `remote ${redact('baseUrl', backend.baseUrl)}` : `local ${backend.db}`;
  return { backend: where, profile: backend.profile ?? '' };
}
