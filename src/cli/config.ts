import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeCrypto } from '../runtime/crypto.js';
import type { Profile as ProfileValue } from '../schemas/config-file.js';
import { fileError } from './error-text.js';
import type { Env } from './io.js';
import { UsageError } from './usage-error.js';

/**
 * Named settings (docs/cli.md, "Profiles"): base URL, token, store path, acting user, and the
 * course commands default to (`course`: the course of `--course` when neither the flag nor
 * COURSEBOOK_COURSE names one, src/cli/parents.ts). The type of schemas/config-file.ts.
 */
export type Profile = ProfileValue;

export interface ConfigFile {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

/** Where a warning about the config file goes (stderr; nowhere during completion). */
export type Warn = (message: string) => void;

/** The config file of one run, read and checked at most once (the caller holds it: no module state). */
export type ConfigSource = () => Promise<ConfigFile>;

export function configPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'coursebook', 'config.json');
}

/** The config file at `path`, read when first asked for and then kept: its warnings are said once. */
export function configSource(path: string, warn: Warn): ConfigSource {
  let read: Promise<ConfigFile> | undefined;
  return () => (read ??= readConfig(path, warn));
}

/**
 * The config file, checked (schemas/config-file.ts): a file that is not JSON, not an object,
 * or has a value of the wrong type is a usage error naming the file, the key and the fix;
 * unknown keys are a warning and are kept. No file is no profiles, and loads no zod.
 */
export async function readConfig(path: string, warn: Warn): Promise<ConfigFile> {
  const raw = readRawConfig(path);
  return raw === undefined ? { profiles: {} } : checkConfig(path, raw, warn);
}

/**
 * Changes the config file and writes it (mode 0600). The change is made to the file as read,
 * before the check, so `config set`, `unset` and `use` can repair the value a check names;
 * whatever the check still refuses is not written, and a file that is not a JSON object is
 * never overwritten.
 */
export async function editConfig(path: string, warn: Warn, edit: (raw: Record<string, unknown>) => void): Promise<ConfigFile> {
  const raw = readRawConfig(path) ?? {};
  edit(raw);
  const config = await checkConfig(path, raw, warn);
  writeConfig(path, config);
  return config;
}

/** The profiles of a file as read (made when missing and `create`), or undefined when `profiles` is not an object. */
export function rawProfiles(raw: Record<string, unknown>, create: boolean): Record<string, unknown> | undefined {
  if (raw.profiles === undefined && create) raw.profiles = {};
  return isRecord(raw.profiles) ? raw.profiles : undefined;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readRawConfig(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    fileError('read', path, err);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isRecord(parsed))
    throw new UsageError(`the config file ${path} must hold a JSON object ({"profiles": {...}}), not ${kindOf(parsed)}; correct it or remove it`);
  return parsed;
}

async function checkConfig(path: string, raw: Record<string, unknown>, warn: Warn): Promise<ConfigFile> {
  // Loaded only when there is a file to check: a start without one loads no zod for it.
  const { ConfigFile, CONFIG_FILE_KEYS, PROFILE_KEYS } = await import('../schemas/config-file.js');
  const checked = ConfigFile.safeParse(raw);
  if (!checked.success) {
    const wrong = checked.error.issues.filter((issue) => issue.code !== 'unrecognized_keys');
    if (wrong.length > 0) throw new UsageError(wrongValue(path, raw, wrong[0]!.path, wrong.length - 1, PROFILE_KEYS));
    const unknown = checked.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((k) => keyPath([...issue.path, k]) + likelyMeant(k, issue.path.length === 0 ? CONFIG_FILE_KEYS : PROFILE_KEYS))
        : [],
    );
    warn(
      `coursebook: warning: the config file ${path} has ${unknown.length === 1 ? 'a key' : 'keys'} coursebook does not know, ignored: ${unknown.join(', ')} ` +
        `(a profile's settings are ${PROFILE_KEYS.join(', ')}; the file's own keys ${CONFIG_FILE_KEYS.join(', ')})`,
    );
  }
  // Checked: every known key has its type; unknown keys stay, so a rewrite keeps them.
  const config = raw as Partial<ConfigFile>;
  return { ...config, profiles: config.profiles ?? {} };
}

/** ` (baseUrl?)` for `baseurl` or `base_url`: a known key written another way. */
function likelyMeant(key: string, known: readonly string[]): string {
  const plain = (k: string) => k.toLowerCase().replace(/[-_]/g, '');
  const meant = known.find((k) => plain(k) === plain(key));
  return meant === undefined ? '' : ` (${meant}?)`;
}

/** One line: the file, the key, what it holds against what it must, and the command (or edit) that fixes it. */
function wrongValue(path: string, raw: unknown, at: readonly PropertyKey[], more: number, settings: readonly string[]): string {
  const [top, name, key] = at.map(String);
  const got = kindOf(at.reduce<unknown>((value, k) => (isRecord(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[k] : undefined), raw));
  const where = `the config file ${path}: ${keyPath(at)}`;
  const also = more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'} in the file)` : '';
  if (top === 'defaultProfile')
    return `${where} must be a profile's name (a string), not ${got}; choose one with coursebook config use NAME, or clear it with coursebook config use --none${also}`;
  if (top === 'profiles' && at.length === 1)
    return `${where} must be an object of profiles by name ({"NAME": {"db": "..."}}), not ${got}; correct it in the file${also}`;
  if (top === 'profiles' && at.length === 2)
    return `${where} must be an object of settings (${settings.join(', ')}), not ${got}; correct it in the file${also}`;
  if (top === 'profiles' && at.length === 3)
    return `${where} must be a string, not ${got}; set it with coursebook config set ${key} VALUE --name ${name}, or remove it with coursebook config unset ${key} --name ${name}${also}`;
  return `${where} is not valid; correct it in the file${also}`;
}

/** `['profiles', 'work', 'db']` -> `profiles.work.db`; a name that is not a plain word is quoted (`profiles["my work"].db`). */
function keyPath(at: readonly PropertyKey[]): string {
  return at.map((k, i) => (/^[A-Za-z_][\w-]*$/.test(String(k)) ? `${i === 0 ? '' : '.'}${String(k)}` : `[${JSON.stringify(String(k))}]`)).join('');
}

/** What a JSON value is, for a message: `a number`, `an array`, `null`, ... */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `a ${typeof value}`;
}

/** The profile commands use when none is named: the one `config use` chose, else the one named `default`. */
export function defaultProfileName(config: ConfigFile): string | undefined {
  return config.defaultProfile ?? (profileNamed(config, 'default') ? 'default' : undefined);
}

/** The profile of that name, if the file has one (its own key: a name such as `toString` is no profile). */
export function profileNamed(config: ConfigFile, name: string): Profile | undefined {
  return Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
}

/** The default profile `config use` chose and the file no longer has: refused where it would apply, warned about by `config list`. */
export function missingDefaultProfile(path: string, name: string): string {
  return `the default profile is ${JSON.stringify(name)} (defaultProfile in the config file ${path}), and there is no profile of that name; choose one with coursebook config use NAME, or clear it with coursebook config use --none`;
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
