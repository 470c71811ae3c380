import { type CommandResult, defineCommands, UsageError } from '../cli/command.js';
import { completionScript, SHELLS, type Shell } from '../cli/completion.js';
import { NODE_VERSION, VERSION } from '../cli/version.js';
import { SCHEMA_VERSION } from '../store/migrations.js';

/** Commands about the program itself (issue #15): its version and shell completion. */
export const metaCommands = defineCommands([
  {
    name: 'version',
    description: 'Print the version of coursebook (and the store schema and Node it runs with)',
    noClient: true,
    handler: async (): Promise<CommandResult> => ({
      kind: 'text',
      text: `coursebook version ${VERSION} (store schema ${SCHEMA_VERSION}, node ${NODE_VERSION})\n`,
      json: JSON.stringify({ version: VERSION, storeSchema: SCHEMA_VERSION, node: NODE_VERSION }),
    }),
  },
  {
    name: 'completion',
    description: 'Print a shell completion script (commands, flags and, on a local store, course ids)',
    noClient: true,
    args: [{ name: '<shell>', description: SHELLS.join(', ') }],
    handler: async (_ctx, [shell]): Promise<CommandResult> => {
      if (!(SHELLS as readonly string[]).includes(shell!))
        throw new UsageError(`completion is available for ${SHELLS.join(', ')} (got ${JSON.stringify(shell)})`);
      return { kind: 'text', text: completionScript(shell as Shell) };
    },
  },
]);
