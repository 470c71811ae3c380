#!/usr/bin/env node
// Fault and abuse figures (npm run test:faults): real processes of the built binary, real
// sockets, real kill -9. Prints one line per figure (the README keeps them) and exits 1 if a
// figure misses its target. Run on a fresh clone: npm ci && npm run test:faults.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin/coursebook');
const demo = join(root, 'data/demo.json');
const work = mkdtempSync(join(tmpdir(), 'cb-faults-'));
const env = { ...process.env, CI: '1', XDG_DATA_HOME: work, XDG_CONFIG_HOME: work };
const ADMIN = { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' };
const only = process.argv[2];
const results = [];

function report(name, value, ok, note = '') {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${value}${note ? ` (${note})` : ''}`);
}

/** Start `coursebook serve` and wait for its listening line. */
function serve(args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--log', 'off', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      child.removeAllListeners('exit');
      const { url, port } = JSON.parse(line);
      resolvePromise({ child, url, port, stderr: () => stderr, exited: new Promise((r) => child.once('exit', (code, signal) => r({ code, signal }))) });
    });
  });
}

const cli = (args) =>
  new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.once('close', (code) => resolvePromise({ code, stdout, stderr }));
  });

function rawSocket(port, data) {
  return new Promise((resolvePromise, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      if (data) socket.write(data);
      resolvePromise(socket);
    });
    socket.once('error', reject);
  });
}

function rawExchange(port, data) {
  return new Promise((resolvePromise) => {
    let text = '';
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(data));
    socket.setEncoding('utf8');
    socket.on('data', (d) => (text += d));
    socket.on('error', () => {});
    socket.once('close', () => {
      const split = text.indexOf('\r\n\r\n');
      resolvePromise({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: split < 0 ? '' : text.slice(split + 4) });
    });
  });
}

const CODES = new Set([
  'unauthenticated',
  'forbidden',
  'not-found',
  'invalid',
  'conflict',
  'not-ready',
  'ai-disabled',
  'ai-failed',
  'rate-limited',
  'too-large',
  'unsupported',
]);
function isEnvelope(text) {
  try {
    const body = JSON.parse(text);
    return CODES.has(body?.error?.code) && typeof body.error.message === 'string';
  } catch {
    return false;
  }
}

// --- 1. kill -9 while writing: acknowledged writes survive ----------------------------------
async function killNine() {
  const trials = 10;
  let lost = 0;
  let acknowledged = 0;
  let corrupt = 0;
  for (let trial = 0; trial < trials; trial++) {
    const db = join(work, `kill-${trial}.db`);
    const server = await serve(['--db', db, '--seed', demo]);
    const acked = [];
    let stop = false;
    // Four writers at once, so writes are in flight when the process dies.
    const writer = async (w) => {
      for (let n = 0; !stop; n++) {
        const id = `crs_t${trial}_w${w}_${n}`;
        try {
          const res = await fetch(`${server.url}/api/v1/courses`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ id, title: `Write ${n}` }) });
          if (res.status === 201) acked.push(id);
        } catch {
          return; // the process is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    const target = 40 + trial * 13;
    while (acked.length < target) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    stop = true;
    await server.exited;
    await Promise.all(writers);
    acknowledged += acked.length;
    const check = new Database(db);
    if (check.pragma('integrity_check', { simple: true }) !== 'ok') corrupt++;
    check.close();
    // Restart the same command: the store is not empty, so the seed is not loaded again.
    const again = await serve(['--db', db, '--seed', demo]);
    const list = await (await fetch(`${again.url}/api/v1/courses`, { headers: ADMIN })).json();
    const present = new Set(list.map((c) => c.id));
    lost += acked.filter((id) => !present.has(id)).length;
    again.child.kill('SIGTERM');
    await again.exited;
  }
  report(
    'acknowledged writes lost over 10 kill -9 trials',
    lost,
    lost === 0 && corrupt === 0,
    `${acknowledged} acknowledged; integrity_check ok in ${trials - corrupt} of ${trials}`,
  );
}

// --- 2. concurrent writers of the same version: exactly one wins ---------------------------
async function sameVersion() {
  const db = join(work, 'versions.db');
  const server = await serve(['--db', db, '--seed', demo]);
  const path = '/api/v1/courses/crs_data101/gradebook/students/usr_s07/final';
  const rounds = 10;
  let exact = 0;
  for (let round = 0; round < rounds; round++) {
    const history = await (await fetch(`${server.url}${path}/history`, { headers: ADMIN })).json();
    const version = Math.max(...history.map((h) => h.version));
    const letters = ['A', 'B', 'C', 'D'];
    // Four over HTTP and four CLI processes on the same file, all with the same expected version.
    const http = letters.map((letter) =>
      fetch(`${server.url}${path}`, {
        method: 'PUT',
        headers: ADMIN,
        body: JSON.stringify({ reason: `round ${round}`, expectedVersion: version, letter }),
      }).then((r) => r.status),
    );
    const local = letters.map((letter) =>
      cli([
        '--db',
        db,
        'gradebook',
        'final',
        'set',
        'crs_data101',
        'usr_s07',
        '--letter',
        letter,
        '--reason',
        `round ${round}`,
        '--expected-version',
        String(version),
      ]).then((r) => (r.code === 0 ? 200 : r.code === 6 ? 409 : r.code)),
    );
    const statuses = await Promise.all([...http, ...local]);
    if (statuses.filter((s) => s === 200).length === 1 && statuses.filter((s) => s === 409).length === statuses.length - 1) exact++;
  }
  const history = await (await fetch(`${server.url}${path}/history`, { headers: ADMIN })).json();
  const versions = history.map((h) => h.version);
  const unique = new Set(versions).size === versions.length;
  server.child.kill('SIGTERM');
  await server.exited;
  report(
    'concurrent same-version writers with exactly one winner',
    `${exact} of ${rounds} rounds`,
    exact === rounds && unique,
    `8 writers a round (4 HTTP, 4 CLI processes); history versions unique: ${unique}`,
  );
}

// --- 3. processes starting together on a fresh store ---------------------------------------
async function freshStore() {
  const rounds = 5;
  let failed = 0;
  for (let round = 0; round < rounds; round++) {
    const db = join(work, `fresh-${round}.db`);
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => cli(['--db', db, 'courses', 'create', '--title', `P${i}`, '--id', `crs_p${i}`])));
    failed += runs.filter((r) => r.code !== 0).length;
  }
  report('processes failing on a fresh store', `${failed} of ${rounds * 8}`, failed === 0, `8 started together, ${rounds} rounds`);
}

// --- 4. bad input: the envelope, never a 5xx ------------------------------------------------
async function badInput() {
  const server = await serve(['--memory', '--seed', demo, '--rate-limit', 'off', '--auth-failure-limit', 'off']);
  const cases = [];
  const raw = [
    'HELLO THERE\r\n\r\n',
    'GET /api/v1/health HTTP/7.1\r\nHost: x\r\n\r\n',
    `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
    'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXYZ\r\n0\r\n\r\n',
    'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    'GET /api/v1/health HTTP/1.1\r\nHo\x01st: x\r\n\r\n',
  ];
  for (const data of raw) cases.push(rawExchange(server.port, data));
  const send = (method, path, body, headers = ADMIN) =>
    fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }).then(async (r) => ({ status: r.status, body: await r.text() }));
  const utf8 = (s) => new TextEncoder().encode(s);
  const http = [
    ['POST', '/api/v1/courses', '{"title":'],
    ['POST', '/api/v1/courses', '{"title":"\\ud800"}'],
    ['POST', '/api/v1/courses', new Uint8Array([...utf8('{"title":"a'), 0xff, ...utf8('"}')])],
    ['POST', '/api/v1/courses', 'title=x', { ...ADMIN, 'content-type': 'application/x-www-form-urlencoded' }],
    ['POST', '/api/v1/courses', JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) })],
    ['POST', '/api/v1/courses', '{"title":"x","description":1e309}'],
    ['POST', '/api/v1/courses', `${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`],
    ['GET', '/api/v1/courses/%E0%A4%A', undefined],
    ['GET', '/api/v1/courses/..%2F..%2Fetc', undefined],
    ['GET', '/api/v1/nope', undefined],
    ['DELETE', '/api/v1/health', undefined],
    ['GET', '/api/v1/courses', undefined, { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c3JfYWRtaW4ifQ.' }],
    ['GET', '/api/v1/courses', undefined, { authorization: 'Basic YWRtaW46YWRtaW4=' }],
    ['PUT', '/api/v1/courses/crs_data101/gradebook/students/usr_s07/final', JSON.stringify({ reason: 'x', expectedVersion: 1e20, letter: 'A' })],
    ['GET', '/api/v1/certificates?userId=', undefined],
    [
      'POST',
      '/api/v1/import',
      JSON.stringify({
        coursebook: 1,
        users: [
          { id: 'u', name: 'U' },
          { id: 'u', name: 'U' },
        ],
      }),
    ],
  ];
  for (const [method, path, body, headers] of http) cases.push(send(method, path, body, headers));
  const answers = await Promise.all(cases);
  let fuzzed = 0;
  let fuzzOk = 0;
  // A small fuzzer over the served document: random JSON bodies to every operation with a body.
  const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
  const { default: fc } = await import('fast-check');
  const bodies = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 12, seed: 17 });
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op.requestBody) continue;
      const path = template.replace(/\{[^}]+\}/g, (m) => ({ '{courseId}': 'crs_data101', '{moduleId}': 'mod_01' })[m] ?? 'x1');
      for (const body of bodies) {
        const res = await send(method.toUpperCase(), path, JSON.stringify(body));
        fuzzed++;
        if (res.status < 500 && (res.status < 400 || isEnvelope(res.body))) fuzzOk++;
      }
    }
  }
  server.child.kill('SIGTERM');
  await server.exited;
  const good = answers.filter((a) => a.status >= 400 && a.status < 500 && isEnvelope(a.body)).length;
  report(
    'bad-input cases answered with the envelope and no 5xx',
    `${good} of ${answers.length}`,
    good === answers.length && fuzzOk === fuzzed,
    `${raw.length} malformed HTTP on a raw socket, ${http.length} bad requests; plus ${fuzzOk} of ${fuzzed} fuzzed bodies answered without a 5xx`,
  );
}

// --- 5. SIGTERM with 10 half-open connections ----------------------------------------------
async function shutdown() {
  const timeout = 10;
  const server = await serve(['--memory', '--seed', demo, '--shutdown-timeout', String(timeout)]);
  const halfOpen = [];
  for (let i = 0; i < 10; i++)
    halfOpen.push(
      await rawSocket(
        server.port,
        i % 2
          ? 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n'
          : 'POST /api/v1/courses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-admin-token\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n{"ti',
      ),
    );
  for (const s of halfOpen) s.on('error', () => {});
  await (await fetch(`${server.url}/api/v1/health`, { headers: { connection: 'close' } })).text();
  const started = performance.now();
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  const seconds = (performance.now() - started) / 1000;
  const line = server.stderr().trim().split('\n').pop();
  report(
    'seconds from SIGTERM to exit with 10 half-open connections',
    seconds.toFixed(1),
    code === 0 && seconds <= timeout + 1,
    `--shutdown-timeout ${timeout}, exit ${code}; stderr: ${line}`,
  );
}

const figures = { killNine, sameVersion, freshStore, badInput, shutdown };
if (!existsSync(join(root, 'dist/cli/index.js'))) throw new Error('build first: npm run build');
try {
  for (const [name, run] of Object.entries(figures)) if (!only || only === name) await run();
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(results.every(Boolean) ? 0 : 1);
