// The one line format every benchmark prints, so `npm run bench` reads as a table:
//   name | figure | floor | ratio | target | PASS, MISS, REFUSED, SKIPPED or INFO
// A floor is measured in the same run on the same machine, so a ratio survives a slower or
// busier machine where an absolute figure would not. REFUSED means the run itself was not
// sound (for example most writes answered 409): its figure measures nothing and the bench
// exits 1. SKIPPED means the floor could not be had (for example json-server would not install).
// INFO is a figure printed for the record, with no target of the issue to meet.
import { loadavg } from 'node:os';

export function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The q-quantile (0..1) of some numbers, nearest rank. */
export function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export const ms = (v) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;
export const seconds = (v) => `${(v / 1000).toFixed(2)} s`;
export const perSecond = (v, unit) => `${Math.round(v).toLocaleString('en-US')} ${unit}/s`;

/**
 * Print one target. `ratio` is figure/floor (or null for an absolute target); `pass` is
 * true, false, null for a refused run, or 'info' for a figure without a target; `skipped`
 * when there was no floor to compare with.
 */
export function printTarget({ name, figure, floor = '-', ratio = null, target = '-', pass, skipped = false, note = '' }) {
  const verdict = skipped ? 'SKIPPED' : pass === 'info' ? 'INFO' : pass === null ? 'REFUSED' : pass ? 'PASS' : 'MISS';
  if (pass === null) process.exitCode = 1;
  const columns = [name.padEnd(44), figure.padEnd(18), floor.padEnd(36), (ratio === null ? '-' : `${ratio.toFixed(2)}x`).padEnd(6), target.padEnd(14), verdict];
  console.log(columns.join(' | ') + (note ? `  [${note}]` : ''));
}

/** The status codes of an autocannon run, e.g. "200: 51234, 409: 3", and the share that were 200. */
export function statusMix(result) {
  const counts = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]);
  if (result.errors > 0) counts.push(['errors', result.errors]);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  const ok = counts.find(([code]) => code === '200')?.[1] ?? 0;
  return { text: counts.map(([code, c]) => `${code}: ${c}`).join(', '), okShare: total === 0 ? 0 : ok / total };
}

/** The machine's load average (1, 5, 15 min): it is shared, so every piece says how busy it was. */
export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
