/**
 * Fitting a table to the terminal: the widest columns give way first, a column never gets
 * narrower than its header (or 8 characters when the header is shorter), and a cut cell
 * ends in an ellipsis. A row is never wrapped in the middle of a value.
 */

const ANSI = /\x1b\[[0-9;]*m/g;

/** Characters on screen: code points, without colour escapes. */
export const visibleWidth = (s: string): number => [...s.replace(ANSI, '')].length;

/** The text cut to `width` characters, its last one an ellipsis when anything was cut. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 0) return '';
  return `${chars.slice(0, width - 1).join('')}…`;
}

export const MIN_COLUMN = 8;

/**
 * Column widths that fit `available` characters with `gap` between columns: each step
 * narrows the widest column that can still give way by one. The first column (the id a
 * reader copies) gives way only when the others cannot. When even the narrowest widths do
 * not fit, those are answered (the terminal cuts the line, not the table).
 */
export function fitColumns(natural: number[], headers: number[], available: number | undefined, gap: number): number[] {
  const widths = [...natural];
  if (available === undefined || available <= 0) return widths;
  const narrowest = natural.map((w, i) => Math.min(w, Math.max(headers[i] ?? 0, MIN_COLUMN)));
  let total = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, widths.length - 1);
  const shrink = (floor: number[]) => {
    while (total > available) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (w > floor[i]! && (widest < 0 || w > widths[widest]!)) widest = i;
      });
      if (widest < 0) return;
      widths[widest]!--;
      total--;
    }
  };
  shrink(narrowest.map((w, i) => (i === 0 ? natural[0]! : w)));
  shrink(narrowest);
  return widths;
}
