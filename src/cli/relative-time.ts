/**
 * Timestamps as a person reads them on a terminal ("in 3 days", "2 hours ago"), like gh.
 * Only for TTY tables and field lists: piped text and JSON keep the ISO text.
 */

/** An RFC 3339 timestamp with a time and a zone, as the API writes them. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export const isTimestamp = (value: unknown): value is string => typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const UNITS: [limit: number, size: number, name: string][] = [
  [HOUR, MINUTE, 'minute'],
  [DAY, HOUR, 'hour'],
  [MONTH, DAY, 'day'],
  [YEAR, MONTH, 'month'],
  [Number.POSITIVE_INFINITY, YEAR, 'year'],
];

/**
 * `at` relative to `now`, counted in whole units (rounded down): under a minute either way is
 * "just now"; then minutes, hours, days (under 30), months of 30 days, years of 365 days.
 */
export function relativeTime(at: string, now: string): string {
  const delta = Date.parse(at) - Date.parse(now);
  const size = Math.abs(delta);
  if (size < MINUTE) return 'just now';
  const [, unit, name] = UNITS.find(([limit]) => size < limit)!;
  const n = Math.floor(size / unit);
  const amount = `${n} ${name}${n === 1 ? '' : 's'}`;
  return delta > 0 ? `in ${amount}` : `${amount} ago`;
}
