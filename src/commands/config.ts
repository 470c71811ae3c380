import { type CommandResult, defineCommands, UsageError } from '../cli/command.js';
import { configPath, defaultProfileName, editConfig, isRecord, missingDefaultProfile, profileNamed, rawProfiles, redact } from '../cli/config.js';
import { PROFILE_KEYS } from '../schemas/config-keys.js';

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
      const name = String(opts.name);
      await editConfig(configPath(ctx.env), ctx.note, (raw) => {
        // A file whose profiles (or this profile) are not objects is left for the check to name.
        const profiles = rawProfiles(raw, true);
        const profile = profiles?.[name] ?? {};
        if (profiles && isRecord(profile)) profiles[name] = { ...profile, [k]: value };
        // Only --default or `config use` changes which profile applies: setting a value never does.
        if (opts.default === true) raw.defaultProfile = name;
      });
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
      const name = String(opts.name);
      await editConfig(configPath(ctx.env), ctx.note, (raw) => {
        const profiles = rawProfiles(raw, true);
        const profile = profiles && Object.hasOwn(profiles, name) ? profiles[name] : undefined;
        if (isRecord(profile)) delete profile[k];
      });
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
      const value = profileNamed(await ctx.config(), String(opts.name))?.[k];
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
      await editConfig(configPath(ctx.env), ctx.note, (raw) => {
        if (name === undefined) {
          delete raw.defaultProfile;
          return;
        }
        const profiles = rawProfiles(raw, false) ?? {};
        if (!Object.hasOwn(profiles, name)) {
          const known = Object.keys(profiles);
          throw new UsageError(
            `no profile named ${JSON.stringify(name)}${known.length ? ` (profiles: ${known.join(', ')})` : ''}; create it with coursebook config set KEY VALUE --name ${name}`,
          );
        }
        raw.defaultProfile = name;
      });
      return { kind: 'none', note: name === undefined ? 'no default profile' : `${name} is now the default profile` };
    },
  },
  {
    name: 'config list',
    description: 'List profiles and their settings (tokens redacted; * marks the profile commands use when none is named)',
    noClient: true,
    handler: async (ctx): Promise<CommandResult> => {
      const path = configPath(ctx.env);
      const config = await ctx.config();
      const inEffect = defaultProfileName(config);
      if (inEffect !== undefined && !profileNamed(config, inEffect)) ctx.note(`coursebook: warning: ${missingDefaultProfile(path, inEffect)}`);
      // The settings coursebook knows, in the file's order: an unknown key (warned about) might be an unredacted secret.
      const settings = (profile: Record<string, unknown>) => Object.entries(profile).filter(([k]) => (PROFILE_KEYS as readonly string[]).includes(k));
      const lines: string[] = [];
      for (const [name, profile] of Object.entries(config.profiles)) {
        for (const [k, v] of settings(profile)) lines.push(`${name}${name === inEffect ? '*' : ''}\t${k}\t${redact(k, String(v))}`);
      }
      const safe = Object.fromEntries(
        Object.entries(config.profiles).map(([n, p]) => [n, Object.fromEntries(settings(p).map(([k, v]) => [k, redact(k, String(v))]))]),
      );
      return {
        kind: 'text',
        text: lines.length ? lines.join('\n') + '\n' : '',
        json: JSON.stringify({ path, defaultProfile: inEffect ?? null, profiles: safe }),
      };
    },
  },
]);
