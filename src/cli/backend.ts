import { resolve } from 'node:path';
import { defaultStorePath } from './client.js';
import { type GlobalOptions, UsageError } from './command.js';
import { configPath, type Profile, readConfig } from './config.js';
import type { Env } from './io.js';

/** Flags > environment > profile > default (cli-and-serve.md). */
function selectedProfile(g: GlobalOptions, env: Env): Profile {
  const profileName = g.profile ?? env.COURSEBOOK_PROFILE;
  if (profileName === undefined && (g.db || g.memory || g.baseUrl)) return {};
  const config = readConfig(configPath(env));
  const name = profileName ?? config.defaultProfile;
  if (name === undefined) return {};
  const found = config.profiles[name];
  if (!found && profileName !== undefined) throw new UsageError(`no profile named ${JSON.stringify(name)} (see coursebook config list)`);
  return found ?? {};
}

const pick = <T>(...values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined && v !== '');

/** The local store a command (or serve) uses: --memory, --db, COURSEBOOK_DB, the profile's db, else the default path. */
export function resolveStorePath(g: GlobalOptions, env: Env, profile: Profile = selectedProfile(g, env)): string {
  if (g.memory) return ':memory:';
  return pick(g.db, env.COURSEBOOK_DB, profile.db) ?? defaultStorePath(env);
}

export type Backend = { kind: 'remote'; baseUrl: string; token?: string } | { kind: 'local'; db: string; memory: boolean; as?: string };

export function resolveBackend(g: GlobalOptions, env: Env): Backend {
  const profile = selectedProfile(g, env);
  const localFlag = g.db !== undefined || g.memory === true;
  const baseUrl = localFlag ? undefined : pick(g.baseUrl, env.COURSEBOOK_BASE_URL, profile.baseUrl);
  if (baseUrl) {
    const token = pick(g.token, env.COURSEBOOK_TOKEN, profile.token);
    return token === undefined ? { kind: 'remote', baseUrl } : { kind: 'remote', baseUrl, token };
  }
  const as = pick(g.as, env.COURSEBOOK_AS, profile.as);
  return { kind: 'local', db: resolveStorePath(g, env, profile), memory: g.memory === true, ...(as ? { as } : {}) };
}

// --- #14 offline authoring round trip: the two ends of a push, pull or diff ---------------

/** The copy a command works from (`here`) and the remote it pushes to or pulls from (`there`). */
export interface SyncEnds {
  here: Backend;
  there: Backend;
  /** How this store names the remote in its sync marks (no credentials). */
  remote: string;
}

/** A profile used as the remote: its service (baseUrl, token) or its store file (db, as). */
function profileBackend(profile: Profile, name: string, flag: string): Backend {
  if (profile.baseUrl) return profile.token ? { kind: 'remote', baseUrl: profile.baseUrl, token: profile.token } : { kind: 'remote', baseUrl: profile.baseUrl };
  if (profile.db) return { kind: 'local', db: profile.db, memory: false, ...(profile.as ? { as: profile.as } : {}) };
  throw new UsageError(`profile ${JSON.stringify(name)} (${flag}) has neither a baseUrl nor a db; set one with coursebook config set`);
}

/** A back end's name in sync marks: the service URL without credentials, query or trailing slash, or `store:` and the file's absolute path. */
export function backendKey(b: Backend): string {
  if (b.kind === 'local') return `store:${b.db === ':memory:' ? b.db : resolve(b.db)}`;
  try {
    const u = new URL(b.baseUrl);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    throw new UsageError(`--base-url is not a URL: ${JSON.stringify(b.baseUrl.replace(/\/\/[^@/]*@/, '//'))}`);
  }
}

/**
 * The two ends of `courses push|pull|diff`. With `--to/--from PROFILE`, the remote is that
 * profile's back end and this end is the usual one (so a push may go from one service to
 * another, or from a service to a store file). Without it, the remote is the service that
 * --base-url/--token (or COURSEBOOK_BASE_URL, or the profile) name, and this end is the
 * local store.
 */
export function resolveSyncEnds(g: GlobalOptions, env: Env, remoteProfile: string | undefined, flag: string): SyncEnds {
  let here: Backend;
  let there: Backend;
  if (remoteProfile !== undefined) {
    const found = readConfig(configPath(env)).profiles[remoteProfile];
    if (!found) throw new UsageError(`no profile named ${JSON.stringify(remoteProfile)} for ${flag} (see coursebook config list)`);
    there = profileBackend(found, remoteProfile, flag);
    here = resolveBackend(g, env);
  } else {
    const profile = selectedProfile(g, env);
    const baseUrl = pick(g.baseUrl, env.COURSEBOOK_BASE_URL, profile.baseUrl);
    if (!baseUrl) throw new UsageError(`missing the remote: give ${flag} PROFILE, or --base-url URL with --token TOKEN`);
    const token = pick(g.token, env.COURSEBOOK_TOKEN, profile.token);
    there = token === undefined ? { kind: 'remote', baseUrl } : { kind: 'remote', baseUrl, token };
    const as = pick(g.as, env.COURSEBOOK_AS, profile.as);
    here = { kind: 'local', db: resolveStorePath(g, env, profile), memory: g.memory === true, ...(as ? { as } : {}) };
  }
  const remote = backendKey(there);
  if (here.kind === there.kind && backendKey(here) === remote) throw new UsageError(`the remote (${remote}) is the copy this command works from`);
  return { here, there, remote };
}
