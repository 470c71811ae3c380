/**
 * Every command of `coursebook --help` has in-process tests: a `describe('<command name>')`
 * block in test/cli with at least one success and one error test (two or more `it`s).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';

const DIR = import.meta.dirname;

function describedCommands(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.test.ts'))) {
    const text = readFileSync(join(DIR, file), 'utf8');
    const blocks = [...text.matchAll(/describe\((['"])(.+?)\1/g)];
    blocks.forEach((m, i) => {
      const end = blocks[i + 1]?.index ?? text.length;
      const its = text.slice(m.index, end).match(/\bit\(/g)?.length ?? 0;
      counts.set(m[2]!, (counts.get(m[2]!) ?? 0) + its);
    });
  }
  return counts;
}

it('every command has a describe block with a success and an error test', () => {
  const counts = describedCommands();
  const missing = COMMANDS.map((c) => c.name).filter((name) => (counts.get(name) ?? 0) < 2);
  expect(missing).toEqual([]);
});
