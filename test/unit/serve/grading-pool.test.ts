/**
 * serve's grading pool when its worker threads cannot start (a damaged install): piscina
 * reports that as an `error` event and keeps the task queued, which would either end the
 * process or leave the request unanswered. The pool must instead say so once and grade on
 * the main thread, answering exactly what the in-thread grader answers.
 */
import { expect, it } from 'vitest';
import { inlineGrader } from '../../../src/api/grader.js';
import { workerGrader } from '../../../src/serve/grading-pool.js';
import { item, NOW, setupWith, sub } from '../grading/fixtures.js';

it('a pool whose worker cannot load grades on the main thread, and says why once', async () => {
  const reports: string[] = [];
  const pool = workerGrader({
    maxThreads: 1,
    workerFile: new URL('./no-such-grading-worker.js', import.meta.url),
    onBroken: (err) => reports.push(err.message),
  });
  const input = { setup: setupWith(), items: [item('a1', 10)], students: [{ id: 's1', name: 'Sam' }], submissions: [sub('a1', 7)], now: NOW, detail: true };
  try {
    // Two at once: both were queued when the worker failed; then one after the pool is shut.
    const [first, second] = await Promise.all([pool.grade(input), pool.grade(input)]);
    const expected = await inlineGrader.grade(input);
    expect(first.students.map((s) => [s.studentId, s.percent])).toEqual(expected.students.map((s) => [s.studentId, s.percent]));
    expect(second.students[0]!.percent).toBe(expected.students[0]!.percent);
    const job = { grading: input, courseId: 'c', overrides: [] };
    expect(new TextDecoder().decode(await pool.gradesView(job))).toBe(new TextDecoder().decode(await inlineGrader.gradesView(job)));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/no-such-grading-worker/);
  } finally {
    await pool.close();
  }
});
