/**
 * Array map/forEach for async steps, one after another: store calls inside a transaction share
 * one connection and must not interleave, and the order of writes must stay the order of the
 * input (positions, "first wins" checks).
 */
export async function mapInOrder<T, R>(items: readonly T[], step: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) out.push(await step(items[i]!, i));
  return out;
}

export async function eachInOrder<T>(items: readonly T[], step: (item: T, index: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i++) await step(items[i]!, i);
}

export async function filterInOrder<T>(items: readonly T[], keep: (item: T, index: number) => Promise<boolean>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) if (await keep(items[i]!, i)) out.push(items[i]!);
  return out;
}
