/**
 * Fixture tools (journal, fault rules, a controllable clock) for in-process tests of the
 * control routes, with a wall clock and a sleep that wait for nothing: `slept` records
 * every delay asked for, so tests assert delays without timing anything.
 */
import { afterEach } from 'vitest';
import type { FixtureTools } from '../../src/api/context.js';
import { faultRules } from '../../src/domain/fixture/faults.js';
import { requestJournal } from '../../src/domain/fixture/journal.js';
import { controllableClock } from '../../src/runtime/controllable-clock.js';
import { type BuiltService, buildService, type ServeOptions } from '../../src/serve/service.js';
import { BASE_DATASET, T0 } from './app.js';

/** The wall clock of in-process fixtures: a fixed instant, so journal entries repeat. */
export const WALL = '2030-05-05T05:05:05.000Z';

/** The seed clock of fixture(): --now. */
export const SEED_NOW = '2026-11-22T08:30:00.000Z';

export function testFixtureTools(options: { journalSize?: number; delayMs?: number; clockAt?: string | null } = {}): FixtureTools & { slept: number[] } {
  const slept: number[] = [];
  const wallMs = () => Date.parse(WALL);
  return {
    control: {
      journal: requestJournal(options.journalSize ?? 1000),
      faults: faultRules(),
      clock: controllableClock(options.clockAt === undefined ? T0 : options.clockAt, wallMs),
    },
    delayMs: options.delayMs ?? 0,
    sleep: async (ms) => void slept.push(ms),
    wallClock: { now: () => WALL },
    slept,
  };
}

/**
 * The service exactly as `serve --memory --seed <seed> --now SEED_NOW --deterministic
 * --allow-admin` builds it (buildService), without a socket: requests go through app.request.
 * Log lines are parsed into `logs`; `sleep` only records into `slept`.
 */
export interface Fixture extends BuiltService {
  slept: number[];
  logs: Record<string, unknown>[];
  /** A request to the service; `T` is the body the test expects (the schema's type, as `JournalEntryValue[]`). */
  call<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; as?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers; res: Response }>;
}

const open: BuiltService[] = [];
// Registered by each test file that imports this helper.
afterEach(async () => {
  for (const s of open.splice(0)) await s.store.close();
});

/** The service as `serve --memory --seed <base> --now SEED_NOW --deterministic --allow-admin` builds it. */
export async function fixture(options: Partial<ServeOptions> = {}, seed: unknown = BASE_DATASET): Promise<Fixture> {
  const slept: number[] = [];
  const logs: Record<string, unknown>[] = [];
  const stderr = { write: (s: string) => void logs.push(JSON.parse(s)) };
  const built = await buildService({
    db: ':memory:',
    seed: { name: 'seed.json', text: typeof seed === 'string' ? seed : JSON.stringify(seed) },
    host: '127.0.0.1',
    port: 0,
    now: SEED_NOW,
    deterministic: true,
    allowAdmin: true,
    maxBody: 1024 * 1024,
    log: 'json',
    stderr,
    wallMs: () => Date.parse(WALL),
    sleep: async (ms) => void slept.push(ms),
    ...options,
  });
  open.push(built);
  return {
    ...built,
    slept,
    logs,
    async call(method, path, { body, as = 'admin', headers = {} } = {}) {
      const h: Record<string, string> = { ...headers };
      if (as !== null) h.authorization = `Bearer ${as.startsWith('cbk_') || as.startsWith('demo-') ? as : `tok-${as}`}`;
      const init: RequestInit = { method, headers: h };
      if (body !== undefined) {
        h['content-type'] = 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const res = await built.app.request(`http://fixture/api/v1${path}`, init);
      const text = res.type === 'error' ? '' : await res.clone().text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers, res };
    },
  };
}
