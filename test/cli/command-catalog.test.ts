/**
 * The program registers every top-level word from src/commands/catalog.ts and loads a
 * command module only when its group runs (the Performance issue). The catalog must say
 * what the modules themselves say: which words each module defines, and what
 * `coursebook --help` shows of a top-level word before its module is loaded.
 */
import { Command, Help } from 'commander';
import { expect, it } from 'vitest';
import { commandOptions } from '../../src/cli/global-options.js';
import { COMMAND_MODULES, loadCommands, TOP_LEVEL_COMMANDS } from '../../src/commands/catalog.js';
import { GROUP_DESCRIPTIONS } from '../../src/commands/examples.js';
import { COMMANDS } from '../../src/commands/index.js';
import { runCli } from '../helpers/cli.js';

const firstWord = (name: string) => name.split(' ')[0]!;

it('lists every top-level word once, in the order the modules define them', () => {
  expect(TOP_LEVEL_COMMANDS.map((c) => c.word)).toEqual([...new Set(COMMANDS.map((c) => firstWord(c.name)))]);
});

it('names, for each module, exactly the top-level words its commands start with', async () => {
  for (const module of COMMAND_MODULES) {
    const words = new Set((await module.load()).map((c) => firstWord(c.name)));
    expect([...module.words].sort()).toEqual([...words].sort());
  }
});

it('shows a group with its description, and a single command with its own description and usage', () => {
  for (const entry of TOP_LEVEL_COMMANDS) {
    const def = COMMANDS.find((c) => c.name === entry.word);
    if (!def) {
      expect({ word: entry.word, description: entry.description, usage: entry.usage }).toEqual({
        word: entry.word,
        description: GROUP_DESCRIPTIONS[entry.word],
        usage: undefined,
      });
      continue;
    }
    const loaded = new Command(def.name);
    for (const a of def.args ?? []) loaded.argument(a.name, a.description);
    for (const o of commandOptions(def)) loaded.option(o.flags, o.description);
    expect({ description: entry.description, term: [entry.word, entry.usage].filter(Boolean).join(' ') }).toEqual({
      description: def.description,
      term: new Help().subcommandTerm(loaded),
    });
  }
});

it('loads the commands of the words asked for, in program order', async () => {
  const gradebook = await loadCommands(new Set(['gradebook', 'version']));
  expect(gradebook.map((c) => c.name)).toEqual(COMMANDS.filter((c) => ['gradebook', 'version'].includes(firstWord(c.name))).map((c) => c.name));
});

it('`coursebook --help` reads the same whether or not the single commands are loaded', async () => {
  const unloaded = await runCli(['--help']);
  // `help` loads the words that follow it before commander parses; after `--help` nothing is dispatched.
  const loaded = await runCli(['--help', 'help', ...TOP_LEVEL_COMMANDS.filter((c) => c.usage !== undefined).map((c) => c.word)]);
  expect(unloaded.code).toBe(0);
  expect(loaded).toEqual(unloaded);
});
