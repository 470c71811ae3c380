import { processIo } from './io.js';
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2), processIo());
// Drain stdout (a large CSV through a pipe), then exit: an idle keep-alive socket of the
// remote client must not hold the process open.
process.stdout.write('', () => process.exit(code));
