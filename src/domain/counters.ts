import { AppError } from '../errors.js';
import { MAX_INT } from '../schemas/common.js';

/**
 * The next value of a version or counter. Versions and attempts are safe 53-bit integers
 * (the spec's `max int`); one at its limit refuses to move with `conflict` rather than
 * store a number that no longer counts exactly.
 */
export function nextCount(current: number, what: string, limit: number = MAX_INT): number {
  if (current >= limit) {
    throw new AppError('conflict', `${what} is at ${current}, the largest it can be; it cannot change again.`, { current, limit });
  }
  return current + 1;
}
