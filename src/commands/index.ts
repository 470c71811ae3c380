import type { CommandDef } from '../cli/command.js';
import { loadCommands } from './catalog.js';

/**
 * Every command, loaded, for what walks the whole tree (tests). The program itself loads
 * only the group it runs (src/commands/catalog.ts).
 */
export const COMMANDS: CommandDef[] = await loadCommands();
