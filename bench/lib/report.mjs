// The one line format every benchmark prints, so `npm run bench` reads as a table:
//   name | figure | floor | ratio | target | PASS, MISS or REFUSED
// A floor is measured in the same run on the same machine, so a ratio survives a slower or
// busier machine where an absolute figure would not. REFUSED means the run itself was not
// sound (for example most writes answered 409): its figure measures nothing and the bench
// exits 1. SKIPPED means the floor could not be had (for example json-server would not install).

export function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export const ms = (v) => `${v.toFixed(0)} ms`;
export const seconds = (v) => `${(v / 1000).toFixed(2)} s`;
export const perSecond = (v, unit) => `${Math.round(v).toLocaleString('en-US')} ${unit}/s`;

/**
 * Print one target. `ratio` is figure/floor (or null for an absolute target); `pass` is
 * true, false, or null for a refused run; `skipped` when there was no floor to compare with.
 */
export function printTarget({ name, figure, floor = '-', ratio = null, target, pass, skipped = false, note = '' }) {
  const verdict = skipped ? 'SKIPPED' : pass === null ? 'REFUSED' : pass ? 'PASS' : 'MISS';
  if (pass === null) process.exitCode = 1;
  const columns = [name.padEnd(44), figure.padEnd(18), floor.padEnd(36), (ratio === null ? '-' : `${ratio.toFixed(2)}x`).padEnd(6), target.padEnd(14), verdict];
  console.log(columns.join(' | ') + (note ? `  [${note}]` : ''));
}
