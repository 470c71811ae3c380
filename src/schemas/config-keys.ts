/**
 * The config file's keys (docs/cli.md, "Profiles"), as plain data: `config set|get|unset`
 * check a key against them without loading zod, and schemas/config-file.ts builds the
 * file's schema from them, so the two cannot differ.
 */
export const PROFILE_KEYS = ['baseUrl', 'token', 'db', 'as', 'course'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

/** The keys of the file itself: the profile `config use` chose, and the profiles by name. */
export const CONFIG_FILE_KEYS = ['defaultProfile', 'profiles'] as const;
