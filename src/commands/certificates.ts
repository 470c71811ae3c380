import { defineCommands } from '../cli/command.js';

// Filled in by the issue that owns this command group; listed in commands/index.ts.
export const certificatesCommands = defineCommands([]);
