import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeCrypto } from '../runtime/crypto.js';
import { UsageError } from './command.js';
import type { Env } from './io.js';

/** Named settings (cli-and-serve.md): base URL, token, store path, acting user, and the course commands default to. */
export interface Profile {
  baseUrl?: string;
  token?: string;
  db?: string;
  as?: string;
  /** The course of `--course` when neither the flag nor COURSEBOOK_COURSE names one (src/cli/parents.ts). */
  course?: string;
}

export interface ConfigFile {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

export const PROFILE_KEYS = ['baseUrl', 'token', 'db', 'as', 'course'] as const;

export function configPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'coursebook', 'config.json');
}

export function readConfig(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as ConfigFile;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch (err) {
    throw new UsageError(`the config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The profile commands use when none is named: the one `config use` chose, else the one named `default`. */
export function defaultProfileName(config: ConfigFile): string | undefined {
  return config.defaultProfile ?? ('default' in config.profiles ? 'default' : undefined);
}

/** Written atomically with mode 0600: it may hold tokens. */
export function writeConfig(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/**
 * A token or URL credentials, made safe to print. A store (`db`) that is a URL keeps its user
 * name, which says who connects, and loses its password.
 */
export function redact(key: string, value: string): string {
  if (key === 'token') return value.length <= 4 ? '****' : `****${value.slice(-4)}`;
  if (key === 'db') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? withoutPassword(value) : value;
  if (key === 'baseUrl') {
    try {
      const u = new URL(value);
      if (u.username || u.password) {
        u.username = '****';
        u.password = '';
      }
      return u.toString();
    } catch {
      return value;
    }
  }
  return value;
}

/** A URL without its password (user part or `?password=`); one that cannot be parsed loses everything between `//` and `@`. */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password && !u.searchParams.has('password')) return url;
    u.password = '';
    u.searchParams.delete('password');
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}
