/**
 * Wait for the event loop's next turn: what other requests have waiting (a `/health` call
 * during a large export) runs first. A resolved promise would not do: its continuation runs
 * before any I/O, so a chain of awaits on synchronous work holds the loop throughout.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
