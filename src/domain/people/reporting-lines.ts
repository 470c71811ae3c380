/**
 * A new line manager -> report makes a loop when the report already manages the manager,
 * directly or through others. Returns the loop as ids, manager first and last
 * (["a", "b", "c", "a"]), or null.
 */
export function loopIfAdded(lines: { managerId: string; reportId: string }[], managerId: string, reportId: string): string[] | null {
  const reports = new Map<string, string[]>();
  for (const l of lines) {
    const list = reports.get(l.managerId) ?? [];
    list.push(l.reportId);
    reports.set(l.managerId, list);
  }
  // Breadth-first from the new report down its reports, looking for the manager.
  const previous = new Map<string, string>([[reportId, '']]);
  const queue = [reportId];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === managerId) {
      const path = [at];
      let step = previous.get(at)!;
      while (step !== '') {
        path.unshift(step);
        step = previous.get(step)!;
      }
      return [managerId, ...path];
    }
    for (const next of (reports.get(at) ?? []).sort()) {
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}
