import { type CommandResult, defineCommands, UsageError } from '../cli/command.js';
import { configPath, defaultProfileName, PROFILE_KEYS, type Profile, readConfig, redact, writeConfig } from '../cli/config.js';

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
    options: [profileOption, { flags: '--default', description: 'also make this the default profile (as config use does)' }],
    handler: async (ctx, [key, value], opts): Promise<CommandResult> => {
      const k = checkKey(key!);
      const path = configPath(ctx.env);
      const config = readConfig(path);
      const name = String(opts.name);
      config.profiles[name] = { ...(config.profiles[name] ?? {}), [k]: value } as Profile;
      // Only --default or `config use` changes which profile applies: setting a value never does.
      if (opts.default === true) config.defaultProfile = name;
      writeConfig(path, config);
      return { kind: 'none', note: `set ${name}.${k} = ${redact(k, value!)}${opts.default === true ? ` (${name} is now the default profile)` : ''}` };
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
    name: 'config use',
    description: 'Make a profile the default for every command (--none: no default; the profile named "default" applies if there is one)',
    noClient: true,
    args: [{ name: '[profile]', description: 'the profile name' }],
    options: [{ flags: '--none', description: 'clear the default profile' }],
    handler: async (ctx, [name], opts): Promise<CommandResult> => {
      if ((name === undefined) === (opts.none !== true)) throw new UsageError('give a profile name, or --none to clear the default');
      const path = configPath(ctx.env);
      const config = readConfig(path);
      if (name === undefined) {
        delete config.defaultProfile;
        writeConfig(path, config);
        return { kind: 'none', note: 'no default profile' };
      }
      if (!config.profiles[name]) {
        const known = Object.keys(config.profiles);
        throw new UsageError(
          `no profile named ${JSON.stringify(name)}${known.length ? ` (profiles: ${known.join(', ')})` : ''}; create it with coursebook config set KEY VALUE --name ${name}`,
        );
      }
      config.defaultProfile = name;
      writeConfig(path, config);
      return { kind: 'none', note: `${name} is now the default profile` };
    },
  },
  {
    name: 'config list',
    description: 'List profiles and their settings (tokens redacted; * marks the profile commands use when none is named)',
    noClient: true,
    handler: async (ctx): Promise<CommandResult> => {
      const path = configPath(ctx.env);
      const config = readConfig(path);
      const inEffect = defaultProfileName(config);
      const lines: string[] = [];
      for (const [name, profile] of Object.entries(config.profiles)) {
        for (const [k, v] of Object.entries(profile)) lines.push(`${name}${name === inEffect ? '*' : ''}\t${k}\t${redact(k, String(v))}`);
      }
      const safe = Object.fromEntries(
        Object.entries(config.profiles).map(([n, p]) => [n, Object.fromEntries(Object.entries(p).map(([k, v]) => [k, redact(k, String(v))]))]),
      );
      return {
        kind: 'text',
        text: lines.length ? lines.join('\n') + '\n' : '',
        json: JSON.stringify({ path, defaultProfile: inEffect ?? null, profiles: safe }),
      };
    },
  },
]);
