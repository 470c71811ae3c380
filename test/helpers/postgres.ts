/**
 * A throwaway PostgreSQL cluster for the tests, started from the server binaries of the
 * machine (Debian's postgresql package: initdb and pg_ctl on PATH or under
 * /usr/lib/postgresql/<version>/bin). It lives in a temporary folder, listens on 127.0.0.1
 * on a free port (and a socket in that folder), trusts every local connection, and trades
 * durability for speed (fsync, synchronous_commit and full_page_writes off): nothing in it
 * outlives the run. As root it runs as the `postgres` OS user, since PostgreSQL refuses root.
 *
 * A watchdog process stops the cluster and removes its folder once the process that started
 * it is gone, so a test run killed before its teardown does not leave a postmaster behind.
 */
import { execFile, spawn } from 'node:child_process';
import { appendFile, chown, mkdtemp, readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export const POSTGRES_NOT_FOUND = "PostgreSQL server binaries not found (initdb): install Debian's postgresql package (apt-get install postgresql)";

/** Where Debian installs each major version's server binaries (not on PATH). */
const DEBIAN_SERVER_ROOT = '/usr/lib/postgresql';

/** Tries at a free port: another process may take the port between our probe and the server's bind. */
const START_ATTEMPTS = 5;

/** The database every PostgreSQL test store is copied from: migrated once per run (test/setup/postgres-global.ts). */
export const TEMPLATE_DATABASE = 'coursebook_template';

export interface RunningPostgres {
  /** The superuser's URL of the `postgres` database, e.g. postgres://postgres@127.0.0.1:PORT/postgres. */
  url: string;
  /**
   * The same server through its Unix socket (`?host=` the socket's folder): about a quarter
   * less time a statement than loopback TCP, for the stores the API suite opens by the hundred.
   */
  socketUrl: string;
  stop(): Promise<void>;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const s = await stat(path);
    return s.isFile() && (s.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The folder holding initdb, pg_ctl and postgres of one installation: initdb's own folder
 * after following links (a PATH entry is often a link into /usr/lib/postgresql/N/bin), so
 * the three always come from the same version. PATH first, then Debian's newest version.
 */
export async function findServerBinaries(): Promise<string> {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  let debian: string[] = [];
  try {
    debian = (await readdir(DEBIAN_SERVER_ROOT))
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => join(DEBIAN_SERVER_ROOT, v, 'bin'));
  } catch {
    // No Debian packages: PATH is the only place left.
  }
  for (const dir of [...onPath, ...debian]) {
    const initdb = join(dir, 'initdb');
    if (!(await isExecutableFile(initdb))) continue;
    const home = join(await realpath(initdb), '..');
    if (await isExecutableFile(join(home, 'pg_ctl'))) return home;
  }
  throw new Error(POSTGRES_NOT_FOUND);
}

/** A command line run as the `postgres` OS user when we are root (initdb and postgres refuse root). */
function asServerUser(argv: string[]): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...argv] : argv;
}

async function serverUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function runServerCommand(argv: string[], cwd: string): Promise<void> {
  const [command, ...args] = asServerUser(argv);
  try {
    await run(command!, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${argv.map((a) => a.split('/').pop()).join(' ')} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

/** A port nobody listens on right now (the kernel's pick). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

/** postgresql.conf values are single-quoted strings with quotes doubled. */
const confString = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Stops the cluster and removes its folder when `ownerPid` no longer runs. Detached and in
 * its own process group, so neither a signal to the test run's group nor its exit ends it;
 * stop() ends it first when the run tears down normally.
 */
function startWatchdog(ownerPid: number, folder: string, stopCommand: string[]) {
  const script = 'owner=$1; folder=$2; shift 2; while kill -0 "$owner" 2>/dev/null; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf "$folder"';
  const watchdog = spawn('sh', ['-c', script, 'postgres-watchdog', String(ownerPid), folder, ...stopCommand], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return watchdog;
}

/** Start a new cluster in a temporary folder; stop() shuts it down and removes the folder. */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = await findServerBinaries();
  const folder = await mkdtemp(join(tmpdir(), 'coursebook-pg-'));
  const data = join(folder, 'data');
  const pgCtl = (...args: string[]) => [join(bin, 'pg_ctl'), '-D', data, ...args];
  const stopServer = () => runServerCommand(pgCtl('-m', 'immediate', '-w', 'stop'), folder);
  // Watched from the start: a run killed during initdb or the server's start leaves nothing either
  // (a server started after the watchdog removed its folder exits when it finds its lock file gone).
  const watchdog = startWatchdog(process.pid, folder, asServerUser(pgCtl('-m', 'immediate', '-w', 'stop')));
  const endWatchdog = () => {
    if (watchdog.pid !== undefined && watchdog.exitCode === null) process.kill(watchdog.pid);
  };
  try {
    if (process.getuid?.() === 0) {
      const { uid, gid } = await serverUserIds();
      await chown(folder, uid, gid);
    }
    await runServerCommand([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--locale=C', '--encoding=UTF8', '--auth=trust', '--no-sync'], folder);
    await appendFile(
      join(data, 'postgresql.conf'),
      [
        '',
        '# coursebook tests: a throwaway cluster, fast rather than durable',
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = ${confString(folder)}`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
        '',
      ].join('\n'),
    );
    const port = await startOnFreePort(folder, data, pgCtl);
    let stopped: Promise<void> | null = null;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      socketUrl: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(folder)}`,
      stop() {
        stopped ??= (async () => {
          endWatchdog();
          await stopServer();
          await rm(folder, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (err) {
    endWatchdog();
    await stopServer().catch(() => {});
    await rm(folder, { recursive: true, force: true });
    throw err;
  }
}

/** Start the server, picking another port when the one probed was taken before the server bound it. */
async function startOnFreePort(folder: string, data: string, pgCtl: (...args: string[]) => string[]): Promise<number> {
  const log = join(folder, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // The last setting of a name wins: each attempt appends its port.
    await appendFile(join(data, 'postgresql.conf'), `port = ${port}\n`);
    try {
      await runServerCommand(pgCtl('-l', log, '-w', '-t', '60', 'start'), folder);
      return port;
    } catch (err) {
      const serverLog = await readFile(log, 'utf8').catch(() => '');
      if (attempt >= START_ATTEMPTS || !/could not bind|address already in use/i.test(serverLog)) {
        throw new Error(`${(err as Error).message}\n${serverLog}`);
      }
    }
  }
}

/** Run one statement as the cluster's superuser. */
async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Create a database (a copy of `template` when given: it must have no open connection) and
 * answer its URL.
 */
export async function createDatabase(adminUrl: string, name: string, opts: { template?: string } = {}): Promise<string> {
  const template = opts.template === undefined ? '' : ` TEMPLATE ${pg.escapeIdentifier(opts.template)}`;
  // Two workers copying the template at the same moment: the second is refused with 55006
  // ("source database is being accessed by other users") and tries again shortly.
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(adminUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}${template}`);
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 + attempt * 5));
    }
  }
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** Drop a database, closing whatever connections it still has. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
}
