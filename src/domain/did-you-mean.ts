/** "did you mean accessFloor?": the closest of the known names to a name that is not one of them. */

/** Edit distance (insertions, deletions, substitutions and swaps of neighbours each cost 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name closest to `name`, compared without case: within 2 edits, or a third of
 * the name's length for long names; a name that only differs in case always qualifies.
 * Ties go to the first candidate. Undefined when nothing is close.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
