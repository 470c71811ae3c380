/**
 * serve takes the requests that one read of its sockets delivered, and starts them together
 * at the next turn of the event loop (the check phase, right after the poll that read them),
 * rather than each the moment its headers are parsed.
 *
 * Why: a request handled the moment it is read is usually answered before the next socket is
 * read. Under load from clients on the same machine, the server and its clients then take
 * turns: each answer wakes a client that had gone to sleep, each new request wakes the
 * server, and each wake-up is a context switch and, across cores, an interrupt to the other
 * CPU (a costly exit on a virtual machine). Started together, the requests of one read run
 * their stages side by side and their answers leave in one burst, so both sides stay busy.
 * Measured under the serve benchmark (2 cores, 50 connections; docs/decisions.md, "Requests
 * in turns"): context switches fell from about 1.9 to 0.13 a request, and CPU per answer by
 * about a third.
 *
 * What it costs: nothing when idle. The check phase follows the poll phase at once, so a lone
 * request starts without waiting for any timer; only requests read in the same poll wait for
 * one another's synchronous starts. Order is kept: requests start in the order they were read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Schedules the next turn's work: setImmediate in serve, a test's own in tests. */
export type NextTurn = (run: () => void) => void;

const nextCheckPhase: NextTurn = (run) => {
  setImmediate(run);
};

/** `listener`, started at the next turn for every request that arrived in this one, in arrival order. */
export function inTurns(listener: Listener, nextTurn: NextTurn = nextCheckPhase): Listener {
  let waiting: Array<[IncomingMessage, ServerResponse]> = [];
  const startAll = (): void => {
    const turn = waiting;
    waiting = [];
    for (const [req, res] of turn) start(listener, req, res);
  };
  return (req, res) => {
    if (waiting.push([req, res]) === 1) nextTurn(startAll);
  };
}

/**
 * One request of a turn, on its own: a listener that throws or rejects for it (the adapter
 * answers its own errors, so this is a defect) neither keeps the turn's other requests from
 * starting nor leaves its client waiting: its connection is closed.
 */
function start(listener: Listener, req: IncomingMessage, res: ServerResponse): void {
  const fail = (err: unknown): void => {
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  try {
    const started = listener(req, res);
    if (started instanceof Promise) started.catch(fail);
  } catch (err) {
    fail(err);
  }
}
