import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve as serveNode } from '@hono/node-server';
import { createApp } from '../api/app.js';
import { bearerAuthenticator, type JwtVerifier } from '../api/auth.js';
import type { AppDeps } from '../api/context.js';
import { parseRateLimit, tokenBucketLimiter } from '../api/rate-limit.js';
import { AppError } from '../errors.js';
import { type Clock, fixedClock, systemClock } from '../runtime/clock.js';
import { type Ids, randomIds, sequentialIds } from '../runtime/ids.js';
import { importDataset } from '../store/dataset.js';
import { openStore, type Store } from '../store/db.js';
import { keepRevoked, revokedTokens } from '../store/tokens.js';
import { isStoreEmpty, wipeStore } from '../store/wipe.js';
import { clientErrorAnswer } from './client-error.js';

export interface ServeOptions {
  db: string; // a path or ':memory:'
  /** The seed dataset's file name (for messages) and text, read by the caller. */
  seed?: { name: string; text: string } | undefined;
  /** Load the seed over a store that already holds data (replace semantics). */
  reseed?: boolean;
  host: string;
  port: number;
  portFile?: string | undefined;
  now?: string | undefined;
  deterministic: boolean;
  allowReset: boolean;
  cors?: string | undefined;
  rateLimit: string;
  rateBurst?: number | undefined;
  /** Failed authentications per client address: N/s, N/min or off. */
  authFailureLimit?: string;
  maxBody: number;
  jwt?: JwtVerifier | null;
  log: 'json' | 'pretty' | 'off';
  stderr: { write(s: string): unknown };
  /** Milliseconds: the request headers must arrive within this (slowloris). */
  headersTimeoutMs?: number;
  /** Milliseconds: the whole request, body included, must arrive within this. */
  requestTimeoutMs?: number;
  /** Milliseconds requests in flight may take to finish after a stop before their sockets are cut. */
  shutdownTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  /**
   * Stop accepting, let requests in flight finish for up to the shutdown timeout, then cut
   * every socket left and close the store; answers how many were cut. Calling it again
   * while it waits cuts at once.
   */
  close(): Promise<{ cut: number }>;
}

/** The instant --deterministic uses when --now is not given. */
export const DETERMINISTIC_EPOCH = '2026-01-01T00:00:00.000Z';
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
export const DEFAULT_AUTH_FAILURE_LIMIT = '30/min';

function logger(mode: ServeOptions['log'], stderr: ServeOptions['stderr']) {
  if (mode === 'off') return null;
  if (mode === 'json') return (entry: Record<string, unknown>) => void stderr.write(JSON.stringify(entry) + '\n');
  return (entry: Record<string, unknown>) =>
    void stderr.write(entry.event === 'request' ? `${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms\n` : `${entry.event}: ${entry.error ?? ''}\n`);
}

/** Start-up and shutdown notes: always written (whatever --log says), as a JSON line under --log json. */
function notice(mode: ServeOptions['log'], stderr: ServeOptions['stderr']) {
  return (event: string, text: string, fields: Record<string, unknown> = {}) =>
    void stderr.write(mode === 'json' ? `${JSON.stringify({ event, message: text, ...fields })}\n` : `coursebook serve: ${text}\n`);
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  // Everything that can be refused before the store is opened is checked first.
  const rate = parseRateLimit(o.rateLimit, o.rateBurst);
  const authFailures = parseRateLimit(o.authFailureLimit ?? DEFAULT_AUTH_FAILURE_LIMIT, undefined, '--auth-failure-limit');
  let seed: unknown = null;
  if (o.seed) {
    try {
      seed = JSON.parse(o.seed.text);
    } catch (err) {
      throw new AppError('invalid', `--seed ${o.seed.name} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const note = notice(o.log, o.stderr);
  const store = openStore(o.db);

  const makeClock = (): Clock => (o.now ? fixedClock(o.now) : o.deterministic ? fixedClock(DETERMINISTIC_EPOCH) : systemClock());
  const makeIds = (): Ids => (o.deterministic ? sequentialIds() : randomIds());
  // Reset swaps clock and ids for fresh ones; the app reads them through these holders.
  let clock = makeClock();
  let ids = makeIds();
  try {
    // A seed goes into an empty store only: restarting the same command after a crash must
    // not undo acknowledged work. --reseed replaces, said out loud; even then the import
    // keeps revoked tokens revoked and never appends history again (importDataset).
    if (seed !== null && o.seed) {
      if (isStoreEmpty(store)) importDataset(store, clock, seed, { replace: false });
      else if (o.reseed) {
        note('reseed', `--reseed: replacing records of ${o.db} with those of ${o.seed.name} (revoked tokens stay revoked; history is kept)`, {
          db: o.db,
          seed: o.seed.name,
        });
        importDataset(store, clock, seed, { replace: true });
      } else
        note('seed-skipped', `${o.db} already holds data, so ${o.seed.name} was not loaded (--reseed replaces its records)`, {
          db: o.db,
          seed: o.seed.name,
        });
    }
  } catch (err) {
    store.close();
    throw err;
  }

  const deps: AppDeps = {
    store,
    clock: { now: () => clock.now() },
    ids: { next: (p) => ids.next(p), draw: (n) => ids.draw(n), secret: () => ids.secret() },
    auth: bearerAuthenticator({ jwt: o.jwt ?? null }),
    rateLimiter: rate ? tokenBucketLimiter(rate) : null,
    authFailureLimiter: authFailures ? tokenBucketLimiter(authFailures) : null,
    options: { allowReset: o.allowReset, cors: o.cors ?? null, maxBody: o.maxBody, log: logger(o.log, o.stderr) },
    reset: () => {
      store.tx(() => {
        // The seed is restored exactly, except that a revocation is never undone.
        const revoked = revokedTokens(store);
        wipeStore(store);
        clock = makeClock();
        ids = makeIds();
        if (seed !== null) importDataset(store, clock, seed, { replace: false });
        keepRevoked(store, revoked);
      });
    },
  };
  const app = createApp(deps);

  const headersTimeout = o.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serveNode(
      {
        fetch: app.fetch,
        port: o.port,
        hostname: o.host,
        // Slow clients (slowloris) are answered 408 and dropped; timeouts are checked every second.
        serverOptions: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout) },
      },
      // serve() makes a node:http server unless told otherwise; its connection methods are needed below.
      () => (s instanceof Server ? resolve(s) : reject(new Error('serve expected a node:http server'))),
    );
    s.once('error', reject);
  });

  // Malformed HTTP never reaches the app: Node's parser rejects it. Answer it with the envelope too.
  server.on('clientError', (err: Error & { code?: string }, socket: Socket & { _httpMessage?: { headersSent?: boolean } | null }) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorAnswer(err.code, { headersTimeout, requestTimeout }), () => socket.destroy());
  });

  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let stopping: Promise<{ cut: number }> | null = null;
  // While stopping, a keep-alive connection whose request has been answered is closed as
  // soon as it is idle: only requests still in flight hold the shutdown.
  server.on('request', (_req, res) => {
    res.once('finish', () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });

  const port = (server.address() as AddressInfo).port;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  const url = `http://${hostForUrl}:${port}`;
  if (o.portFile) writeFileSync(o.portFile, `${port}\n`);

  const shutdownTimeout = o.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let cutNow: (() => void) | null = null;
  let forced = false;
  const close = (): Promise<{ cut: number }> => {
    if (stopping) {
      forced = true;
      cutNow?.(); // a second stop signal: no more waiting
      return stopping;
    }
    stopping = new Promise((resolve) => {
      const started = Date.now();
      let cut = 0;
      const closed = new Promise<void>((done) => server.close(() => done()));
      // close() stops accepting and closes idle keep-alive sockets; requests in flight go on.
      server.closeIdleConnections();
      const deadline = new Promise<void>((done) => {
        const timer = setTimeout(done, shutdownTimeout);
        cutNow = () => {
          clearTimeout(timer);
          done();
        };
        void closed.then(() => clearTimeout(timer));
      });
      void Promise.race([closed.then(() => true), deadline.then(() => false)]).then(async (allFinished) => {
        // Everything still open at the deadline is cut (closing sockets are not counted).
        const open = allFinished ? [] : [...sockets].filter((socket) => !socket.destroyed);
        cut = open.length;
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        await closed;
        store.close();
        const seconds = Math.round((Date.now() - started) / 100) / 10;
        note(
          'stopped',
          cut === 0
            ? `stopped after ${seconds} s; 0 connections cut`
            : `stopped after ${seconds} s; ${cut} connection${cut === 1 ? '' : 's'} cut ${forced ? 'on a second stop signal' : `after the ${shutdownTimeout / 1000} s shutdown timeout`}`,
          { cut, seconds },
        );
        resolve({ cut });
      });
    });
    return stopping;
  };

  return { url, port, store, close };
}
