// nextTurn (src/runtime/turns.ts): what the large export awaits between its steps so that
// other requests run. Its point is the difference from awaiting a resolved promise.
import { describe, expect, it } from 'vitest';
import { nextTurn } from '../../src/runtime/turns.js';

describe('nextTurn', () => {
  it('lets callbacks already waiting on the event loop run first, where a resolved promise does not', async () => {
    let waited = false;
    setImmediate(() => {
      waited = true;
    });
    await Promise.resolve();
    expect(waited).toBe(false);
    await nextTurn();
    expect(waited).toBe(true);
  });
});
