/**
 * #17, `coursebook serve` under faults and abuse: restarts lose nothing (a seed loads into an
 * empty store only; --reseed replaces, out loud), shutdown finishes with half-open
 * connections, slow and malformed HTTP get the error envelope, failed authentications are
 * limited per address. startServer in-process where a socket is enough; the built binary
 * where a signal and an exit code are the point.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import type { ServeOptions } from '../../src/serve/service.js';
import { ROOT, runCli, tempHome } from '../helpers/cli.js';
import { openSocket, parseResponse, rawExchange, readUntilClosed } from '../helpers/raw-http.js';
import { inProcessServeOptions, startServe } from '../helpers/serve.js';

const home = tempHome();
afterAll(() => home.cleanup());

const DEMO = join(ROOT, 'data/demo.json');
const ADMIN = { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' };
const INSTRUCTOR = { authorization: 'Bearer demo-instructor-token', 'content-type': 'application/json' };
const FINAL = '/api/v1/courses/crs_data101/gradebook/students/usr_s07/final';

function options(over: Partial<ServeOptions> = {}): ServeOptions & { err(): string } {
  let err = '';
  return { ...inProcessServeOptions({ stderr: { write: (s: string) => (err += s) }, ...over }), err: () => err };
}
const seedOf = (file = DEMO) => ({ name: file, text: readFileSync(file, 'utf8') });

async function json(server: RunningServer, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as any };
}

describe('serve --db FILE --seed FILE: restarts lose nothing', () => {
  it('the seed loads into the empty store only; acknowledged grades, overrides, edits and revocations survive a restart', async () => {
    const db = join(home.dir, 'restart.db');
    const first = await startServer(options({ db, seed: seedOf() }));
    // Acknowledged work: an override (version 2), a course edit, a new token revoked at once.
    expect(
      (await json(first, FINAL, { method: 'PUT', headers: INSTRUCTOR, body: JSON.stringify({ reason: 'appeal', expectedVersion: 1, letter: 'A' }) })).body,
    ).toEqual({
      ok: true,
      version: 2,
    });
    expect(
      (await json(first, '/api/v1/courses/crs_data101', { method: 'PATCH', headers: ADMIN, body: JSON.stringify({ title: 'Edited after seeding' }) })).status,
    ).toBe(200);
    expect((await json(first, '/api/v1/tokens/tok_demo_instructor', { method: 'DELETE', headers: ADMIN })).status).toBe(200);
    await first.close();

    const again = options({ db, seed: seedOf() });
    const second = await startServer(again);
    try {
      expect(again.err()).toMatch(/already holds data, so .*demo\.json was not loaded \(--reseed replaces its records\)/);
      expect((await json(second, '/api/v1/courses/crs_data101', { headers: ADMIN })).body.title).toBe('Edited after seeding');
      expect((await json(second, '/api/v1/me', { headers: INSTRUCTOR })).status).toBe(401); // still revoked
      const history = (await json(second, `${FINAL}/history`, { headers: ADMIN })).body;
      expect(history.map((h: { version: number; newLetter: string }) => [h.version, h.newLetter])).toEqual([
        [1, 'B+'],
        [2, 'A'],
      ]);
    } finally {
      await second.close();
    }
  });

  it('--reseed replaces the seed records, says so on stderr, keeps revocations and appends no history twice', async () => {
    const db = join(home.dir, 'reseed.db');
    const first = await startServer(options({ db, seed: seedOf() }));
    await json(first, FINAL, { method: 'PUT', headers: INSTRUCTOR, body: JSON.stringify({ reason: 'appeal', expectedVersion: 1, letter: 'A' }) });
    await json(first, '/api/v1/courses/crs_data101', { method: 'PATCH', headers: ADMIN, body: JSON.stringify({ title: 'Edited' }) });
    await json(first, '/api/v1/tokens/tok_demo_instructor', { method: 'DELETE', headers: ADMIN });
    await first.close();

    const again = options({ db, seed: seedOf(), reseed: true, log: 'json' });
    const second = await startServer(again);
    try {
      const notice = JSON.parse(again.err().split('\n')[0]!);
      expect(notice).toMatchObject({ event: 'reseed', db, seed: DEMO });
      expect((await json(second, '/api/v1/courses/crs_data101', { headers: ADMIN })).body.title).toBe('Data Literacy 101'); // replaced
      expect((await json(second, '/api/v1/me', { headers: INSTRUCTOR })).status).toBe(401); // revoked stays revoked
      const history = (await json(second, `${FINAL}/history`, { headers: ADMIN })).body;
      // The seed's B+ is back as version 3; version 1 is not appended a second time.
      expect(history.map((h: { version: number; newLetter: string }) => [h.version, h.newLetter])).toEqual([
        [1, 'B+'],
        [2, 'A'],
        [3, 'B+'],
      ]);
    } finally {
      await second.close();
    }
  });

  it('POST /_reset restores the seed exactly, except that a revoked token stays revoked', async () => {
    const server = await startServer(options({ seed: seedOf(), allowReset: true }));
    try {
      await json(server, '/api/v1/tokens/tok_demo_instructor', { method: 'DELETE', headers: ADMIN });
      await json(server, '/api/v1/courses', { method: 'POST', headers: ADMIN, body: JSON.stringify({ id: 'crs_extra', title: 'Extra' }) });
      expect((await json(server, '/api/v1/_reset', { method: 'POST', headers: ADMIN })).body).toEqual({ ok: true });
      expect((await json(server, '/api/v1/courses/crs_extra', { headers: ADMIN })).status).toBe(404);
      expect((await json(server, '/api/v1/me', { headers: INSTRUCTOR })).status).toBe(401);
      expect((await json(server, '/api/v1/me', { headers: ADMIN })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/**
 * Connections are accepted in the order they were made: once a later connection has been
 * answered, the server holds every earlier one (so a stop right after counts them all).
 */
async function answeredAfter(port: number): Promise<void> {
  const probe = await openSocket(port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(parseResponse(await readUntilClosed(probe)).status).toBe(200);
}

/** Resolves once the port refuses connections (the server stopped accepting). */
async function refusedConnections(port: number): Promise<void> {
  for (;;) {
    const refused = await openSocket(port).then(
      (socket) => (socket.destroy(), false),
      () => true,
    );
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const HALF_SENT_BODY =
  'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-admin-token\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"ti';
const HALF_SENT_HEADERS = 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n';

describe('serve shutdown', () => {
  it('cuts half-open connections (half-sent headers or bodies) after the shutdown timeout and says how many', async () => {
    const o = options({ seed: seedOf(), shutdownTimeoutMs: 200 });
    const server = await startServer(o);
    const halfOpen = await Promise.all([HALF_SENT_HEADERS, HALF_SENT_HEADERS, HALF_SENT_BODY, HALF_SENT_BODY].map((data) => openSocket(server.port, data)));
    const closed = halfOpen.map(readUntilClosed);
    await answeredAfter(server.port);
    expect(await server.close()).toEqual({ cut: 4 });
    await Promise.all(closed);
    expect(o.err()).toMatch(/^coursebook serve: stopped after [\d.]+ s; 4 connections cut after the 0\.2 s shutdown timeout\n$/);
  });

  it('lets a request in flight finish, and closes idle keep-alive connections without counting them as cut', async () => {
    const o = options({ seed: seedOf(), shutdownTimeoutMs: 30_000 });
    const server = await startServer(o);
    // A request whose body is still arriving when the stop comes.
    const body = JSON.stringify({ id: 'crs_late', title: 'Sent during shutdown' });
    const inFlight = await openSocket(
      server.port,
      `POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-admin-token\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    const answer = readUntilClosed(inFlight);
    // An idle keep-alive connection: one answered request, then nothing.
    const idle = await openSocket(server.port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    let idleText = '';
    idle.setEncoding('utf8');
    const idleAnswered = new Promise<void>((resolve) => idle.on('data', (d) => ((idleText += d), idleText.includes('"ok"') && resolve())));
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
    await idleAnswered;
    const stopped = server.close();
    inFlight.write(body.slice(10));
    const res = parseResponse(await answer);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).id).toBe('crs_late');
    expect(await stopped).toEqual({ cut: 0 });
    await idleClosed;
    expect(o.err()).toMatch(/0 connections cut/);
  });

  it('SIGTERM to the real binary with 10 half-open connections: exit 0, a line on stderr saying 10 were cut', async () => {
    // A fraction of a second is a timeout too: the test waits it out.
    const served = await startServe(['--memory', '--seed', DEMO, '--log', 'off', '--shutdown-timeout', '0.25']);
    const sockets = await Promise.all(Array.from({ length: 10 }, (_, i) => openSocket(served.port, i % 2 ? HALF_SENT_BODY : HALF_SENT_HEADERS)));
    const closed = sockets.map(readUntilClosed);
    await answeredAfter(served.port);
    expect(await served.stop('SIGTERM')).toBe(0);
    await Promise.all(closed);
    expect(served.stderr()).toMatch(/stopped after [\d.]+ s; 10 connections cut after the 0.25 s shutdown timeout/);
    expect(served.stderr()).not.toMatch(/internal error/);
  });

  it('a second SIGTERM cuts at once instead of waiting out the timeout', async () => {
    const served = await startServe(['--memory', '--seed', DEMO, '--log', 'off', '--shutdown-timeout', '600']);
    const socket = await openSocket(served.port, HALF_SENT_BODY);
    const closed = readUntilClosed(socket);
    await answeredAfter(served.port);
    const exited = served.stop('SIGTERM');
    await refusedConnections(served.port); // the first signal has been handled: no longer accepting
    served.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await closed;
    expect(served.stderr()).toMatch(/1 connection cut on a second stop signal/);
  });
});

describe('serve against slow and malformed HTTP', () => {
  it('a client that never finishes its headers (slowloris) gets 408 with the envelope, and the socket closes', async () => {
    const server = await startServer(options({ headersTimeoutMs: 500, requestTimeoutMs: 1000 }));
    try {
      const slow = await openSocket(server.port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: a');
      const res = parseResponse(await readUntilClosed(slow));
      expect(res.status).toBe(408);
      expect(res.headers).toMatch(/Content-Type: application\/json/);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'invalid', message: expect.stringMatching(/did not arrive in time/) } });
    } finally {
      await server.close();
    }
  });

  it('a body over --max-body is 413 with Connection: close (its rest is never read, so the connection cannot be reused)', async () => {
    const server = await startServer(options({ seed: seedOf(), maxBody: 1024 }));
    try {
      const res = await fetch(`${server.url}/api/v1/courses`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ title: 'x'.repeat(4096) }) });
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('too-large');
      expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('a chunked body (no declared length) is counted as it arrives: over --max-body it is 413 too, under it is answered', async () => {
    const server = await startServer(options({ seed: seedOf(), maxBody: 1024 }));
    try {
      const chunk = JSON.stringify({ title: 'x'.repeat(4096) });
      const over = await openSocket(
        server.port,
        `POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nAuthorization: ${ADMIN.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
      );
      const tooLarge = parseResponse(await readUntilClosed(over));
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body)).toMatchObject({ error: { code: 'too-large', details: { limit: 1024 } } });
      const small = JSON.stringify({ title: 'Chunked' });
      const under = await openSocket(
        server.port,
        `POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nAuthorization: ${ADMIN.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${small.length.toString(16)}\r\n${small}\r\n0\r\n\r\n`,
      );
      const created = parseResponse(await readUntilClosed(under));
      expect(created.status).toBe(201);
      expect(JSON.parse(created.body)).toMatchObject({ title: 'Chunked' });
    } finally {
      await server.close();
    }
  });

  it('a body sent with a GET is never read: the GET is answered as without it, whatever its size', async () => {
    const server = await startServer(options({ seed: seedOf(), maxBody: 1024 }));
    try {
      const body = 'x'.repeat(4096);
      // Connection: close, so the answer ends the exchange instead of the 5 s keep-alive timeout.
      const socket = await openSocket(
        server.port,
        `GET /api/v1/courses HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${ADMIN.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const res = parseResponse(await readUntilClosed(socket));
      expect(res.status).toBe(200);
      expect(Array.isArray(JSON.parse(res.body))).toBe(true);
      expect((await fetch(`${server.url}/api/v1/courses`, { headers: ADMIN })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  const CASES: [string, string | Buffer, number, string][] = [
    ['a bad request line', 'HELLO THERE\r\n\r\n', 400, 'invalid'],
    ['an unknown HTTP version', 'GET /api/v1/health HTTP/7.1\r\nHost: x\r\n\r\n', 400, 'invalid'],
    ['headers over 16 KiB', `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'too-large'],
    ['a chunk size that is not hex', 'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n', 400, 'invalid'],
    ['a chunk without its CRLF', 'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXYZ\r\n0\r\n\r\n', 400, 'invalid'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'invalid',
    ],
    ['a control character in a header name', 'GET /api/v1/health HTTP/1.1\r\nHo\x01st: x\r\n\r\n', 400, 'invalid'],
  ];

  it.each(CASES)("%s: answered by Node's parser with our envelope, never a 5xx", async (_name, raw, status, code) => {
    const server = await startServer(options());
    try {
      const res = await rawExchange(server.port, raw);
      expect(res.status).toBe(status);
      expect(res.headers).toMatch(/Content-Type: application\/json/);
      expect(res.headers).toMatch(/Connection: close/);
      const envelope = JSON.parse(res.body);
      expect(envelope.error.code).toBe(code);
      expect(typeof envelope.error.message).toBe('string');
    } finally {
      await server.close();
    }
  });
});

describe('serve limits failed authentications per client address', () => {
  it('--auth-failure-limit 3/min: the 4th failure from 127.0.0.1 is 429, and so is then a valid token from there', async () => {
    const server = await startServer(options({ seed: seedOf(), authFailureLimit: '3/min' }));
    try {
      const me = (token: string) => fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect((await me('demo-admin-token')).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await me(`guess-${i}`)).status).toBe(401);
      const blocked = await me('guess-3');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe('rate-limited');
      expect((await me('demo-admin-token')).status).toBe(429);
      expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('serve', () => {
  const serve = (args: string[]) => runCli(['--memory', 'serve', '--port', '0', '--log', 'off', ...args], { env: home.env });

  it('--reseed without --seed is a usage error (exit 2)', async () => {
    expect(await serve(['--reseed'])).toMatchObject({ code: 2, stdout: '', stderr: 'error: --reseed needs --seed FILE\n' });
  });

  it('timeouts, --jwt-max-age and --auth-failure-limit that do not parse exit 2 naming the flag', async () => {
    expect(await serve(['--shutdown-timeout', 'soon'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --shutdown-timeout must be a number of seconds/),
    });
    expect(await serve(['--headers-timeout', '0'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --headers-timeout must be/) });
    expect(await serve(['--headers-timeout', '30', '--request-timeout', '10'])).toMatchObject({
      code: 2,
      stderr: 'error: --request-timeout must be at least --headers-timeout\n',
    });
    expect(await serve(['--jwt-max-age', '1.5'])).toMatchObject({ code: 2, stderr: 'error: --jwt-max-age must be a whole number of seconds\n' });
    expect(await serve(['--auth-failure-limit', 'lots'])).toMatchObject({
      code: 2,
      stderr: 'error: --auth-failure-limit must look like 600/min, 10/s or off (got "lots")\n',
    });
  });

  it('the real binary restarted on its own store with the same --seed keeps what was acknowledged', async () => {
    const db = join(home.dir, 'bin-restart.db');
    const seed = join(home.dir, 'seed.json');
    writeFileSync(seed, readFileSync(DEMO));
    const first = await startServe(['--db', db, '--seed', seed, '--log', 'off'], home.env);
    await fetch(`${first.url}${FINAL}`, { method: 'PUT', headers: INSTRUCTOR, body: JSON.stringify({ reason: 'appeal', expectedVersion: 1, letter: 'A' }) });
    expect(await first.stop('SIGKILL')).toBe(null); // a crash, not a clean stop
    const second = await startServe(['--db', db, '--seed', seed, '--log', 'off'], home.env);
    try {
      const history = (await (await fetch(`${second.url}${FINAL}/history`, { headers: ADMIN })).json()) as { version: number }[];
      expect(history.map((h) => h.version)).toEqual([1, 2]);
      expect(second.stderr()).toMatch(/was not loaded/);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
