// Admission of writes (src/api/define.ts): on SQLite, a write request that arrives while the
// store's one connection is taken waits for it before its checks, so the writes that waited
// go through their checks and transactions together (docs/decisions.md).
import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';

const onSqlite = process.env.COURSEBOOK_TEST_STORE !== 'postgres';
const services: TestService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

/** A transaction that holds the store's connection until `release` is called. */
function holdStore(svc: TestService) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  // It writes nothing, so every revision stays as it was and kept answers stay good.
  const done = svc.store.tx(async () => {
    started();
    await gate;
  });
  return { running, release, done };
}

/** Whether p settles within ms (an in-process request takes well under it). */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

const finalPath = '/courses/c1/gradebook/students/stu1/final';

describe('admission of writes', () => {
  it.runIf(onSqlite)('Store.busy: null while the connection is free, and settles once the transaction holding it has committed', async () => {
    const svc = await makeService();
    services.push(svc);
    expect(svc.store.busy()).toBeNull();
    const held = holdStore(svc);
    await held.running;
    const busy = svc.store.busy();
    expect(busy).not.toBeNull();
    expect(await settlesWithin(busy!, 30)).toBe(false);
    held.release();
    await busy;
    expect(svc.store.busy()).toBeNull();
    await held.done;
    // A transaction's handle never waits on its own connection.
    await svc.store.tx(async (tx) => {
      expect(tx.busy()).toBeNull();
    });
  });

  it.runIf(onSqlite)('a write that arrives while the store is taken waits for it before its checks', async () => {
    const svc = await makeService();
    services.push(svc);
    const override = (expectedVersion: unknown) => svc.call('PUT', finalPath, { reason: 'Agreed', expectedVersion, percent: 91 }, 'inst');
    // The caller and the access decision are kept from here on (a grade write moves neither).
    expect((await override(0)).status).toBe(200);
    const held = holdStore(svc);
    await held.running;
    // Refused by validation alone (nothing it needs is in the store): without admission it
    // would be answered at once.
    const refused = override('one');
    const written = override(1);
    expect(await settlesWithin(refused, 50)).toBe(false);
    held.release();
    await held.done;
    const [refusedAnswer, writtenAnswer] = await Promise.all([refused, written]);
    expect(refusedAnswer.status).toBe(400);
    expect(writtenAnswer.status).toBe(200);
    expect(writtenAnswer.body).toMatchObject({ version: 2 });
  });

  it('a write to a free store is answered as before', async () => {
    const svc = await makeService();
    services.push(svc);
    expect(svc.store.busy()).toBeNull();
    const res = await svc.call('PUT', finalPath, { reason: 'Agreed', expectedVersion: 0, percent: 91 }, 'inst');
    expect(res.status).toBe(200);
  });
});
