import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { type Grader, inlineGrader } from '../api/grader.js';

/**
 * A pool of grading worker threads for `serve`: grade computation for a request runs off
 * the event loop, so `/health` and every other request keep answering while a
 * 10,000-student export is computed. Threads start on first use and idle out.
 *
 * If a worker cannot start at all (its file missing from a damaged install, a thread the
 * system refuses), piscina reports it as an `error` event and then keeps the waiting task
 * queued for ever: unheard, the event would end the process, and heard, the request would
 * never be answered. So the first such error is reported once through `onBroken`, the pool
 * is shut, and every grading from then on (the waiting ones too) runs on the main thread,
 * with the same code and the same bytes, only without the isolation.
 */
export function workerGrader(
  options: { maxThreads?: number; onBroken?: (err: Error) => void /** The worker's module (tests give one that is missing). */; workerFile?: URL } = {},
): Grader & { close(): Promise<void> } {
  const pool = new Piscina({
    filename: (options.workerFile ?? new URL('./grading-worker.js', import.meta.url)).href,
    minThreads: 0,
    maxThreads: options.maxThreads ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    idleTimeout: 30_000,
    // A grades page of 1000 students x 200 items needs well under this; a lower ceiling makes the
    // worker collect garbage sooner, which keeps the server's peak memory down.
    resourceLimits: { maxOldGenerationSizeMb: 192 },
  });
  let broken = false;
  let closing: Promise<void> | null = null;
  pool.on('error', (err: Error) => {
    if (broken) return;
    broken = true;
    options.onBroken?.(err);
    closing ??= pool.destroy();
  });
  /** The task on the pool, or on the main thread once the pool is broken (also for a task the shut pool gave back). */
  const run = <T>(task: object, inline: () => Promise<T>): Promise<T> =>
    broken ? inline() : (pool.run(task) as Promise<T>).catch((err: unknown) => (broken ? inline() : Promise.reject(err)));
  return {
    grade: (input) => run({ kind: 'grades', input }, () => inlineGrader.grade(input)),
    gradesView: (job) => run({ kind: 'view', job }, () => inlineGrader.gradesView(job)),
    close: () => (closing ??= pool.destroy()),
  };
}
