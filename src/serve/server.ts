/**
 * `coursebook serve` on a socket: the service buildService (service.ts) makes, listening on
 * node:http with timeouts against slow clients, malformed HTTP answered with the envelope,
 * and a shutdown that lets requests in flight finish before it cuts their sockets.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Store } from '../store/db.js';
import { clientErrorAnswer } from './client-error.js';
import { workerGrader } from './grading-pool.js';
import { inTurns } from './request-turns.js';
import { type BuiltService, buildService, type ServeOptions } from './service.js';

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  adminToken: string | null;
  /**
   * Stop accepting, let requests in flight finish for up to the shutdown timeout, then cut
   * every socket left and close the store; answers how many were cut. Calling it again
   * while it waits cuts at once.
   */
  close(): Promise<{ cut: number }>;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  // Grade computations run on worker threads, so a large export never stalls other requests.
  // A caller's own grader is used as given (in-process tests give the in-thread one: the
  // pool's worker file is the build's); only a pool this server made is closed with it.
  let built: BuiltService | undefined;
  const pool = o.grader
    ? undefined
    : workerGrader({
        onBroken: (err) =>
          built?.note('grading-inline', `warning: grading worker threads could not start (${err.message}); grades are computed on the main thread`, {
            error: err.message,
          }),
      });
  const closePool = async (): Promise<void> => pool?.close();
  try {
    built = await buildService({ ...o, grader: o.grader ?? pool });
  } catch (err) {
    await closePool();
    throw err;
  }
  const { app, store, adminToken, note } = built;

  const headersTimeout = o.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout);
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      // @hono/node-server's request listener (as its serve() makes it), on a node:http server
      // of ours: the requests of one read of the sockets start together (request-turns.ts).
      const listener = getRequestListener(app.fetch, { hostname: o.host });
      // Slow clients (slowloris) are answered 408 and dropped; timeouts are checked every second.
      const s = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout) }, inTurns(listener));
      s.once('error', reject);
      s.listen(o.port, o.host, () => resolve(s));
    });
  } catch (err) {
    await store.close();
    await closePool();
    throw err;
  }

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
  if (o.portFile) {
    try {
      writeFileSync(o.portFile, `${port}\n`);
    } catch (err) {
      // Not listening with nobody told where: stop, and let the caller name the file.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await closePool();
      throw Object.assign(new Error(`cannot write the port file ${o.portFile}`), { portFileError: err });
    }
  }

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
        await store.close();
        await closePool();
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

  return { url, port, store, adminToken, close };
}
