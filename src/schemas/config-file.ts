import * as z from 'zod/mini';
import { PROFILE_KEYS, type ProfileKey } from './config-keys.js';

export { CONFIG_FILE_KEYS, PROFILE_KEYS } from './config-keys.js';

/**
 * The config file ($XDG_CONFIG_HOME/coursebook/config.json, docs/cli.md "Profiles"), checked
 * whenever it is read: every setting is a string, a profile an object of settings, the file
 * an object. Unknown keys are reported (`unrecognized_keys`); the CLI warns about them and
 * keeps them (src/cli/config.ts). The file is read on every command, remote ones and
 * `config` too, which load no other schema: so zod's mini build (the same core, about a third
 * of the cost to load of the full `z`, and no Hono as `@hono/zod-openapi` would bring).
 */
export const ConfigProfile = z.strictObject(
  Object.fromEntries(PROFILE_KEYS.map((k) => [k, z.optional(z.string())])) as Record<ProfileKey, z.ZodMiniOptional<z.ZodMiniString>>,
);

export const ConfigFile = z.strictObject({
  defaultProfile: z.optional(z.string()),
  profiles: z.optional(z.record(z.string(), ConfigProfile)),
});

export type Profile = z.infer<typeof ConfigProfile>;
