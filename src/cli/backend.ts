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
