/**
 * What the #18 CLI tests share: databases in the run's cluster, one query, and the real
 * processes (coursebook commands, two `serve` instances) they drive.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import pg from 'pg';
import { BIN, type CliResult, ROOT } from '../helpers/cli.js';
import { createDatabase, TEMPLATE_DATABASE } from '../helpers/postgres.js';

/** SQLSTATE object_in_use: the template still has a connection (one just closed may take a moment to go). */
const OBJECT_IN_USE = '55006';

/**
 * A new database copied from the run's migrated template (test/setup/postgres-global.ts);
 * its URL. The global setup's own connection to the template may still be closing when the
 * first file starts, so a copy refused for that is asked for again.
 */
export async function copyOfTemplate(adminUrl: string, name: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createDatabase(adminUrl, name, { template: TEMPLATE_DATABASE });
    } catch (err) {
      if ((err as { code?: string }).code !== OBJECT_IN_USE || attempt >= 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Run one statement on a database and answer its rows. */
export async function query<R extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * `coursebook FROM... | coursebook TO...`: the built binary twice, the first one's stdout
 * piped into the second one's stdin, as a shell pipe would. Each side's exit and output.
 */
export function pipeBin(from: string[], to: string[], env: Record<string, string | undefined>): Promise<{ from: CliResult; to: CliResult }> {
  const start = (args: string[]) =>
    spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, CI: '1', NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const finished = (child: ChildProcess, keepStdout: boolean) =>
    new Promise<CliResult>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      if (keepStdout) child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  const writer = start(from);
  const reader = start(to);
  writer.stdin!.end();
  writer.stdout!.pipe(reader.stdin!);
  return Promise.all([finished(writer, false), finished(reader, true)]).then(([a, b]) => ({ from: a, to: b }));
}
