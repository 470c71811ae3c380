import type { CommandDef, OptionDef } from './command.js';
import { parentOptions } from './parents.js';

/** The options every command inherits from `coursebook` (shown in each command's help). */
export const GLOBAL_OPTIONS: OptionDef[] = [
  {
    flags: '--db <path>',
    description:
      'local store: a SQLite file, or a PostgreSQL database as postgres://USER@HOST:PORT/DB (env COURSEBOOK_DB; default $XDG_DATA_HOME/coursebook/coursebook.db)',
  },
  { flags: '--db-pool <n>', description: 'PostgreSQL store only: the most connections this process opens (default 10)' },
  { flags: '--memory', description: 'use a throwaway in-memory store' },
  { flags: '--base-url <url>', description: 'remote service URL (env COURSEBOOK_BASE_URL)' },
  { flags: '--token <token>', description: 'bearer token for the remote service (env COURSEBOOK_TOKEN)' },
  { flags: '--profile <name>', description: 'named settings from the config file (env COURSEBOOK_PROFILE)' },
  { flags: '--as <userId>', description: 'local store only: act as this user instead of the first admin (env COURSEBOOK_AS)' },
  { flags: '--json', description: "print the API's JSON (exact bytes when piped, indented on a terminal)" },
  { flags: '-q, --query <expr>', description: "filter the JSON output with a JMESPath expression, e.g. '[].id'" },
  { flags: '--no-input', description: 'never prompt; a missing value is a usage error' },
];

/** The long name and whether it takes a value: '--base-url <url>' -> ['--base-url', true]. */
export function optionShape(flags: string): { names: string[]; takesValue: boolean } {
  const names = flags
    .split(/[ ,|]+/)
    .filter((part) => part.startsWith('-'))
    .map((n) => n.trim());
  return { names, takesValue: /[<[]/.test(flags) };
}

/** List commands take --limit N (the API's optional pages; without it, every row). */
/** A list command that pages through the API's lists (one that defines its own --limit keeps it). */
export const isListCommand = (def: CommandDef): boolean => def.name.endsWith(' list') && !(def.options ?? []).some((o) => o.flags.startsWith('--limit'));

export const LIMIT_OPTION: OptionDef = { flags: '--limit <n>', description: 'at most this many rows (default: all)' };

/** A command's own options as the program registers them: its parents' flags first, its definition's, and --limit on lists. */
export const commandOptions = (def: CommandDef): OptionDef[] => [...parentOptions(def), ...(def.options ?? []), ...(isListCommand(def) ? [LIMIT_OPTION] : [])];
