/**
 * The service clock of `serve`, which a fixture's tests may read, set and move
 * (`/_admin/clock`) so due dates and late penalties need no restart. It is either frozen at
 * an instant (`--now`, `--deterministic`) or running with the wall clock, shifted by an
 * offset. `restore()` brings back the state it started in (what a reset does).
 */
import { AppError } from '../errors.js';
import type { Clock } from './clock.js';

export interface ClockReading {
  now: string;
  /** True when the clock stands still until it is set or advanced. */
  frozen: boolean;
}

export interface ControllableClock extends Clock {
  read(): ClockReading;
  /** Sets the time; `frozen` switches between standing still and running (default: unchanged). */
  set(at: string, frozen?: boolean): ClockReading;
  /** Moves the time by `ms` (negative moves it back). */
  advance(ms: number): ClockReading;
  restore(): void;
}

// Where an RFC 3339 timestamp with a four-digit year can go.
const MIN_MS = new Date('0000-01-01T00:00:00.000Z').getTime();
const MAX_MS = new Date('9999-12-31T23:59:59.999Z').getTime();

/**
 * `start`: the instant a frozen clock starts at, or null for a running clock that starts at
 * the wall clock's time. `wallMs` is the wall clock in epoch milliseconds (injected).
 */
export function controllableClock(start: string | null, wallMs: () => number): ControllableClock {
  let frozen = start !== null;
  // Frozen: the instant itself. Running: the offset from the wall clock.
  let value = start === null ? 0 : Date.parse(start);
  const nowMs = () => (frozen ? value : wallMs() + value);
  const checked = (ms: number, field: string): number => {
    if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS)
      throw new AppError('invalid', `${field}: the clock must stay between 0000-01-01 and 9999-12-31.`, [
        { path: field, message: 'moves the clock outside 0000-01-01T00:00:00Z .. 9999-12-31T23:59:59Z' },
      ]);
    return ms;
  };
  const read = (): ClockReading => ({ now: new Date(nowMs()).toISOString(), frozen });
  return {
    now: () => new Date(nowMs()).toISOString(),
    read,
    set(at, freeze) {
      const target = checked(Date.parse(at), 'now');
      frozen = freeze ?? frozen;
      value = frozen ? target : target - wallMs();
      return read();
    },
    advance(ms) {
      const target = checked(nowMs() + ms, 'seconds');
      value = frozen ? target : target - wallMs();
      return read();
    },
    restore() {
      frozen = start !== null;
      value = start === null ? 0 : Date.parse(start);
    },
  };
}
