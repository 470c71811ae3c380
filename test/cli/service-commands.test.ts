/**
 * In-process tests of the store and service commands: import, dump, api, health, config
 * set|unset|get|list, and serve's argument checks (a listening `serve` is tested with child
 * processes in foundation.test.ts and binary.test.ts). `health` talks to a small HTTP
 * server started in this process; config commands get a temp home of their own each.
 */

import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../helpers/cli.js';
import { type CliStore, DEMO_DATASET, storesForThisFile } from '../helpers/cli-store.js';

const ADMINS_ONLY = 'error (forbidden): Only admins may do this.\n';
const DEMO_COUNTS =
  'users\t29\ntokens\t4\ncourses\t1\nenrollments\t27\nmodules\t3\nlessons\t5\nblocks\t20\nassignments\t7\nsubmissions\t120\n' +
  'gradebookSetups\t1\nfinalGrades\t1\nfindings\t1\ntemplates\t1\ncertificates\t1\nreportingLines\t2\n';

const newStore = storesForThisFile();
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

let shared: CliStore;
beforeAll(async () => {
  shared = await newStore();
});

describe('import', () => {
  it('imports a dataset file into an empty store: counts per collection on stdout, progress on stderr only on a terminal', async () => {
    const s = await newStore('empty');
    const res = await s.run(['import', DEMO_DATASET]);
    expect(res).toMatchObject({ code: 0, stdout: DEMO_COUNTS, stderr: '' });
    const again = await (await newStore('empty')).run(['import', DEMO_DATASET], { tty: { stderr: true } });
    expect(again).toMatchObject({ code: 0, stdout: DEMO_COUNTS, stderr: `importing ${DEMO_DATASET}...\n` });
    expect(await s.ok(['whoami'])).toMatch(/^usr_admin\t/);
  });

  it('reads stdin; --replace overwrites existing ids; a nested course file goes to the course import', async () => {
    const s = await newStore();
    const one = { coursebook: 1, users: [{ id: 'usr_s01', name: 'Amara O. Renamed' }] };
    expect(await s.run(['import', '-', '--replace'], { input: JSON.stringify(one) })).toMatchObject({
      code: 0,
      stdout: 'users\t1\n',
      stderr: '',
    });
    expect(await s.ok(['users', 'show', 'usr_s01'])).toContain('\nname\tAmara O. Renamed\n');
    const course = await s.run(['import', 'docs/examples/course.json']);
    expect(course).toMatchObject({ code: 0, stdout: 'courseId\tcrs_stats_intro\nmodules\t2\nlessons\t3\nblocks\t14\nassignments\t1\n', stderr: '' });
  });

  it('ids that exist already are a conflict listing each (exit 6); nothing is imported', async () => {
    const res = await shared.run(['import', '-'], {
      input: JSON.stringify({
        coursebook: 1,
        users: [
          { id: 'usr_new', name: 'New' },
          { id: 'usr_admin', name: 'Dup' },
        ],
      }),
    });
    expect(res.code).toBe(6);
    expect(res.stderr).toBe(
      'error (conflict): 1 record already exists in the store (import with --replace to overwrite); nothing was imported.\n  users[1]: usr_admin already exists in the store\n',
    );
    expect((await shared.run(['users', 'show', 'usr_new'])).code).toBe(5);
  });

  it('an invalid dataset lists every problem with its path (exit 3)', async () => {
    const bad = { coursebook: 1, users: [{ id: 'a' }], assignments: [{ id: 'x', moduleId: 'm', title: 'T', points: -1 }] };
    const res = await shared.run(['import', '-'], { input: JSON.stringify(bad) });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error \(invalid\): The dataset has 2 problems; nothing was imported\.\n/);
    expect(res.stderr).toContain('\n  users[0].name: ');
    expect(res.stderr).toContain('\n  assignments[0].points: must be >= 0\n');
    expect(await shared.run(['import', '-'], { input: '{"coursebook": 2}' })).toMatchObject({
      code: 3,
      stderr: 'error (invalid): The dataset has 1 problem; nothing was imported.\n  coursebook: must be 1\n',
    });
  });

  it('an instruction block whose id a stored lesson block has is a conflict at its own path, naming the lesson (exit 6); a duplicate within the file points to the first (exit 3)', async () => {
    const instruction = (id: string) => ({ id: 'asg_qa', moduleId: 'mod_01', title: 'QA', points: 10, instructions: [{ id, type: 'paragraph', text: 'x' }] });
    expect(await shared.run(['import', '-'], { input: JSON.stringify({ coursebook: 1, assignments: [instruction('blk_001')] }) })).toEqual({
      code: 6,
      stdout: '',
      stderr:
        'error (conflict): 1 record already exists in the store (import with --replace to overwrite); nothing was imported.\n  assignments[0].instructions[0]: blk_001 already exists in the store (a block of lesson les_01)\n',
    });
    const dup = { coursebook: 1, blocks: [{ id: 'blk_dupqa', lessonId: 'les_01', type: 'paragraph', text: 'a' }], assignments: [instruction('blk_dupqa')] };
    expect(await shared.run(['import', '-'], { input: JSON.stringify(dup) })).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error (invalid): The dataset has 1 problem; nothing was imported.\n  assignments[0].instructions[0]: duplicate of blocks[0] (blk_dupqa)\n',
    });
    expect((await shared.run(['assignments', 'show', 'asg_qa'])).code).toBe(5);
  });

  it('a course file imported again is a conflict at its own paths saying how a file updates its course; import --replace of a course file is a usage error (exit 2)', async () => {
    const s = await newStore('empty');
    await s.ok(['courses', 'import', 'docs/examples/course.json']);
    const again = await s.run(['courses', 'import', 'docs/examples/course.json']);
    expect(again.code).toBe(6);
    expect(again.stderr.split('\n').slice(0, 2)).toEqual([
      "error (conflict): 22 records of this course file are already in the store, course crs_stats_intro among them; nothing was imported. Importing a course file only creates a course; to update crs_stats_intro from the file, PUT it to /api/v1/courses/crs_stats_intro/content (coursebook api PUT /courses/crs_stats_intro/content --file FILE; coursebook courses push crs_stats_intro --to PROFILE sends a store's copy to another store); to import another copy, leave the file's ids out (and import with --as-new, asNew=true).",
      '  course: crs_stats_intro already exists in the store',
    ]);
    expect(again.stderr).toContain('\n  modules[1].lessons[0].blocks[0]: blk_c1 already exists in the store (a block of lesson les_claims)\n');
    expect(again.stderr).toContain(
      '\n  modules[0].assignments[0].instructions[0]: blk_i1 already exists in the store (an instruction of assignment asg_summary)\n',
    );
    expect(again.stderr).not.toMatch(/\n {2}(courses|lessons|blocks|assignments)\[/);
    expect(await s.run(['import', 'docs/examples/course.json', '--replace'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: --replace is for datasets: docs/examples/course.json is a course file, which import only creates a course from. To update course crs_stats_intro from it: coursebook api PUT /courses/crs_stats_intro/content --file docs/examples/course.json (coursebook courses push crs_stats_intro --to PROFILE sends a store's copy to another store)\n",
    });
    // What both messages advise works.
    expect((await s.run(['api', 'PUT', '/courses/crs_stats_intro/content', '--file', 'docs/examples/course.json'])).code).toBe(0);
  });

  it('text that is not JSON exits 3 (invalid); a non-admin exits 4', async () => {
    const notJson = await shared.run(['import', '-'], { input: 'coursebook: 1' });
    expect(notJson.code).toBe(3);
    expect(notJson.stderr).toMatch(/^error \(invalid\): standard input: not valid JSON: /);
    const res = await shared.run(['--as', 'usr_instructor', 'import', '-'], { input: JSON.stringify({ coursebook: 1, users: [{ id: 'usr_x', name: 'X' }] }) });
    expect(res).toMatchObject({ code: 4, stdout: '', stderr: ADMINS_ONLY });
  });

  it('a file that does not exist is a usage error naming it (exit 2)', async () => {
    const res = await shared.run(['import', 'no-such-dataset.json'], { cwd: shared.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no-such-dataset.json');
    expect(res.stderr).not.toMatch(/unexpected failure|\n {4}at /);
  });
});

describe('dump', () => {
  it('prints the whole store as a dataset document; tokens only as their SHA-256', async () => {
    const res = await shared.run(['dump']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const doc = JSON.parse(res.stdout);
    expect(doc.coursebook).toBe(1);
    expect(doc.users).toHaveLength(29);
    expect(doc.submissions).toHaveLength(120);
    expect(doc.tokens[0]).toMatchObject({ id: 'tok_demo_admin', tokenSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(res.stdout).not.toContain('demo-admin-token');
  });

  it('--out FILE writes the same bytes; the file imports into a new store', async () => {
    const res = await shared.run(['dump', '--out', 'dump.json'], { cwd: shared.dir });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: 'wrote dump.json\n' });
    const text = readFileSync(join(shared.dir, 'dump.json'), 'utf8');
    expect(text).toBe(await shared.ok(['dump']));
    const fresh = await newStore('empty');
    expect((await fresh.run(['import', join(shared.dir, 'dump.json')])).code).toBe(0);
    expect(await fresh.ok(['dump'])).toBe(text);
  });

  it('only admins dump the store (exit 4)', async () => {
    expect(await shared.run(['--as', 'usr_instructor', 'dump'])).toMatchObject({ code: 4, stdout: '', stderr: ADMINS_ONLY });
  });
});

describe('api', () => {
  it('GET prints the JSON indented; the path may omit the leading slash or include /api/v1', async () => {
    const res = await shared.run(['api', 'GET', '/courses/crs_data101']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith('{\n  "id": "crs_data101",\n  "title": "Data Literacy 101",\n')).toBe(true);
    expect(await shared.ok(['api', 'get', 'courses/crs_data101'])).toBe(res.stdout);
    expect(await shared.ok(['api', 'GET', '/api/v1/courses/crs_data101'])).toBe(res.stdout);
  });

  it('sends a body from --body or --file; --json prints the body exactly as sent', async () => {
    const s = await newStore();
    const created = await s.run(['--json', 'api', 'POST', '/users', '--body', '{"name":"Api User","id":"usr_api"}']);
    expect(created).toMatchObject({ code: 0, stdout: '{"id":"usr_api","name":"Api User","email":null,"admin":false}\n' });
    const patched = await s.run(['api', 'PATCH', '/users/usr_api', '--file', '-'], { input: '{"email":"api@demo.example"}' });
    expect(JSON.parse(patched.stdout)).toEqual({ id: 'usr_api', name: 'Api User', email: 'api@demo.example', admin: false });
    expect(await s.run(['--json', 'api', 'DELETE', '/reporting-lines/usr_manager/usr_s02'])).toMatchObject({ code: 0, stdout: '{"ok":true}\n' });
  });

  it('an unknown method is a usage error (exit 2); a body that is not JSON is invalid (exit 3)', async () => {
    expect(await shared.run(['api', 'FETCH', '/courses'])).toMatchObject({ code: 2, stderr: 'error: method must be one of GET, POST, PUT, PATCH, DELETE\n' });
    const body = await shared.run(['api', 'POST', '/users', '--body', '{name: x}']);
    expect(body.code).toBe(3);
    expect(body.stderr).toMatch(/^error \(invalid\): --body: not valid JSON: /);
  });

  it('API errors keep their exit codes: invalid 3, forbidden 4, not-found 5, conflict 6', async () => {
    expect(await shared.run(['api', 'PATCH', '/users/usr_s01', '--body', '{"admin":"yes"}'])).toMatchObject({
      code: 3,
      stderr: 'error (invalid): admin: must be a boolean\n',
    });
    expect(await shared.run(['--as', 'usr_s01', 'api', 'GET', '/users'])).toMatchObject({ code: 4, stderr: ADMINS_ONLY });
    expect(await shared.run(['api', 'GET', '/nope/route'])).toMatchObject({ code: 5, stderr: 'error (not-found): No route GET /api/v1/nope/route.\n' });
    expect(await shared.run(['api', 'POST', '/users', '--body', '{"name":"Dup","id":"usr_s01"}'])).toMatchObject({
      code: 6,
      stderr: 'error (conflict): User "usr_s01" already exists.\n',
    });
    const json = await shared.run(['--json', 'api', 'GET', '/courses/crs_nope']);
    expect(json).toMatchObject({ code: 5, stdout: '' });
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'not-found', message: 'Course "crs_nope" was not found.' } });
  });
});

/** A tiny HTTP service in this process: answers health with the given status and body. */
/**
 * A service for `health` on 127.0.0.1, port 0: the health path under each prefix answers
 * one way (`/down/api/v1/health` answers 200 {"status":"down"}); the root is healthy.
 */
async function fakeService(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const m = /^(?:\/([a-z-]+))?\/api\/v1\/health(\?.*)?$/.exec(req.url ?? '');
    const json = { 'content-type': 'application/json' };
    switch (m ? (m[1] ?? 'ok') : 'none') {
      case 'ok':
        return res.writeHead(200, json).end('{"status":"ok"}');
      case 'more':
        return res.writeHead(200, json).end('{"status":"ok","version":"9.9"}');
      case 'down':
        return res.writeHead(200, json).end('{"status":"down"}');
      case 'html':
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html>\n<html>\n  <head><title>Welcome to nginx!</title></head>\n  <body>${'x'.repeat(200)}</body>\n</html>\n`);
      case 'starting':
        return res.writeHead(503, json).end('{"status":"starting"}');
      case 'moved':
        return res.writeHead(301, { location: 'https://example.test/api/v1/health' }).end();
      case 'huge':
        return res.writeHead(200, json).end(`{"status":"ok"${' '.repeat(100_000)}}`);
      case 'hang':
        return; // never answers
      case 'slow-body':
        return res.writeHead(200, json).write('{"status":'); // never finishes
      case 'drop':
        return req.socket.destroy();
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe('health', () => {
  let svc: Awaited<ReturnType<typeof fakeService>>;
  beforeAll(async () => {
    svc = await fakeService();
  });
  afterAll(async () => {
    await svc?.close();
  });
  const NOT_OK = 'not 200 {"status":"ok"}';

  it('a service that answers {"status":"ok"}: ok (exit 0), whichever form of its URL is given; --json prints its body', async () => {
    for (const url of [
      svc.url,
      `${svc.url}/`,
      `${svc.url}/api/v1`,
      `${svc.url}/api/v1/`,
      `${svc.url}/api/v1/health`,
      `${svc.url}/api/v1/health/`,
      `${svc.url}/ok`,
    ])
      expect({ url, ...(await runCli(['health', url])) }).toEqual({ url, code: 0, stdout: 'ok\n', stderr: '' });
    expect(await runCli(['--json', 'health', `${svc.url}/api/v1`])).toEqual({ code: 0, stdout: '{"status":"ok"}\n', stderr: '' });
    expect(await runCli(['health', `${svc.url}/more`])).toMatchObject({ code: 0, stdout: 'ok\n' });
  });

  it('an answer that is not a healthy {"status":"ok"} exits 1, naming the URL asked, the status and what came back', async () => {
    const cases: [string, string][] = [
      ['down', `200, ${NOT_OK}: {"status":"down"}`],
      ['html', `200, ${NOT_OK}: <!doctype html> <html> <head><title>Welcome to nginx!</title></head> <body>xxxxx…`],
      ['starting', `503, ${NOT_OK}: {"status":"starting"}`],
      ['nothing-here', `404, ${NOT_OK}: (empty body)`],
      ['moved', `301 (location: https://example.test/api/v1/health), ${NOT_OK}: (empty body)`],
      ['huge', `200, ${NOT_OK}: {"status":"ok"… (over 64 KiB)`],
    ];
    for (const [prefix, said] of cases)
      expect(await runCli(['health', `${svc.url}/${prefix}/api/v1`])).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: ${svc.url}/${prefix}/api/v1/health answered ${said}\n`,
      });
  });

  it('a body that stops arriving is an answer too (exit 1); a service that never answers, or drops the connection, is unreachable (exit 9)', async () => {
    expect(await runCli(['health', `${svc.url}/slow-body`, '--timeout', '300'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${svc.url}/slow-body/api/v1/health answered 200 but its body did not arrive within 300 ms\n`,
    });
    expect(await runCli(['health', `${svc.url}/hang`, '--timeout', '300'])).toEqual({
      code: 9,
      stdout: '',
      stderr: `error: cannot reach ${svc.url}/hang/api/v1/health: no answer within 300 ms\n`,
    });
    expect(await runCli(['health', `${svc.url}/drop`])).toEqual({
      code: 9,
      stdout: '',
      stderr: `error: cannot reach ${svc.url}/drop/api/v1/health: the connection was closed before a complete answer (UND_ERR_SOCKET)\n`,
    });
  });

  it('nothing listening: cannot reach the health URL (exit 9); user:pass@ is never shown', async () => {
    const gone = await fakeService();
    await gone.close(); // the port is free again: connections are refused
    const port = new URL(gone.url).port;
    expect(await runCli(['health', `http://someone:secret@127.0.0.1:${port}/api/v1`, '--timeout', '2000'])).toEqual({
      code: 9,
      stdout: '',
      stderr: `error: cannot reach http://127.0.0.1:${port}/api/v1/health: ECONNREFUSED\n`,
    });
  });

  it('a URL that does not parse, or a --timeout that is not a whole number above 0, is a usage error naming it (exit 2)', async () => {
    const res = await runCli(['health', 'localhost 8080']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('localhost 8080');
    expect(res.stderr).not.toMatch(/unexpected failure|\n {4}at /);
    expect(await runCli(['health', svc.url, '--timeout', 'soon'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --timeout must be a whole number of milliseconds >= 1 (got "soon")\n',
    });
  });
});

describe('config set', () => {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const config = (args: string[]) => runCli(['config', ...args], { env: home.env });
  const file = join(home.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');

  it('writes the setting (mode 0600); it never makes a profile the default by itself (--default does); the note redacts tokens', async () => {
    expect(await config(['set', 'baseUrl', 'https://lms.example', '--name', 'work'])).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'set work.baseUrl = https://lms.example/\n',
    });
    expect(await config(['set', 'token', 'secret-token-1234', '--name', 'work'])).toMatchObject({ code: 0, stderr: 'set work.token = ****1234\n' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { work: { baseUrl: 'https://lms.example', token: 'secret-token-1234' } },
    });
    expect(await config(['set', 'db', '/tmp/other.db', '--name', 'other', '--default'])).toMatchObject({
      code: 0,
      stderr: 'set other.db = /tmp/other.db (other is now the default profile)\n',
    });
    expect(JSON.parse(readFileSync(file, 'utf8')).defaultProfile).toBe('other');
  });

  it('an unknown setting is a usage error listing the settings (exit 2)', async () => {
    expect(await config(['set', 'colour', 'blue'])).toMatchObject({
      code: 2,
      stderr: 'error: unknown setting "colour"; settings are baseUrl, token, db, as, course\n',
    });
    expect((await config(['list'])).stdout).not.toContain('colour');
  });

  it('a config file that is not JSON is a usage error naming it (exit 2)', async () => {
    const broken = tempHome();
    cleanups.push(broken.cleanup);
    const path = join(broken.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');
    await runCli(['config', 'set', 'as', 'usr_s01'], { env: broken.env });
    writeFileSync(path, '{"profiles": ');
    const res = await runCli(['config', 'set', 'as', 'usr_s02'], { env: broken.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^error: the config file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON: `));
  });
});

describe('config unset', () => {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const config = (args: string[]) => runCli(['config', ...args], { env: home.env });

  it('removes one setting and keeps the others', async () => {
    await config(['set', 'baseUrl', 'https://lms.example', '--name', 'work']);
    await config(['set', 'token', 'secret-token-1234', '--name', 'work']);
    expect(await config(['unset', 'token', '--name', 'work'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await config(['list'])).toMatchObject({ code: 0, stdout: 'work\tbaseUrl\thttps://lms.example/\n' });
  });

  it('an unknown setting is a usage error (exit 2)', async () => {
    expect(await config(['unset', 'colour', '--name', 'work'])).toMatchObject({
      code: 2,
      stderr: 'error: unknown setting "colour"; settings are baseUrl, token, db, as, course\n',
    });
  });
});

describe('config get', () => {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const config = (args: string[]) => runCli(['config', ...args], { env: home.env });

  it('prints one setting; tokens redacted, URL credentials hidden', async () => {
    await config(['set', 'baseUrl', 'https://bob:secret@lms.example/x']);
    await config(['set', 'token', 'secret-token-1234']);
    expect(await config(['get', 'baseUrl'])).toMatchObject({ code: 0, stdout: 'https://****@lms.example/x\n', stderr: '' });
    expect(await config(['get', 'token', '--name', 'default'])).toMatchObject({ code: 0, stdout: '****1234\n' });
  });

  it('a setting that is not set, or an unknown setting, is a usage error naming it (exit 2)', async () => {
    expect(await config(['get', 'db'])).toMatchObject({ code: 2, stdout: '', stderr: 'error: default.db is not set\n' });
    expect(await config(['get', 'baseUrl', '--name', 'nope'])).toMatchObject({ code: 2, stderr: 'error: nope.baseUrl is not set\n' });
    expect(await config(['get', 'colour'])).toMatchObject({
      code: 2,
      stderr: 'error: unknown setting "colour"; settings are baseUrl, token, db, as, course\n',
    });
  });
});

describe('config use', () => {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const run = (args: string[]) => runCli(args, { env: home.env });
  const file = join(home.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');

  it('config set --name never redirects commands; config use does, and --none undoes it', async () => {
    // Nothing listens on port 9: a command that went to this profile's service would fail.
    await run(['config', 'set', 'baseUrl', 'http://127.0.0.1:9', '--name', 'ci']);
    await run(['config', 'set', 'token', 'secret-token-1234', '--name', 'ci']);
    const local = await run(['--json', 'whoami']);
    expect(local.code).toBe(0);
    expect(JSON.parse(local.stdout).user.id).toBe('local');
    expect(await run(['config', 'use', 'ci'])).toMatchObject({ code: 0, stdout: '', stderr: 'ci is now the default profile\n' });
    expect(JSON.parse(readFileSync(file, 'utf8')).defaultProfile).toBe('ci');
    expect((await run(['config', 'list'])).stdout).toContain('ci*\tbaseUrl\thttp://127.0.0.1:9/\n');
    const remote = await run(['whoami']);
    expect(remote.code).toBe(9);
    expect(remote.stderr).toMatch(/error: cannot reach http:\/\/127\.0\.0\.1:9: ECONNREFUSED after 5 tries\n$/);
    expect(await run(['config', 'use', '--none'])).toMatchObject({ code: 0, stderr: 'no default profile\n' });
    expect((await run(['whoami'])).code).toBe(0);
  });

  it('a profile named "default" applies when none was chosen', async () => {
    const other = tempHome();
    cleanups.push(other.cleanup);
    await runCli(['config', 'set', 'as', 'nobody'], { env: other.env });
    // The default profile acts as user "nobody", who is not in the new store.
    expect(await runCli(['whoami'], { env: other.env })).toMatchObject({ code: 4, stderr: expect.stringContaining('"nobody"') });
  });

  it('an unknown profile, or neither a name nor --none, is a usage error (exit 2)', async () => {
    expect(await run(['config', 'use', 'nope'])).toMatchObject({
      code: 2,
      stderr: 'error: no profile named "nope" (profiles: ci); create it with coursebook config set KEY VALUE --name nope\n',
    });
    expect(await run(['config', 'use'])).toMatchObject({ code: 2, stderr: 'error: give a profile name, or --none to clear the default\n' });
    expect(await run(['config', 'use', 'ci', '--none'])).toMatchObject({ code: 2, stderr: 'error: give a profile name, or --none to clear the default\n' });
  });
});

describe('config list', () => {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const config = (args: string[]) => runCli(['config', ...args], { env: home.env });

  it('lists profile, setting, value (default profile starred, tokens redacted); --json adds the path', async () => {
    expect(await config(['list'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await config(['set', 'baseUrl', 'https://lms.example', '--name', 'work']);
    await config(['set', 'token', 'secret-token-1234', '--name', 'work']);
    await config(['use', 'work']);
    await config(['set', 'db', '/tmp/local.db', '--name', 'local']);
    expect(await config(['list'])).toMatchObject({
      code: 0,
      stdout: 'work*\tbaseUrl\thttps://lms.example/\nwork*\ttoken\t****1234\nlocal\tdb\t/tmp/local.db\n',
    });
    const json = JSON.parse((await config(['--json', 'list'])).stdout);
    expect(json).toEqual({
      path: join(home.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json'),
      defaultProfile: 'work',
      profiles: { work: { baseUrl: 'https://lms.example/', token: '****1234' }, local: { db: '/tmp/local.db' } },
    });
  });

  it('a config file that is not JSON is a usage error (exit 2)', async () => {
    writeFileSync(join(home.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json'), 'not json');
    const res = await config(['list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: the config file .*config\.json is not valid JSON: /);
  });
});

describe('the config file, checked when read', () => {
  /** A temp home whose config file holds `text`; `run` runs the CLI there. */
  const withConfig = (text: string) => {
    const home = tempHome();
    cleanups.push(home.cleanup);
    const file = join(home.env.XDG_CONFIG_HOME!, 'coursebook', 'config.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return { file, run: (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...home.env, ...env } }) };
  };
  const fixSetting = (key: string, name: string) =>
    `set it with coursebook config set ${key} VALUE --name ${name}, or remove it with coursebook config unset ${key} --name ${name}`;

  it('a setting of the wrong type is one usage line naming the file, the key and the fix (exit 2), never a stack trace', async () => {
    const db = withConfig('{"profiles":{"a":{"db":5}}}');
    expect(await db.run(['--profile', 'a', 'courses', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${db.file}: profiles.a.db must be a string, not a number; ${fixSetting('db', 'a')}\n`,
    });
    const url = withConfig('{"profiles":{"a":{"baseUrl":7,"token":true}}}');
    expect(await url.run(['--profile', 'a', 'courses', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${url.file}: profiles.a.baseUrl must be a string, not a number; ${fixSetting('baseUrl', 'a')} (and 1 more problem in the file)\n`,
    });
    // A course is one id, never a list quietly read as its first element.
    const course = withConfig('{"profiles":{"default":{"db":":memory:","course":["crs_x"]}}}');
    expect(await course.run(['modules', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${course.file}: profiles.default.course must be a string, not an array; ${fixSetting('course', 'default')}\n`,
    });
    // The file is checked whichever profile is used: a wrong value is wrong everywhere.
    expect((await db.run(['config', 'list'])).code).toBe(2);
  });

  it('config set and unset repair the setting the check names; nothing else is changed', async () => {
    const c = withConfig('{"profiles":{"a":{"db":5,"course":"crs_x"}}}');
    expect(await c.run(['config', 'set', 'db', ':memory:', '--name', 'a'])).toEqual({ code: 0, stdout: '', stderr: 'set a.db = :memory:\n' });
    expect(JSON.parse(readFileSync(c.file, 'utf8'))).toEqual({ profiles: { a: { db: ':memory:', course: 'crs_x' } } });
    expect(await c.run(['--profile', 'a', 'courses', 'list'])).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFileSync(c.file, '{"profiles":{"a":{"db":":memory:","as":false}}}');
    expect(await c.run(['config', 'unset', 'as', '--name', 'a'])).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(readFileSync(c.file, 'utf8'))).toEqual({ profiles: { a: { db: ':memory:' } } });
  });

  it('a file that is not a JSON object is refused (exit 2), and config set never overwrites it', async () => {
    const array = withConfig('[]\n');
    const refused = `error: the config file ${array.file} must hold a JSON object ({"profiles": {...}}), not an array; correct it or remove it\n`;
    expect(await array.run(['config', 'set', 'as', 'usr_s01'])).toEqual({ code: 2, stdout: '', stderr: refused });
    expect(await array.run(['--json', 'whoami'])).toEqual({ code: 2, stdout: '', stderr: refused });
    expect(readFileSync(array.file, 'utf8')).toBe('[]\n');
    expect((await withConfig('null').run(['config', 'list'])).stderr).toMatch(/ must hold a JSON object \(\{"profiles": \{\.\.\.\}\}\), not null; /);
    const profiles = withConfig('{"profiles":["a"]}');
    expect(await profiles.run(['config', 'set', 'db', ':memory:', '--name', 'a'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${profiles.file}: profiles must be an object of profiles by name ({"NAME": {"db": "..."}}), not an array; correct it in the file\n`,
    });
    expect(readFileSync(profiles.file, 'utf8')).toBe('{"profiles":["a"]}');
    const profile = withConfig('{"profiles":{"my work":"db.sqlite"}}');
    expect(await profile.run(['config', 'set', 'db', ':memory:', '--name', 'my work'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${profile.file}: profiles["my work"] must be an object of settings (baseUrl, token, db, as, course), not a string; correct it in the file\n`,
    });
  });

  it('unknown keys are a warning, said once a run, naming each (and the key meant); they are kept, and not listed', async () => {
    const c = withConfig('{"profiles":{"a":{"db":":memory:","course":"crs_x","baseurl":"http://127.0.0.1:9","secret":"s3cr3t"}},"colour":"blue"}');
    const warning =
      `coursebook: warning: the config file ${c.file} has keys coursebook does not know, ignored: profiles.a.baseurl (baseUrl?), profiles.a.secret, colour ` +
      "(a profile's settings are baseUrl, token, db, as, course; the file's own keys defaultProfile, profiles)\n";
    // The back end and the course both come from the profile: the file is read once.
    expect(await c.run(['--profile', 'a', 'modules', 'list'])).toEqual({
      code: 5,
      stdout: '',
      stderr: `${warning}error (not-found): Course "crs_x" was not found.\n`,
    });
    expect(await c.run(['config', 'list'])).toEqual({ code: 0, stdout: 'a\tdb\t:memory:\na\tcourse\tcrs_x\n', stderr: warning });
    expect(await c.run(['config', 'set', 'as', 'usr_s01', '--name', 'a'])).toEqual({ code: 0, stdout: '', stderr: `${warning}set a.as = usr_s01\n` });
    expect(JSON.parse(readFileSync(c.file, 'utf8'))).toEqual({
      profiles: { a: { db: ':memory:', course: 'crs_x', baseurl: 'http://127.0.0.1:9', secret: 's3cr3t', as: 'usr_s01' } },
      colour: 'blue',
    });
    const one = withConfig('{"profiles":{"default":{"DB":":memory:"}}}');
    expect((await one.run(['config', 'list'])).stderr).toBe(
      `coursebook: warning: the config file ${one.file} has a key coursebook does not know, ignored: profiles.default.DB (db?) ` +
        "(a profile's settings are baseUrl, token, db, as, course; the file's own keys defaultProfile, profiles)\n",
    );
  });

  it('a defaultProfile of the wrong type names config use as the fix; config use --none repairs it', async () => {
    const c = withConfig('{"defaultProfile":5,"profiles":{"a":{"db":":memory:"}}}');
    expect(await c.run(['courses', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the config file ${c.file}: defaultProfile must be a profile's name (a string), not a number; choose one with coursebook config use NAME, or clear it with coursebook config use --none\n`,
    });
    expect(await c.run(['config', 'use', '--none'])).toMatchObject({ code: 0, stderr: 'no default profile\n' });
    expect(JSON.parse(readFileSync(c.file, 'utf8'))).toEqual({ profiles: { a: { db: ':memory:' } } });
  });

  it('a default profile the file does not have is a usage error where it would apply (exit 2), a warning in config list', async () => {
    const c = withConfig('{"defaultProfile":"gone","profiles":{"a":{"db":":memory:"}}}');
    const missing = `the default profile is "gone" (defaultProfile in the config file ${c.file}), and there is no profile of that name; choose one with coursebook config use NAME, or clear it with coursebook config use --none`;
    expect(await c.run(['courses', 'list'])).toEqual({ code: 2, stdout: '', stderr: `error: ${missing}\n` });
    // Where the default profile does not apply, nothing is said.
    expect(await c.run(['--memory', 'courses', 'list'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await c.run(['--profile', 'a', 'courses', 'list'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await c.run(['courses', 'list'], { COURSEBOOK_PROFILE: 'a' })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await c.run(['config', 'list'])).toEqual({ code: 0, stdout: 'a\tdb\t:memory:\n', stderr: `coursebook: warning: ${missing}\n` });
    expect(await c.run(['config', 'use', 'a'])).toMatchObject({ code: 0, stderr: 'a is now the default profile\n' });
    expect(await c.run(['courses', 'list'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a profile named like an object property (toString) is no profile', async () => {
    const c = withConfig('{"profiles":{}}');
    expect(await c.run(['--profile', 'toString', 'courses', 'list'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: no profile named "toString" (see coursebook config list)\n',
    });
  });
});

describe('serve', () => {
  // Every case fails before the server listens, so these run in-process.
  const serve = (args: string[]) => shared.run(['serve', ...args]);

  it('--port outside 0..65535 or not a number exits 2 naming the flag', async () => {
    expect(await serve(['--port', '65536'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --port must be a whole number from 0 to 65535 (got "65536")\n',
    });
    expect(await serve(['--port', 'http'])).toMatchObject({ code: 2, stderr: 'error: --port must be a whole number from 0 to 65535 (got "http")\n' });
  });

  it('--log other than json, pretty or off exits 2', async () => {
    expect(await serve(['--port', '0', '--log', 'loud'])).toMatchObject({ code: 2, stdout: '', stderr: 'error: --log must be json, pretty or off\n' });
  });

  it('--now that is not a timestamp, or --rate-burst below 1, exits 2', async () => {
    expect(await serve(['--port', '0', '--now', 'whenever'])).toMatchObject({ code: 2, stderr: 'error: --now must be an RFC 3339 timestamp\n' });
    expect(await serve(['--port', '0', '--rate-burst', '0'])).toMatchObject({ code: 2, stderr: 'error: --rate-burst must be a whole number >= 1\n' });
  });

  it('--rate-limit or --max-body that do not parse exit 2 naming the flag', async () => {
    expect(await runCli(['--memory', 'serve', '--port', '0', '--log', 'off', '--rate-limit', 'fast'], { env: shared.env })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --rate-limit must look like 600/min, 10/s or off (got "fast")\n',
    });
    expect(await runCli(['--memory', 'serve', '--port', '0', '--log', 'off', '--max-body', 'huge'], { env: shared.env })).toMatchObject({
      code: 2,
      stderr: 'error: --max-body must be a size such as 1048576, 512kb or 2mb (got "huge")\n',
    });
  });

  it('a --seed file that does not exist is a usage error naming it (exit 2)', async () => {
    const res = await runCli(['--memory', 'serve', '--port', '0', '--log', 'off', '--seed', join(shared.dir, 'no-such-seed.json')], { env: shared.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no-such-seed.json');
    expect(res.stderr).not.toMatch(/unexpected failure|\n {4}at /);
  });
});
