/**
 * The reset gate (runtime/reset-gate.ts): requests and resets of a fixture never overlap.
 * Every step is a promise the test settles; nothing is timed.
 */
import { describe, expect, it } from 'vitest';
import { type Admission, resetGate } from '../../src/runtime/reset-gate.js';

const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('resetGate', () => {
  it('a reset aborts the signal of the requests inside, waits until they leave, then restores; leaving twice counts once', async () => {
    const gate = resetGate();
    const a = gate.enter() as Admission;
    const b = gate.enter() as Admission;
    expect(a).not.toBeInstanceOf(Promise);
    const log: string[] = [];
    const reset = gate.run(async () => void log.push('restored'));
    await turns();
    expect([a.signal.aborted, b.signal.aborted, log]).toEqual([true, true, []]);
    a.leave();
    a.leave();
    await turns();
    expect(log).toEqual([]);
    b.leave();
    await reset;
    expect(log).toEqual(['restored']);
    // Let in after the reset: a new signal, not aborted.
    expect((gate.enter() as Admission).signal.aborted).toBe(false);
  });

  it('a request arriving during a reset waits until the seed is back, then enters with a new signal', async () => {
    const gate = resetGate();
    let release!: () => void;
    const restoring = new Promise<void>((resolve) => (release = resolve));
    const reset = gate.run(() => restoring);
    let entered: Admission | null = null;
    void Promise.resolve(gate.enter()).then((admission) => (entered = admission));
    await turns();
    expect(entered).toBeNull();
    release();
    await reset;
    await turns(2);
    expect(entered).not.toBeNull();
    expect(entered!.signal.aborted).toBe(false);
  });

  it('resets run one after another; a failed restore fails its reset alone and the door opens again', async () => {
    const gate = resetGate();
    const log: string[] = [];
    let release!: () => void;
    const first = gate.run(async () => {
      log.push('first begins');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('first ends');
      throw new Error('restore failed');
    });
    const second = gate.run(async () => void log.push('second'));
    await turns();
    expect(log).toEqual(['first begins']);
    release();
    await expect(first).rejects.toThrow('restore failed');
    await second;
    expect(log).toEqual(['first begins', 'first ends', 'second']);
    expect(gate.enter()).not.toBeInstanceOf(Promise);
  });
});
