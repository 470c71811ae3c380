/**
 * Local mode's light Headers, Request and Response (src/cli/lite-fetch.ts) held to node's own
 * classes on the same inputs, and the built binary (which uses them) held to the in-process
 * CLI (node's classes, in this test process) byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiteHeaders, LiteRequest, LiteResponse, useLiteFetch } from '../../src/cli/lite-fetch.js';
import { BIN, runBin } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

/**
 * Node's own class. Test files share a worker's globals (vitest isolate: false), and
 * @hono/node-server, which serve's tests load, puts its own Request and Response in front of
 * node's: classes whose prototype is node's class.
 */
function nodeOwn<T extends object>(current: T): T {
  const parent = Object.getPrototypeOf(current) as T;
  return parent === Function.prototype ? current : nodeOwn(parent);
}
const NodeHeaders = nodeOwn(Headers);
const NodeRequest = nodeOwn(Request);
const NodeResponse = nodeOwn(Response);

const NAMES = ['Content-Type', 'content-type', 'Set-Cookie', 'set-cookie', 'X-Request-Id', 'Link', 'a', 'Z-Last'];
const VALUES = ['text/csv', '  padded\t', 'a=1; Path=/', '', 'x, y', '\u00e9t\u00e9'];

type Op = { kind: 'append' | 'set' | 'delete'; name: string; value: string };
const ops = fc.array(
  fc.record({ kind: fc.constantFrom<Op['kind']>('append', 'set', 'delete'), name: fc.constantFrom(...NAMES), value: fc.constantFrom(...VALUES) }),
  { maxLength: 12 },
);

/** Everything a reader can ask of a Headers. */
function observe(headers: Headers | LiteHeaders) {
  return {
    entries: [...headers],
    got: NAMES.map((name) => [headers.get(name), headers.has(name)]),
    cookies: headers.getSetCookie(),
    forEach: (() => {
      const seen: string[] = [];
      headers.forEach((value, key) => seen.push(`${key}=${value}`));
      return seen;
    })(),
  };
}

/** What a thrown error is, or 'ok'. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (err) {
    return (err as Error).constructor.name;
  }
}

async function readAll(response: Response | LiteResponse) {
  const text = await response.text();
  return {
    status: response.status,
    ok: response.ok,
    statusText: response.statusText,
    type: response.headers.get('content-type'),
    text,
    used: response.bodyUsed,
  };
}

/** A stream of these byte chunks (a multi-byte character may be split between two). */
function chunks(...parts: number[][]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new Uint8Array(part));
      controller.close();
    },
  });
}

describe('LiteHeaders answers what Headers answers', () => {
  it('after any sequence of append, set and delete (property)', () => {
    fc.assert(
      fc.property(ops, (list) => {
        const real = new NodeHeaders();
        const lite = new LiteHeaders();
        for (const op of list) {
          if (op.kind === 'delete') {
            real.delete(op.name);
            lite.delete(op.name);
          } else {
            real[op.kind](op.name, op.value);
            lite[op.kind](op.name, op.value);
          }
        }
        expect(observe(lite)).toEqual(observe(real));
        expect(observe(new LiteHeaders(lite))).toEqual(observe(new NodeHeaders(real)));
      }),
    );
  });

  it('from a record and from pairs; refuses a bad name or value as Headers does', () => {
    const record = { 'Content-Type': 'application/json', 'X-Request-Id': ' req_1 ' };
    expect(observe(new LiteHeaders(record))).toEqual(observe(new NodeHeaders(record)));
    const pairs: [string, string][] = [
      ['set-cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['b', '1'],
    ];
    expect(observe(new LiteHeaders(pairs))).toEqual(observe(new NodeHeaders(pairs)));
    for (const [name, value] of [
      ['bad name', 'x'],
      ['x', 'a\nb'],
      ['x', 'nul\0'],
      ['', 'x'],
    ] as const) {
      expect(outcome(() => new LiteHeaders().append(name, value))).toBe(outcome(() => new NodeHeaders().append(name, value)));
      expect(outcome(() => new LiteHeaders().append(name, value))).toBe('TypeError');
    }
  });
});

describe('LiteResponse answers what Response answers', () => {
  const bodies: [string, () => string | Uint8Array | ReadableStream<Uint8Array> | null][] = [
    ['a string', () => '{"id":"crs_1","title":"Caf\u00e9"}'],
    ['a string with a byte order mark', () => '\ufeffStudent,Score\r\n'],
    ['a string with a lone surrogate', () => 'a\ud800b'],
    ['bytes with a byte order mark', () => new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0x42])],
    ['bytes that are not UTF-8', () => new Uint8Array([0x41, 0xff, 0xc3])],
    ['a stream splitting a character', () => chunks([0x43, 0x61, 0x66, 0xc3], [0xa9, 0x21], [])],
    ['a stream with a byte order mark', () => chunks([0xef, 0xbb], [0xbf, 0x7a])],
    ['no body', () => null],
    ['an empty string', () => ''],
  ];
  for (const [name, body] of bodies) {
    it(`reads ${name} the same, once`, async () => {
      const init = { status: 201, statusText: 'Created', headers: { Link: '<http://local/next>; rel="next"' } };
      const real = new NodeResponse(body(), init);
      const lite = new LiteResponse(body(), init);
      expect(await readAll(lite)).toEqual(await readAll(real));
      expect([...lite.headers]).toEqual([...real.headers]);
      // A second read is refused alike (an absent body reads as empty again, in both).
      const again = async (r: Response | LiteResponse) =>
        r.text().then(
          (t) => `ok:${t}`,
          (e: Error) => e.constructor.name,
        );
      expect(await again(lite)).toBe(await again(real));
    });
  }

  it('bytes, JSON, a body read through its stream, and a copy made from another answer (as Hono makes one)', async () => {
    const text = '{"a":[1,2.5,"\u00e9"]}';
    expect(new Uint8Array(await new LiteResponse(text).arrayBuffer())).toEqual(new Uint8Array(await new NodeResponse(text).arrayBuffer()));
    expect(await new LiteResponse(text).json()).toEqual(await new NodeResponse(text).json());
    const stream = new LiteResponse(text).body!;
    expect(await new NodeResponse(stream).text()).toBe(text);
    const first = new LiteResponse(text, { status: 404, headers: { 'x-request-id': 'req_1' } });
    const copy = new LiteResponse(first.body, first);
    expect([copy.status, copy.headers.get('x-request-id'), await copy.text()]).toEqual([404, 'req_1', text]);
  });

  it('refuses a status out of range, or a body on a status that has none, as Response does', () => {
    for (const [body, status] of [
      [null, 199],
      [null, 600],
      ['x', 204],
      ['x', 304],
      [null, 204],
    ] as const) {
      expect(outcome(() => new LiteResponse(body, { status }))).toBe(outcome(() => new NodeResponse(body, { status })));
    }
    expect(outcome(() => new LiteResponse(null, { status: 600 }))).toBe('RangeError');
  });

  it('Response.json', async () => {
    const real = NodeResponse.json({ a: 1 }, { status: 400 });
    const lite = LiteResponse.json({ a: 1 }, { status: 400 });
    expect(await readAll(lite)).toEqual(await readAll(real));
  });
});

describe('LiteRequest answers what Request answers', () => {
  it('the URL and method as the standard normalises them; a body on GET is refused', () => {
    for (const url of ['http://local/api/v1/courses?q=a b&x=\u00e9', 'http://local/api/v1/courses/../users', 'HTTP://LOCAL/api/v1/%7Euser']) {
      for (const method of ['get', 'Post', 'PATCH', 'patch', 'delete']) {
        expect([new LiteRequest(url, { method }).url, new LiteRequest(url, { method }).method]).toEqual([
          new NodeRequest(url, { method }).url,
          new NodeRequest(url, { method }).method,
        ]);
      }
    }
    expect(outcome(() => new LiteRequest('http://local/', { method: 'GET', body: 'x' }))).toBe(
      outcome(() => new NodeRequest('http://local/', { method: 'GET', body: 'x' })),
    );
    expect(outcome(() => new LiteRequest('http://local/', { method: 'bad method' }))).toBe('TypeError');
  });

  it('a body as text, bytes and a stream; its content type; a request made again from it with the bytes read (as Hono body limits do)', async () => {
    const body = '{"letter":"A","reason":"r\u00e9vision"}';
    const make = <R extends Request | LiteRequest>(Kind: new (url: string, init: { method: string; body: string }) => R) =>
      new Kind('http://local/api/v1/x', { method: 'POST', body });
    expect(make(LiteRequest).headers.get('content-type')).toBe(make(NodeRequest).headers.get('content-type'));
    expect(await make(LiteRequest).text()).toBe(await make(NodeRequest).text());
    expect(await make(LiteRequest).json()).toEqual(await make(NodeRequest).json());
    const lite = make(LiteRequest);
    const reader = lite.body!.getReader();
    const read = await reader.read();
    const again = new LiteRequest(lite, { body: read.value! });
    expect([again.method, again.url, again.headers.get('content-type'), await again.text()]).toEqual([
      'POST',
      'http://local/api/v1/x',
      'text/plain;charset=UTF-8',
      body,
    ]);
    expect(new LiteRequest('http://local/', { method: 'POST' }).body).toBeNull();
    expect(new LiteRequest('http://local/').signal.aborted).toBe(false);
  });
});

describe('useLiteFetch', () => {
  const lazyTarget = () => {
    const target: Record<string, unknown> = {};
    for (const name of ['Headers', 'Request', 'Response'])
      Object.defineProperty(target, name, { get: () => `node's ${name}`, configurable: true, enumerable: false });
    return target;
  };

  it("takes the place of node's lazy globals, and leaves them once node's are loaded", () => {
    const fresh = lazyTarget();
    expect(useLiteFetch(fresh)).toBe(true);
    expect([fresh.Headers, fresh.Request, fresh.Response]).toEqual([LiteHeaders, LiteRequest, LiteResponse]);
    const loaded = lazyTarget();
    Object.defineProperty(loaded, 'Response', { value: "node's Response", configurable: true });
    expect(useLiteFetch(loaded)).toBe(false);
    expect(loaded.Response).toBe("node's Response");
    expect(loaded.Headers).toBe("node's Headers");
  });
});

describe('the binary, on the light classes, answers what the in-process CLI answers on node classes', () => {
  let inProcess: CliStore;
  let binary: CliStore;
  beforeAll(async () => {
    [inProcess, binary] = await Promise.all([cliStore(), cliStore()]);
  });
  afterAll(() => {
    inProcess.cleanup();
    binary.cleanup();
  });

  const commands: [string, string[]][] = [
    ['a JSON list', ['--json', 'courses', 'list']],
    ['a table', ['courses', 'list']],
    ['a course', ['--json', 'courses', 'show', 'crs_data101']],
    ['a missing course (404)', ['--json', 'courses', 'show', 'crs_missing']],
    ['a write', ['--json', 'gradebook', 'final', 'set', '--course', 'crs_data101', '--user', 'usr_s03', '--letter', 'B', '--reason', 'parity']],
    [
      'a stale write (409)',
      ['--json', 'gradebook', 'final', 'set', '--course', 'crs_data101', '--user', 'usr_s03', '--letter', 'C', '--reason', 'stale', '--expected-version', '0'],
    ],
    ['an export with a byte order mark', ['gradebook', 'export', '--course', 'crs_data101', '--bom']],
    [
      'a refused body (400)',
      ['--json', 'gradebook', 'final', 'set', '--course', 'crs_data101', '--user', 'usr_s04', '--percent', '250', '--reason', 'too much'],
    ],
  ];
  it("never loads node's undici: Hono makes its requests and answers with the light classes", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coursebook-probe-'));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        "process.on('exit', () => process._rawDebug('undici loaded: ' + process.moduleLoadList.some((m) => m.includes('internal/deps/undici'))));\n",
      );
      for (const args of [
        ['--json', 'courses', 'list'],
        ['gradebook', 'export', '--course', 'crs_data101'],
      ]) {
        const run = spawnSync(process.execPath, ['--require', probe, BIN, '--db', binary.db, ...args], {
          encoding: 'utf8',
          env: { ...process.env, ...binary.env },
        });
        expect([run.status, run.stderr]).toEqual([0, 'undici loaded: false\n']);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const [name, args] of commands) {
    it(name, async () => {
      const viaNode = await inProcess.run(args);
      const viaBin = await runBin(['--db', binary.db, ...args], { env: binary.env });
      expect({ ...viaBin, stderr: viaBin.stderr.replaceAll(binary.db, 'STORE') }).toEqual({
        ...viaNode,
        stderr: viaNode.stderr.replaceAll(inProcess.db, 'STORE'),
      });
    });
  }
});
