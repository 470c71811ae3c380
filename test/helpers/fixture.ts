/**
 * Fixture tools (journal, fault rules, a controllable clock) for in-process tests of the
 * control routes, with a wall clock and a sleep that wait for nothing: `slept` records
 * every delay asked for, so tests assert delays without timing anything.
 */
import type { FixtureTools } from '../../src/api/context.js';
import { faultRules } from '../../src/domain/fixture/faults.js';
import { requestJournal } from '../../src/domain/fixture/journal.js';
import { controllableClock } from '../../src/runtime/controllable-clock.js';
import { T0 } from './app.js';

/** The wall clock of in-process fixtures: a fixed instant, so journal entries repeat. */
export const WALL = '2030-05-05T05:05:05.000Z';

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
