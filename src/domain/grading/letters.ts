import type { LetterScheme } from './types.js';

/**
 * The band with the greatest min <= the rounded percentage (the first listed among equal
 * mins); above 100 gets the top band; below every band: null.
 */
export function letterFor(scheme: LetterScheme, rounded: number | null): string | null {
  if (rounded === null) return null;
  let best: { letter: string; min: number } | null = null;
  for (const band of scheme.bands) {
    if (band.min <= rounded && (best === null || band.min > best.min)) best = band;
  }
  return best?.letter ?? null;
}
