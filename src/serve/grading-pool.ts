import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Grader } from '../api/grader.js';

/**
 * A pool of grading worker threads for `serve`: grade computation for a request runs off
 * the event loop, so `/health` and every other request keep answering while a
 * 10,000-student export is computed. Threads start on first use and idle out.
 */
export function workerGrader(options: { maxThreads?: number } = {}): Grader & { close(): Promise<void> } {
  const pool = new Piscina({
    filename: new URL('./grading-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: options.maxThreads ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    idleTimeout: 30_000,
    // A grades page of 1000 students x 200 items needs well under this; a lower ceiling makes the
    // worker collect garbage sooner, which keeps the server's peak memory down.
    resourceLimits: { maxOldGenerationSizeMb: 192 },
  });
  return {
    grade: (input) => pool.run({ kind: 'grades', input }),
    gradesView: (job) => pool.run({ kind: 'view', job }),
    close: () => pool.destroy(),
  };
}
