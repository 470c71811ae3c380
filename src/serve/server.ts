import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
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
import { wipeStore } from '../store/wipe.js';

export interface ServeOptions {
  db: string; // a path or ':memory:'
  /** The seed dataset's file name (for messages) and text, read by the caller. */
  seed?: { name: string; text: string } | undefined;
  host: string;
  port: number;
  portFile?: string | undefined;
  now?: string | undefined;
  deterministic: boolean;
  allowReset: boolean;
  cors?: string | undefined;
  rateLimit: string;
  rateBurst?: number | undefined;
  maxBody: number;
  jwt?: JwtVerifier | null;
  log: 'json' | 'pretty' | 'off';
  stderr: { write(s: string): unknown };
}

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  close(): Promise<void>;
}

/** The instant --deterministic uses when --now is not given. */
export const DETERMINISTIC_EPOCH = '2026-01-01T00:00:00.000Z';

function logger(mode: ServeOptions['log'], stderr: ServeOptions['stderr']) {
  if (mode === 'off') return null;
  if (mode === 'json') return (entry: Record<string, unknown>) => void stderr.write(JSON.stringify(entry) + '\n');
  return (entry: Record<string, unknown>) =>
    void stderr.write(entry.event === 'request' ? `${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms\n` : `${entry.event}: ${entry.error ?? ''}\n`);
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  // Everything that can be refused before the store is opened is checked first.
  const rate = parseRateLimit(o.rateLimit, o.rateBurst);
  let seed: unknown = null;
  if (o.seed) {
    try {
      seed = JSON.parse(o.seed.text);
    } catch (err) {
      throw new AppError('invalid', `--seed ${o.seed.name} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const store = openStore(o.db);

  const makeClock = (): Clock => (o.now ? fixedClock(o.now) : o.deterministic ? fixedClock(DETERMINISTIC_EPOCH) : systemClock());
  const makeIds = (): Ids => (o.deterministic ? sequentialIds() : randomIds());
  // Reset swaps clock and ids for fresh ones; the app reads them through these holders.
  let clock = makeClock();
  let ids = makeIds();
  const load = () => {
    if (seed !== null) importDataset(store, clock, seed, { replace: true });
  };
  try {
    load();
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
    options: { allowReset: o.allowReset, cors: o.cors ?? null, maxBody: o.maxBody, log: logger(o.log, o.stderr) },
    reset: () => {
      store.tx(() => {
        wipeStore(store);
        clock = makeClock();
        ids = makeIds();
        load();
      });
    },
  };
  const app = createApp(deps);

  const server = await new Promise<ReturnType<typeof serveNode>>((resolve, reject) => {
    const s = serveNode({ fetch: app.fetch, port: o.port, hostname: o.host }, () => resolve(s));
    s.once('error', reject);
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
      store.close();
      throw Object.assign(new Error(`cannot write the port file ${o.portFile}`), { portFileError: err });
    }
  }

  return {
    url,
    port,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        // In-flight requests finish; idle keep-alive connections are closed now.
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  };
}
