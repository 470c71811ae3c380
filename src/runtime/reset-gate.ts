/**
 * What keeps a fixture's reset (`POST /_reset`) and its requests apart, so that no write
 * that began before a reset lands after it (docs/fixtures.md, "Reset"). Every request but
 * the control routes' enters before it is served and leaves once it is answered. A reset:
 *
 * 1. shuts the door: requests that arrive from now on wait until the reset is done;
 * 2. aborts the signal of every request inside: one still waiting (--delay, a rule's
 *    delayMs) stops waiting and is answered unserved (api/fixture-hooks.ts);
 * 3. waits until every request inside has left: one already being served finishes first;
 * 4. restores the seed, then opens the door with a new signal.
 *
 * Resets run one after another. Nothing here reads a clock or a timer: a reset waits for
 * answers, never for time.
 */
export interface Admission {
  /** Aborted when a reset begins: a request that has not started to be served must not be. */
  readonly signal: AbortSignal;
  /** Called once the request is answered (more calls do nothing). */
  leave(): void;
}

export interface ResetGate {
  /** Lets a request in, at once or once the resets under way are done. */
  enter(): Admission | Promise<Admission>;
  /** Runs `restore` once every request inside has left; requests arriving meanwhile wait for it. */
  run(restore: () => Promise<void>): Promise<void>;
}

export function resetGate(): ResetGate {
  // One controller for all the requests let in since the last reset.
  let epoch = new AbortController();
  let inside = 0;
  let emptied: (() => void) | null = null;
  // Resets asked for and not yet done, and the promise that settles once the last asked is.
  let pending = 0;
  let idle: Promise<void> = Promise.resolve();

  const admit = (): Admission => {
    inside += 1;
    let left = false;
    return {
      signal: epoch.signal,
      leave() {
        if (left) return;
        left = true;
        inside -= 1;
        if (inside === 0) emptied?.();
      },
    };
  };

  const waitThenAdmit = async (): Promise<Admission> => {
    while (pending > 0) await idle;
    return admit();
  };

  return {
    enter: () => (pending === 0 ? admit() : waitThenAdmit()),
    run(restore) {
      pending += 1;
      const done = idle.then(async () => {
        try {
          epoch.abort();
          if (inside > 0) await new Promise<void>((resolve) => (emptied = resolve));
          emptied = null;
          await restore();
        } finally {
          epoch = new AbortController();
          pending -= 1;
        }
      });
      idle = done.catch(() => undefined);
      return done;
    },
  };
}
