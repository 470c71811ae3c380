/**
 * Runs `work` on every item with at most `concurrency` at a time, in item order. When one
 * throws, no further item starts; those already running finish, then the error is thrown.
 */
export async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure) throw failure.error;
}
