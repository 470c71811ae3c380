// A throwaway PostgreSQL cluster for the benchmarks, the way test/helpers/postgres.ts starts
// one for the tests (that file is TypeScript and the bench runs on plain node): the machine's
// server binaries (initdb, pg_ctl on PATH or under /usr/lib/postgresql/N/bin), a temporary
// folder, 127.0.0.1 on a free port, trust for local connections, run as the `postgres` OS
// user under root. Unlike the tests' cluster it keeps fsync and synchronous commit ON: a
// write benchmark that did not wait for the disk would flatter PostgreSQL beside SQLite,
// which the store runs with synchronous=NORMAL in WAL mode (durable at every checkpoint).
// BENCH_PG_FAST=1 turns them off, for a quick look.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

function serverBinaries() {
  const debianRoot = '/usr/lib/postgresql';
  const debian = existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter((v) => /^\d+(\.\d+)?$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(debianRoot, v, 'bin'))
    : [];
  for (const dir of [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...debian]) {
    if (!existsSync(join(dir, 'initdb'))) continue;
    const home = join(realpathSync(join(dir, 'initdb')), '..');
    if (existsSync(join(home, 'pg_ctl'))) return home;
  }
  throw new Error("PostgreSQL server binaries not found (initdb): install Debian's postgresql package (apt-get install postgresql)");
}

const asServerUser = (argv) => (process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...argv] : argv);
const runAsServer = (argv, cwd) => {
  const [command, ...args] = asServerUser(argv);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
};

async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Start a cluster; `url` is the superuser's URL of the `postgres` database, stop() removes everything. */
export async function startPostgres({ maxConnections = 200 } = {}) {
  const bin = serverBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'cb-bench-pg-'));
  const data = join(folder, 'data');
  const pgCtl = (...args) => [join(bin, 'pg_ctl'), '-D', data, ...args];
  // Stops the cluster if this process dies without stop() (a bench killed half way).
  const script = 'owner=$1; folder=$2; shift 2; while kill -0 "$owner" 2>/dev/null; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf "$folder"';
  const watchdog = spawn('sh', ['-c', script, 'pg-watchdog', String(process.pid), folder, ...asServerUser(pgCtl('-m', 'immediate', '-w', 'stop'))], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  const stop = () => {
    try {
      process.kill(watchdog.pid);
    } catch {
      // already gone
    }
    try {
      runAsServer(pgCtl('-m', 'fast', '-w', 'stop'), folder);
    } catch {
      // not running
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    if (process.getuid?.() === 0) {
      const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(folder, id('-u'), id('-g'));
    }
    runAsServer([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--locale=C', '--encoding=UTF8', '--auth=trust', '--no-sync'], folder);
    const fast = process.env.BENCH_PG_FAST === '1';
    const port = await freePort();
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        '',
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${folder}'`,
        `max_connections = ${maxConnections}`,
        'shared_buffers = 256MB',
        `fsync = ${fast ? 'off' : 'on'}`,
        `synchronous_commit = ${fast ? 'off' : 'on'}`,
        `port = ${port}`,
        '',
      ].join('\n'),
    );
    try {
      runAsServer(pgCtl('-l', join(folder, 'server.log'), '-w', '-t', '60', 'start'), folder);
    } catch (err) {
      throw new Error(`pg_ctl start failed: ${readFileSync(join(folder, 'server.log'), 'utf8').slice(-2000) || err.message}`);
    }
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, durable: !fast, stop };
  } catch (err) {
    stop();
    throw err;
  }
}

async function adminQuery(adminUrl, text) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new, empty database in the cluster; its URL. */
export async function createDatabase(adminUrl, name) {
  await adminQuery(adminUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl, name) {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
}
