/**
 * The command line's conventions (docs/cli.md), piped and on a terminal: --query, --json,
 * tables fitted to the width, relative timestamps, what a create prints, --limit, the store
 * a command may open or create, file errors, help, version and completion. Local mode
 * against the demo store (course crs_data101, updated 2026-08-01T09:00Z; CLI_NOW is
 * 2026-11-22T08:30Z).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, GROUP_DESCRIPTIONS } from '../../src/commands/examples.js';
import { COMMANDS } from '../../src/commands/index.js';
import { BIN, ROOT, runCli, tempHome } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';
import { type Served, startServe } from '../helpers/serve.js';

const TTY = { tty: { stdout: true } };
const COLOUR = { tty: { stdout: true }, env: { NO_COLOR: '', FORCE_COLOR: '1' } };
const ESC = '\x1b[';

const stores: CliStore[] = [];
let demo: CliStore;
beforeAll(async () => {
  demo = await cliStore();
  stores.push(demo);
});
afterAll(() => stores.forEach((s) => s.cleanup()));

describe('--query (JMESPath)', () => {
  it('filters the JSON: compact when piped, a string result bare, quoted with --json', async () => {
    expect(await demo.run(['courses', 'list', '--query', '[].id'])).toEqual({ code: 0, stdout: '["crs_data101"]\n', stderr: '' });
    expect(await demo.ok(['courses', 'show', 'crs_data101', '-q', 'title'])).toBe('Data Literacy 101\n');
    expect(await demo.ok(['--json', 'courses', 'show', 'crs_data101', '--query', 'title'])).toBe('"Data Literacy 101"\n');
    expect(await demo.ok(['enrollments', 'list', '--course', 'crs_data101', '--query', "length([?role=='student'])"])).toBe('25\n');
    expect(await demo.ok(['courses', 'show', 'crs_data101', '--query', 'nothing'])).toBe('null\n');
  });

  it('on a terminal the result is indented JSON', async () => {
    expect((await demo.run(['courses', 'show', 'crs_data101', '--query', '{id: id, status: status}'], TTY)).stdout).toBe(
      '{\n  "id": "crs_data101",\n  "status": "draft"\n}\n',
    );
  });

  it('an expression that does not parse is a usage error (exit 2) before anything is done', async () => {
    const res = await demo.run(['courses', 'create', '--id', 'crs_q', '--title', 'Never made', '--query', '[?']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: --query is not a JMESPath expression: .* \(in "\[\?"\)\n$/);
    expect((await demo.run(['courses', 'show', 'crs_q'])).code).toBe(5);
  });

  it('an expression that ends in a dot (which JMESPath parses with nothing after it) is refused before anything is done too', async () => {
    const res = await demo.run(['courses', 'create', '--id', 'crs_q', '--title', 'Never made', '--query', 'modules[].']);
    expect(res).toEqual({ code: 2, stdout: '', stderr: 'error: --query is not a JMESPath expression: nothing follows "." (in "modules[].")\n' });
    expect((await demo.run(['courses', 'show', 'crs_q'])).code).toBe(5);
  });

  it('a function on the wrong type after a change still exits 2, but prints the whole answer so nothing it made is lost', async () => {
    const own = await cliStore();
    stores.push(own);
    const res = await own.run(['courses', 'create', '--id', 'crs_qt', '--title', 'Made once', '--query', 'abs(title)']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: 'crs_qt', title: 'Made once' });
    expect(res.stderr).toMatch(/^error: --query failed: .*\(in "abs\(title\)"\); the change was made, and its whole answer is printed above instead\n$/);
    expect((await own.run(['courses', 'show', 'crs_qt'])).code).toBe(0);
  });

  it('a function on the wrong type, or a command without JSON output, is a usage error (exit 2)', async () => {
    const wrongType = await demo.run(['courses', 'show', 'crs_data101', '--query', 'abs(title)']);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toMatch(/^error: --query failed: .*abs\(title\)/);
    expect(wrongType.stdout).toBe('');
    const home = tempHome();
    await runCli(['config', 'set', 'as', 'usr_s01'], { env: home.env });
    expect(await runCli(['config', 'get', 'as', '--query', '@'], { env: home.env })).toMatchObject({
      code: 2,
      stderr: 'error: --query needs JSON output, and this command has none\n',
    });
    home.cleanup();
  });
});

describe('--json', () => {
  it("piped: the API's bytes exactly; on a terminal: indented, and coloured when colour is on", async () => {
    const piped = await demo.ok(['--json', 'courses', 'show', 'crs_data101']);
    expect(piped.split('\n')).toHaveLength(2);
    const pretty = (await demo.run(['--json', 'courses', 'show', 'crs_data101'], TTY)).stdout;
    expect(pretty).toBe(`${JSON.stringify(JSON.parse(piped), null, 2)}\n`);
    const coloured = (await demo.run(['--json', 'courses', 'show', 'crs_data101'], COLOUR)).stdout;
    expect(coloured).toContain(`${ESC}34m"id"${ESC}39m: ${ESC}32m"crs_data101"${ESC}39m`);
    expect(coloured).toContain(`${ESC}34m"accessFloor"${ESC}39m: ${ESC}90mnull${ESC}39m`);
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(pretty);
    // Colour is never used when piped, even when forced.
    expect((await demo.run(['--json', 'courses', 'show', 'crs_data101'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } })).stdout).toBe(piped);
  });
});

describe('tables on a terminal', () => {
  it('fit the width: the widest text columns give way, cut cells end in an ellipsis, the id column stays whole', async () => {
    // Natural widths 11, 17, 6, 12 plus gaps are 52 columns; in 40 the title and the time give way.
    const res = await demo.run(['courses', 'list'], { ...TTY, columns: 40 });
    expect(res.stdout).toBe('ID           TITLE     STATUS  UPDATED\ncrs_data101  Data Li…  draft   3 months…\n');
    for (const line of res.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    // In colour, headers are bold and no line ends in spaces.
    const coloured = (await demo.run(['courses', 'list'], { ...COLOUR, columns: 40 })).stdout;
    expect(coloured.split('\n')[0]).toBe(`${ESC}1mID         ${ESC}22m  ${ESC}1mTITLE   ${ESC}22m  ${ESC}1mSTATUS${ESC}22m  ${ESC}1mUPDATED${ESC}22m`);
    // Wide enough: nothing is cut.
    expect((await demo.run(['courses', 'list'], { ...TTY, columns: 52 })).stdout).toBe(
      'ID           TITLE              STATUS  UPDATED\ncrs_data101  Data Literacy 101  draft   3 months ago\n',
    );
  });

  it('a cell with a line break stays on its row', async () => {
    const s = await cliStore();
    stores.push(s);
    await s.ok(['courses', 'create', '--id', 'crs_multi', '--title', 'Two\nlines']);
    const res = await s.run(['courses', 'list'], { ...TTY, columns: 120 });
    expect(res.stdout.split('\n')).toHaveLength(4);
    expect(res.stdout).toContain('crs_multi    Two lines');
    // Piped, the break is an escape and the timestamp ISO.
    expect(await s.ok(['courses', 'list'])).toContain('crs_multi\tTwo\\nlines\tdraft\t2026-11-22T08:30:00.000Z\n');
  });
});

describe('timestamps', () => {
  it('read as relative on a terminal, ISO when piped or in JSON', async () => {
    const shown = (await demo.run(['courses', 'show', 'crs_data101'], TTY)).stdout;
    expect(shown).toMatch(/^updatedAt +3 months ago$/m);
    expect(shown).toMatch(/^createdAt +3 months ago$/m);
    expect(await demo.ok(['courses', 'show', 'crs_data101'])).toContain('updatedAt\t2026-08-01T09:00:00.000Z\n');
    expect(JSON.parse((await demo.run(['--json', 'courses', 'show', 'crs_data101'], TTY)).stdout).updatedAt).toBe('2026-08-01T09:00:00.000Z');
  });
});

describe('what a create prints', () => {
  it('piped: the new id alone; on a terminal: one Created line; --json: the resource', async () => {
    const s = await cliStore();
    stores.push(s);
    expect(await s.run(['courses', 'create', '--id', 'crs_new', '--title', 'New'])).toEqual({ code: 0, stdout: 'crs_new\n', stderr: '' });
    expect(await s.run(['lessons', 'create', '--module', 'mod_01', '--title', 'Quoted "title"', '--minutes', '5'], TTY)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Created lesson les_[a-z0-9]+ "Quoted \\"title\\""\n$/),
    });
    expect(await s.run(['templates', 'create', '--name', 'Blank', '--json'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\{"id":"tpl_/) });
    // A create whose answer has no id (an enrollment) keeps the field list.
    expect(await s.ok(['enrollments', 'create', '--course', 'crs_new', '--user', 'usr_s01'])).toBe('courseId\tcrs_new\nuserId\tusr_s01\nrole\tstudent\n');
  });
});

describe('--limit on list commands', () => {
  it('answers at most N rows; without it every row', async () => {
    expect((await demo.ok(['enrollments', 'list', '--course', 'crs_data101'])).trim().split('\n')).toHaveLength(27);
    expect(await demo.ok(['enrollments', 'list', '--course', 'crs_data101', '--limit', '2'])).toBe(
      'crs_data101\tusr_instructor\tinstructor\ncrs_data101\tusr_reviewer\treviewer\n',
    );
    expect(JSON.parse(await demo.ok(['--json', 'submissions', 'list', '--assignment', 'asg_01', '--limit', '3']))).toHaveLength(3);
  });

  it('a limit that is not a whole number from 1 is a usage error (exit 2); other commands have no --limit', async () => {
    for (const bad of ['0', '-1', 'ten', '2.5'])
      expect(await demo.run(['courses', 'list', '--limit', bad])).toMatchObject({
        code: 2,
        stderr: `error: --limit must be a whole number of rows, 1 or more (got ${JSON.stringify(bad)})\n`,
      });
    expect((await demo.run(['courses', 'show', 'crs_data101', '--limit', '1'])).code).toBe(2);
  });
});

describe('the store a command opens', () => {
  it('--db in a folder that does not exist is a usage error naming it (exit 2); nothing is created', async () => {
    const home = tempHome();
    const db = join(home.dir, 'missing', 'store.db');
    expect(await runCli(['--db', db, 'courses', 'list'], { env: home.env })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: cannot create the store ${db}: the folder ${join(home.dir, 'missing')} does not exist (create it first; only the default store's folder is made for you)\n`,
    });
    expect(existsSync(join(home.dir, 'missing'))).toBe(false);
    // The same for COURSEBOOK_DB and for serve.
    expect((await runCli(['courses', 'list'], { env: { ...home.env, COURSEBOOK_DB: db } })).code).toBe(2);
    expect((await runCli(['serve', '--db', db, '--port', '0'], { env: home.env })).code).toBe(2);
    home.cleanup();
  });

  it('a new store is announced on stderr once; the default location is made on demand', async () => {
    const home = tempHome();
    const db = join(home.dir, 'new.db');
    expect(await runCli(['--db', db, 'courses', 'list'], { env: home.env })).toEqual({ code: 0, stdout: '', stderr: `creating a new store at ${db}\n` });
    expect(await runCli(['--db', db, 'courses', 'list'], { env: home.env })).toEqual({ code: 0, stdout: '', stderr: '' });
    const fallback = join(home.env.XDG_DATA_HOME!, 'coursebook', 'coursebook.db');
    expect(await runCli(['courses', 'list'], { env: home.env })).toMatchObject({ code: 0, stderr: `creating a new store at ${fallback}\n` });
    expect(existsSync(fallback)).toBe(true);
    // --memory is never announced.
    expect(await runCli(['--memory', 'courses', 'list'], { env: home.env })).toEqual({ code: 0, stdout: '', stderr: '' });
    home.cleanup();
  });

  it('a file that is not a coursebook store is refused with its path and reason (exit 3), never changed', async () => {
    const home = tempHome();
    const text = join(home.dir, 'notes.txt');
    writeFileSync(text, 'just some notes\n');
    expect(await runCli(['--db', text, 'courses', 'list'], { env: home.env })).toEqual({
      code: 3,
      stdout: '',
      stderr: `error (invalid): cannot open store ${text}: it is not a coursebook store (file is not a database)\n`,
    });
    const other = join(home.dir, 'other-app.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    db.close();
    expect(await runCli(['--db', other, 'courses', 'list'], { env: home.env })).toMatchObject({
      code: 3,
      stderr: `error (invalid): cannot open store ${other}: it is a SQLite database, but not a coursebook store (it already has 1 table and no coursebook schema version)\n`,
    });
    const check = new Database(other);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'notes' }]);
    check.close();
    home.cleanup();
  });
});

describe('file errors in serve', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('a --seed, --jwks or --port-file that cannot be used is one line naming it (exit 2); nothing is left listening', async () => {
    const missing = join(home.dir, 'nope', 'file.json');
    for (const args of [
      ['--seed', missing],
      ['--jwks', missing],
      ['--port-file', missing],
    ]) {
      const res = await runCli(['serve', '--memory', '--port', '0', ...args], { env: home.env });
      expect(res).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: cannot ${args[0] === '--port-file' ? 'write' : 'read'} ${missing}: no such file or folder\n`,
      });
    }
    const notJson = join(home.dir, 'jwks.txt');
    writeFileSync(notJson, 'keys');
    // Read but not JSON: invalid (exit 3), as a --seed that is not JSON is.
    expect(await runCli(['serve', '--memory', '--port', '0', '--jwks', notJson], { env: home.env })).toMatchObject({
      code: 3,
      stderr: expect.stringMatching(new RegExp(`^error \\(invalid\\): ${notJson.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON: `)),
    });
  });
});

describe('help', () => {
  it('every command group has a one-line description', async () => {
    const groups = new Set(
      COMMANDS.flatMap((c) =>
        c.name
          .split(' ')
          .slice(0, -1)
          .map((_, i, words) => words.slice(0, i + 1).join(' ')),
      ),
    );
    expect([...groups].filter((g) => !GROUP_DESCRIPTIONS[g])).toEqual([]);
    const top = await runCli(['--help']);
    expect(top.stdout).toMatch(/^ {2}gradebook +A course's gradebook: setup, checks/m);
    expect(top.stdout).toMatch(/^ {2}reporting-lines +Manager-to-report lines/m);
  });

  it('every command has an Examples section and shows the global options it inherits', async () => {
    const missing = COMMANDS.filter((c) => !(c.examples ?? EXAMPLES[c.name])?.length).map((c) => c.name);
    expect(missing).toEqual([]);
    for (const c of COMMANDS) {
      const help = await runCli([...c.name.split(' '), '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/\nExamples:\n( {2}#.*\n)* {2}\$ .*coursebook /);
      expect(help.stdout).toContain('\nGlobal Options:\n');
      expect(help.stdout).toMatch(/--query <expr>/);
    }
  });

  it('an unknown command is a usage error (exit 2) that shows help', async () => {
    const res = await runCli(['courses', 'frobnicate']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("error: unknown command 'frobnicate'");
  });
});

describe('version', () => {
  it('prints the version, the store schema and Node; --json; -V prints the bare version', async () => {
    const res = await runCli(['version']);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toMatch(/^coursebook version 0\.1\.0 \(store schema \d+, node \d+\.\d+\.\d+\)\n$/);
    expect(JSON.parse((await runCli(['version', '--json'])).stdout)).toMatchObject({ version: '0.1.0', storeSchema: expect.any(Number) });
    expect(await runCli(['-V'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('an extra argument is a usage error (exit 2)', async () => {
    expect((await runCli(['version', 'now'])).code).toBe(2);
  });
});

describe('completion', () => {
  it('prints a script for bash, zsh and fish that asks coursebook __complete', async () => {
    const bash = await runCli(['completion', 'bash']);
    expect(bash).toMatchObject({ code: 0, stderr: '' });
    expect(bash.stdout).toContain('complete -o default -F _coursebook_complete coursebook\n');
    expect((await runCli(['completion', 'zsh'])).stdout).toMatch(/^#compdef coursebook\n[\s\S]*compdef _coursebook coursebook\n/);
    expect((await runCli(['completion', 'fish'])).stdout).toContain("complete -c coursebook -f -a '(__coursebook_complete)'\n");
  });

  it('an unknown shell, or none, is a usage error (exit 2)', async () => {
    expect(await runCli(['completion', 'powershell'])).toMatchObject({
      code: 2,
      stderr: 'error: completion is available for bash, zsh, fish (got "powershell")\n',
    });
    expect((await runCli(['completion'])).code).toBe(2);
  });

  it('__complete answers commands, subcommands, flags and, on a local store, course ids with their titles', async () => {
    const words = async (...args: string[]) => (await runCli(['__complete', ...args], { env: demo.env })).stdout;
    expect(await words('gra')).toBe("gradebook\tA course's gradebook: setup, checks, computed grades, final-grade overrides, CSV export\n");
    expect((await words('courses', '')).split('\n').map((l) => l.split('\t')[0])).toEqual([
      'list',
      'show',
      'create',
      'update',
      'import',
      'export',
      'publish',
      'unpublish',
      'push',
      'pull',
      'diff',
      '',
    ]);
    expect(await words('courses', 'list', '--li')).toBe('--limit\tat most this many rows (default: all)\n');
    expect(await words('--db', demo.db, 'courses', 'show', '')).toBe('crs_data101\tData Literacy 101\n');
    expect(await words('--db', demo.db, 'gradebook', 'grades', '--course', 'crs_')).toBe('crs_data101\tData Literacy 101\n');
    expect(await words('completion', '')).toBe('bash\nzsh\nfish\n');
    // No ids from a store that does not exist (completion never creates one), nor from a remote service.
    expect(await words('--db', join(demo.dir, 'none.db'), 'courses', 'show', '')).toBe('');
    expect(existsSync(join(demo.dir, 'none.db'))).toBe(false);
    expect(await words('--base-url', 'http://127.0.0.1:9', 'courses', 'show', '')).toBe('');
  });

  it('the bash script completes in a real bash', async () => {
    const bin = join(demo.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'coursebook'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'coursebook'), 0o755);
    const script = (await runCli(['completion', 'bash'])).stdout;
    const run = (line: string[]) =>
      spawnSync(
        'bash',
        [
          '-c',
          `${script}\nCOMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${line.length - 1}; _coursebook_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { env: { ...process.env, ...demo.env, PATH: `${bin}:${process.env.PATH}`, COURSEBOOK_DB: demo.db }, encoding: 'utf8' },
      ).stdout;
    expect(run(['coursebook', 'tem'])).toBe('templates\n');
    expect(run(['coursebook', 'modules', 'list', '-c', ''])).toBe('crs_data101\n');
  });
});

describe('npm run demo', () => {
  let served: Served | undefined;
  afterAll(async () => {
    await served?.stop();
  });

  it('the demo student token reads the student own grades, and only those', async () => {
    served = await startServe(['--memory', '--seed', join(ROOT, 'data/demo.json'), '--log', 'off']);
    const student = ['--base-url', served.url, '--token', 'demo-student-token'];
    const mine = await runCli([...student, '--json', 'gradebook', 'mine', '--course', 'crs_data101']);
    expect(mine.code).toBe(0);
    expect(JSON.parse(mine.stdout)).toMatchObject({ studentId: 'usr_s01' });
    expect((await runCli([...student, 'gradebook', 'grades', '--course', 'crs_data101'])).code).toBe(4);
  });

  it('execs the server, so a SIGTERM to the npm process stops it cleanly (exit 0)', async () => {
    const child = spawn('npm', ['run', '--silent', 'demo', '--', '--port', '0', '--log', 'off'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`npm run demo exited ${code}`)));
      createInterface({ input: child.stdout! }).once('line', resolve);
    });
    const { url } = JSON.parse(line) as { url: string };
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.kill('SIGTERM');
    });
    expect(exit).toEqual({ code: 0, signal: null });
    await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
  });
});
