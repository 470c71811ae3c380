import { type CommandResult, defineCommands, UsageError } from '../cli/command.js';
import { configPath, PROFILE_KEYS, type Profile, readConfig, redact, writeConfig } from '../cli/config.js';

const checkKey = (key: string): (typeof PROFILE_KEYS)[number] => {
  if (!(PROFILE_KEYS as readonly string[]).includes(key))
    throw new UsageError(`unknown setting ${JSON.stringify(key)}; settings are ${PROFILE_KEYS.join(', ')}`);
  return key as (typeof PROFILE_KEYS)[number];
};

const profileOption = { flags: '--name <profile>', description: 'the profile to change or read', default: 'default' };

export const configCommands = defineCommands([
  {
    name: 'config set',
    description: `Set a profile setting (${PROFILE_KEYS.join(', ')}); the file is written with mode 0600`,
    noClient: true,
    args: [
      { name: '<key>', description: PROFILE_KEYS.join(' | ') },
      { name: '<value>', description: 'the value' },
    ],
    options: [profileOption, { flags: '--default', description: 'also make this the default profile' }],
    handler: async (ctx, [key, value], opts): Promise<CommandResult> => {
      const k = checkKey(key!);
      const path = configPath(ctx.env);
      const config = readConfig(path);
      const name = String(opts.name);
      config.profiles[name] = { ...(config.profiles[name] ?? {}), [k]: value } as Profile;
      if (opts.default === true || config.defaultProfile === undefined) config.defaultProfile = name;
      writeConfig(path, config);
      return { kind: 'none', note: `set ${name}.${k} = ${redact(k, value!)}` };
    },
  },
  {
    name: 'config unset',
    description: 'Remove a profile setting',
    noClient: true,
    args: [{ name: '<key>', description: PROFILE_KEYS.join(' | ') }],
    options: [profileOption],
    handler: async (ctx, [key], opts): Promise<CommandResult> => {
      const k = checkKey(key!);
      const path = configPath(ctx.env);
      const config = readConfig(path);
      const profile = config.profiles[String(opts.name)];
      if (profile) delete profile[k];
      writeConfig(path, config);
      return { kind: 'none' };
    },
  },
  {
    name: 'config get',
    description: 'Print one setting (tokens are shown redacted)',
    noClient: true,
    args: [{ name: '<key>', description: PROFILE_KEYS.join(' | ') }],
    options: [profileOption],
    handler: async (ctx, [key], opts): Promise<CommandResult> => {
      const k = checkKey(key!);
      const value = readConfig(configPath(ctx.env)).profiles[String(opts.name)]?.[k];
      if (value === undefined) throw new UsageError(`${String(opts.name)}.${k} is not set`);
      return { kind: 'text', text: `${redact(k, value)}\n` };
    },
  },
  {
    name: 'config list',
    description: 'List profiles and their settings (tokens redacted)',
    noClient: true,
    handler: async (ctx): Promise<CommandResult> => {
      const path = configPath(ctx.env);
      const config = readConfig(path);
      const lines: string[] = [];
      for (const [name, profile] of Object.entries(config.profiles)) {
        for (const [k, v] of Object.entries(profile)) lines.push(`${name}${name === config.defaultProfile ? '*' : ''}\t${k}\t${redact(k, String(v))}`);
      }
      const safe = Object.fromEntries(
        Object.entries(config.profiles).map(([n, p]) => [n, Object.fromEntries(Object.entries(p).map(([k, v]) => [k, redact(k, String(v))]))]),
      );
      return {
        kind: 'text',
        text: lines.length ? lines.join('\n') + '\n' : '',
        json: JSON.stringify({ path, defaultProfile: config.defaultProfile ?? null, profiles: safe }),
      };
    },
  },
]);
