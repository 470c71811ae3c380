/**
 * A local store for in-process CLI tests: a temp home (its own XDG folders) and a store
 * file loaded with the demo dataset (data/demo.json: course crs_data101, users, tokens,
 * submissions, a weighted gradebook) or a dataset of the test's own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliResult, type InProcessOptions, ROOT, runCli, tempHome } from './cli.js';

export const DEMO_DATASET = join(ROOT, 'data/demo.json');

export interface CliStore {
  dir: string;
  db: string;
  env: Record<string, string>;
  /** Run the CLI against this store (`--db` is added in front). */
  run(args: string[], options?: InProcessOptions): Promise<CliResult>;
  /** The same, asserting exit 0, answering stdout. */
  ok(args: string[], options?: InProcessOptions): Promise<string>;
  cleanup(): void;
}

export async function cliStore(dataset: 'demo' | 'empty' | Record<string, unknown> = 'demo'): Promise<CliStore> {
  const home = tempHome();
  const run = (args: string[], options: InProcessOptions = {}) => runCli(['--db', home.db, ...args], { ...options, env: { ...home.env, ...options.env } });
  if (dataset !== 'empty') {
    let file = DEMO_DATASET;
    if (dataset !== 'demo') {
      file = join(home.dir, 'dataset.json');
      writeFileSync(file, JSON.stringify(dataset));
    }
    const imported = await run(['import', file]);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
  }
  return {
    dir: home.dir,
    db: home.db,
    env: home.env,
    run,
    async ok(args, options) {
      const res = await run(args, options);
      if (res.code !== 0) throw new Error(`coursebook ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
      return res.stdout;
    },
    cleanup: home.cleanup,
  };
}
