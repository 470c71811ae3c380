/**
 * serve starts the requests that one read of its sockets delivered together, at the next
 * turn of the event loop (request-turns.ts), in the order they were read.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { inTurns, type NextTurn } from '../../../src/serve/request-turns.js';
import { type RunningServer, startServer } from '../../../src/serve/server.js';
import { ROOT } from '../../helpers/cli.js';
import { inProcessServeOptions } from '../../helpers/serve.js';

const DEMO = join(ROOT, 'data/demo.json');

/** A next turn the test runs by hand. */
function manualTurns(): { nextTurn: NextTurn; scheduled: () => number; run: () => void } {
  let waiting: Array<() => void> = [];
  return {
    nextTurn: (run) => {
      waiting.push(run);
    },
    scheduled: () => waiting.length,
    run: () => {
      const now = waiting;
      waiting = [];
      for (const run of now) run();
    },
  };
}

const req = (url: string) => ({ url }) as IncomingMessage;
/** A response that records why its connection was closed. */
const closable = () => {
  const closed: string[] = [];
  return { closed, res: { destroy: (err: Error) => closed.push(err.message) } as unknown as ServerResponse };
};
const { res } = closable();

describe('requests in turns', () => {
  it('starts none of a turn’s requests until the next turn, then all of them in arrival order, with one turn scheduled', () => {
    const turns = manualTurns();
    const started: string[] = [];
    const listener = inTurns((r) => started.push(r.url!), turns.nextTurn);
    listener(req('/a'), res);
    listener(req('/b'), res);
    listener(req('/c'), res);
    expect(started).toEqual([]);
    expect(turns.scheduled()).toBe(1);
    turns.run();
    expect(started).toEqual(['/a', '/b', '/c']);
  });

  it('a request that arrives while a turn starts its requests waits for a turn of its own', () => {
    const turns = manualTurns();
    const started: string[] = [];
    let listener: (r: IncomingMessage, s: ServerResponse) => unknown = () => undefined;
    listener = inTurns((r) => {
      started.push(r.url!);
      if (r.url === '/a') listener(req('/late'), res);
    }, turns.nextTurn);
    listener(req('/a'), res);
    listener(req('/b'), res);
    turns.run();
    expect(started).toEqual(['/a', '/b']);
    expect(turns.scheduled()).toBe(1);
    turns.run();
    expect(started).toEqual(['/a', '/b', '/late']);
  });

  it('a listener that throws or rejects for one request closes that connection alone, and the turn’s other requests start', async () => {
    const turns = manualTurns();
    const started: string[] = [];
    const listener = inTurns((r) => {
      started.push(r.url!);
      if (r.url === '/throws') throw new Error('thrown');
      if (r.url === '/rejects') return Promise.reject(new Error('rejected'));
      return Promise.resolve();
    }, turns.nextTurn);
    const [throws, rejects, fine] = [closable(), closable(), closable()];
    listener(req('/throws'), throws.res);
    listener(req('/rejects'), rejects.res);
    listener(req('/fine'), fine.res);
    turns.run();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['/throws', '/rejects', '/fine']);
    expect([throws.closed, rejects.closed, fine.closed]).toEqual([['thrown'], ['rejected'], []]);
  });
});

describe('serve with requests in turns', () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('answers many requests sent at once over separate connections, each its own answer', async () => {
    server = await startServer(inProcessServeOptions({ seed: { name: DEMO, text: readFileSync(DEMO, 'utf8') } }));
    const paths = ['/api/v1/health', '/api/v1/courses/crs_data101', '/api/v1/courses/no_such_course', '/api/v1/nowhere'];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => paths[i % paths.length]!).map(async (path) => {
        const answer = await request(server!.url + path, { headers: { authorization: 'Bearer demo-instructor-token' } });
        return { path, status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
      }),
    );
    for (const { path, status, body } of answers) {
      if (path === '/api/v1/health') expect([status, body.status]).toEqual([200, 'ok']);
      else if (path === '/api/v1/courses/crs_data101') expect([status, body.id]).toEqual([200, 'crs_data101']);
      else expect([status, (body.error as { code: string }).code]).toEqual([404, 'not-found']);
    }
  });
});
