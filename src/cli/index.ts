/**
 * The bundle's entry (scripts/bundle.mjs): bin/coursebook loads the bundle and calls main;
 * scripts/code-cache.mjs runs a few commands through runCli to make V8's code cache.
 */
import { processIo } from './io.js';
import { runCli } from './program.js';

export { processIo, runCli };

export async function main(argv: string[]): Promise<void> {
  const code = await runCli(argv, processIo());
  // Drain stdout (a large CSV through a pipe), then exit: an idle keep-alive socket of the
  // remote client must not hold the process open.
  process.stdout.write('', () => process.exit(code));
}
