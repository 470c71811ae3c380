/**
 * The architecture's promise held command by command: the CLI speaks the same HTTP API in
 * local mode (`app.request` over the store) and against `serve` (undici over a socket), so
 * both print the same stdout and stderr and exit with the same code.
 *
 * The demo dataset is loaded twice: into a local store driven with `--db` (and `--as` for a
 * user other than the first admin), and into one in-process server on 127.0.0.1 port 0
 * driven with `--base-url` and a token of the same user. Both have the same clock (the CLI's
 * fixed instant; serve's `now`) and the same sequential ids, skipping the seed's (serve
 * --deterministic's), so a record made by a step has the same id and times on both sides.
 * One script of reads and writes of every command group (tables, `--json`, `--query`,
 * prompts, the editor, files in and out, and errors: not found, invalid, conflict, a stale
 * version, forbidden) runs on both, step by step, and ends with `dump`: both stores
 * must then hold the same records. Only what docs/cli.md says differs is rewritten
 * (`sameBackEnd`, and `whoami` below); everything else must be equal byte for byte.
 * (The built binary's local mode, with its light Fetch classes, is held to the in-process
 * CLI by lite-fetch.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequentialIds } from '../../src/runtime/ids.js';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { openStore } from '../../src/store/db.js';
import { storeTakenCheck } from '../../src/store/ids-in-use.js';
import { CLI_NOW, type CliResult, ROOT, runCli, scriptedPrompter, tempHome } from '../helpers/cli.js';
import { DEMO_DATASET } from '../helpers/cli-store.js';
import { inProcessServeOptions } from '../helpers/serve.js';

/** Who runs a step: locally `--as` (the first admin, usr_admin, needs none), remotely their token. */
type Who = 'admin' | 'instructor' | 'student' | 'manager';
const USER: Record<Who, string> = { admin: 'usr_admin', instructor: 'usr_instructor', student: 'usr_s01', manager: 'usr_manager' };

/**
 * The demo with a token of every scope for each user who runs a step: a local caller has
 * every scope (docs/auth.md), so the same user's rights are the user's roles alone.
 */
const SEED = (() => {
  const demo = JSON.parse(readFileSync(DEMO_DATASET, 'utf8')) as { tokens: object[] };
  for (const [who, userId] of Object.entries(USER)) demo.tokens.push({ id: `tok_parity_${who}`, token: `parity-${who}`, userId, scopes: ['*'], name: who });
  return JSON.stringify(demo);
})();

interface Step {
  args: string[];
  who?: Who;
  /** Standard input ('-' file arguments read it). */
  input?: string;
  /** stdout a terminal (tables with headers, relative times, indented JSON); not interactive. */
  terminal?: true;
  /** stdin and stdout terminals with CI unset: prompts answered from this script. */
  answers?: unknown[];
  /** What the editor makes of the text it is shown (gradebook setup edit). */
  edit?: (text: string) => string;
}

const C = ['-c', 'crs_data101'];
/** In args: a file this run writes, its own per mode; what it holds is compared after stdout. */
const OUT = 'OUT';
/** In args: a file written before the script, read by both modes. */
const FILE = (name: string) => `FILE:${name}`;

const FILES: Record<string, string> = {
  'course.json': readFileSync(join(ROOT, 'docs/examples/course.json'), 'utf8'),
  // The export's layout, as a spreadsheet saves it: usr_s01's asg_01 (10, three days late) and asg_05 (not graded).
  'grades.csv': 'Student,Student ID,Quiz: kinds of dirty data (asg_01),Summary report (asg_05)\r\nPoints Possible,,10,40\r\nAmara Okafor,usr_s01,9,36\r\n',
  'bad-grades.csv': 'Student,Student ID,Quiz: kinds of dirty data (asg_01)\r\nPoints Possible,,10\r\nAmara Okafor,usr_s01,nine\r\n',
  'rubric.json': JSON.stringify({
    id: 'rb_parity',
    name: 'Parity rubric',
    attribution: 'written for the parity test',
    standards: [
      {
        standardId: 's1',
        number: '1',
        title: 'Basics',
        items: [{ itemId: '1.1', number: '1.1', text: 'Learners know where to start', kind: 'human', essential: false }],
      },
    ],
  }),
  'template.json': JSON.stringify({ name: 'Parity template', description: 'Made by the parity test.' }),
  'dataset.json': JSON.stringify({ coursebook: 1, users: [{ id: 'usr_imported', name: 'Imported Person' }] }),
};

/**
 * Reads and writes of every command group (src/commands), in an order where later steps
 * read what earlier ones wrote. New records are numbered per prefix from 0001 on both sides.
 */
const SCRIPT: Step[] = [
  // courses and modules
  { args: ['courses', 'list'], terminal: true },
  { args: ['courses', 'show', 'crs_nope'] },
  { args: ['courses', 'create', '--id', 'crs_parity', '--title', 'Parity', '--json'] },
  { args: ['courses', 'create', '--id', 'crs_parity', '--title', 'Parity again'] },
  { args: ['courses', 'create'], answers: ['Asked for'] }, // crs_0001
  { args: ['courses', 'publish', 'crs_parity'] },
  { args: ['courses', 'export', 'crs_data101', '--out', OUT] },
  { args: ['courses', 'import', FILE('course.json')] },
  { args: ['modules', 'list', ...C, '--limit', '2'] },
  { args: ['modules', 'create', '-c', 'crs_parity', '--title', 'First'] }, // mod_0001
  // lessons and blocks
  { args: ['lessons', 'create', '--module', 'mod_0001', '--title', 'Intro', '--minutes', '10'] }, // les_0001
  { args: ['blocks', 'create', '--lesson', 'les_0001', '--file', '-'], input: '{"type":"code","language":"js","text":"1 + 1"}' }, // blk_0001
  { args: ['blocks', 'create', '--lesson', 'les_0001'], answers: ['paragraph', 'Asked for text'] }, // blk_0002
  { args: ['blocks', 'review', 'blk_017', '--accept'] },
  { args: ['blocks', 'delete', 'blk_0001', '--yes'] },
  // assignments and their rubrics
  { args: ['assignments', 'list', ...C], terminal: true },
  { args: ['assignments', 'create', '--module', 'mod_0001', '--title', 'Essay', '--points', '10', '--due', '2026-12-01T12:00:00Z'] }, // asg_0001
  { args: ['assignments', 'update', 'asg_01', 'asg_03', '--category', 'cat_project'] },
  { args: ['assignments', 'rubric', 'create', '--assignment', 'asg_0001', '--title', 'Clarity', '--level', 'Clear=12', '--level', 'Muddled=4'] },
  // submissions
  { args: ['submissions', 'list', '--assignment', 'asg_05', '--limit', '3', '--json'] },
  { args: ['submissions', 'grade', 'sub_120', '--score', '33', '--feedback', 'Solid.'] },
  { args: ['submissions', 'grade', 'sub_001', '--criterion', 'q1-accuracy=nope'] },
  { args: ['submissions', 'show', 'sub_010'], who: 'student' },
  { args: ['submissions', 'create', '--assignment', 'asg_06', '--link', 'https://example.com/news'], who: 'student' },
  { args: ['submissions', 'grade', 'sub_001', '--score', '1'], who: 'student' },
  // gradebook: setup, categories, policies, grades, finals, export and import
  { args: ['gradebook', 'setup', 'show', ...C, '--query', 'late'] },
  { args: ['gradebook', 'setup', 'late', ...C, '--percent', '5'] },
  { args: ['gradebook', 'setup', 'late', ...C, '--percent', '6', '--expected-version', '1'] },
  { args: ['gradebook', 'setup', 'edit', ...C], answers: [], edit: (text) => text.replace('"graceMinutes": 15', '"graceMinutes": 20') },
  { args: ['gradebook', 'setup', 'edit', ...C], answers: [], edit: (text) => text.replace('"mode": "weighted"', '"mode": "curved"') },
  { args: ['gradebook', 'categories', 'create', ...C, '--name', 'Labs', '--weight', '0'] },
  { args: ['gradebook', 'categories', 'update', 'labs', ...C, '--weight', '101'] },
  { args: ['gradebook', 'scheme', 'set', ...C, 'A=90', 'B=80', 'C=70', 'F=0'] },
  { args: ['gradebook', 'dismiss', ...C], answers: ['1'] },
  { args: ['gradebook', 'grades', ...C], terminal: true },
  { args: ['gradebook', 'mine', ...C, '--json'], who: 'student' },
  { args: ['gradebook', 'final', 'set', ...C, '--user', 'usr_s03', '--letter', 'B', '--reason', 'Appeal'] },
  { args: ['gradebook', 'final', 'set', ...C, '--user', 'usr_s03', '--letter', 'C', '--reason', 'Again', '--expected-version', '0'] },
  { args: ['gradebook', 'import', FILE('grades.csv'), ...C, '--yes'] },
  { args: ['gradebook', 'import', FILE('bad-grades.csv'), ...C, '--yes'] },
  { args: ['gradebook', 'export', ...C] },
  // readiness
  { args: ['readiness', 'show', ...C], terminal: true },
  { args: ['readiness', 'attest', ...C, '--note', 'Checked.'], answers: ['4.1'] },
  { args: ['readiness', 'findings', 'review', ...C, '--item', '2.2', '--accept'] },
  // rubrics, templates, certificates
  { args: ['rubrics', 'import', FILE('rubric.json')] },
  { args: ['templates', 'create', '--file', FILE('template.json')] }, // tpl_0001
  { args: ['templates', 'bulk-update', '--where', 'owner.kind=institution', '--set', 'accessFloor=70', '--yes'] },
  { args: ['templates', 'use', 'tpl_standard', '--id', 'crs_tpl', '--title', 'From a template'] },
  { args: ['certificates', 'issue', ...C, '--user', 'usr_s04'] }, // cert_0002
  { args: ['certificates', 'verify', 'K7M2-Q9TX-4HCD'] },
  // people, reporting lines, tokens
  { args: ['whoami'] },
  { args: ['users', 'create', '--id', 'usr_new', '--name', 'New Person'] },
  { args: ['enrollments', 'add', ...C, '--user', 'usr_new', '--role', 'dean'] },
  { args: ['reporting-lines', 'add', 'usr_manager', 'usr_s03'] },
  { args: ['reporting-lines', 'list'], who: 'manager' },
  { args: ['tokens', 'create', '--name', 'ci', '--scope', 'content:read'], who: 'instructor' }, // tok_0001
  { args: ['tokens', 'list', '--all'], who: 'instructor' },
  { args: ['tokens', 'revoke', 'tok_0001'], who: 'instructor' },
  // datasets, raw requests, output options; last, the whole store
  { args: ['import', FILE('dataset.json')] },
  { args: ['api', 'PATCH', '/courses/crs_data101', '--body', '{"title": 5}'] },
  { args: ['api', 'GET', '/courses/crs_data101/assignments?limit=2', '--paginate', '--query', '[].id'] },
  { args: ['dump'] },
];

let dir: string;
let server: RunningServer;
/** Each mode's own XDG folders (config, data), so neither reads the user's or the other's. */
let localHome: ReturnType<typeof tempHome>;
let remoteHome: ReturnType<typeof tempHome>;
/** serve --deterministic's id source, for the local store: sequential, skipping the seed's ids. */
let localIds: ReturnType<typeof sequentialIds>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coursebook-parity-'));
  localHome = tempHome();
  remoteHome = tempHome();
  for (const [name, text] of Object.entries({ ...FILES, 'seed.json': SEED })) writeFileSync(join(dir, name), text);
  const imported = await runCli(['--db', localHome.db, 'import', join(dir, 'seed.json')], { env: localHome.env });
  if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
  const store = await openStore(localHome.db);
  localIds = sequentialIds(await storeTakenCheck(store));
  await store.close();
  server = await startServer(inProcessServeOptions({ seed: { name: 'seed.json', text: SEED }, deterministic: true, now: CLI_NOW }));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  localHome?.cleanup();
  remoteHome?.cleanup();
});

/** A step in one mode: the back end's flags, then its arguments with the test's files in place. */
async function run(step: Step, mode: 'local' | 'remote'): Promise<CliResult> {
  const local = mode === 'local';
  const backEnd = local
    ? ['--db', localHome.db, ...(step.who && step.who !== 'admin' ? ['--as', USER[step.who]] : [])]
    : ['--base-url', server.url, '--token', `parity-${step.who ?? 'admin'}`];
  const out = join(dir, `out-${mode}`);
  const args = step.args.map((a) => (a === OUT ? out : a.startsWith('FILE:') ? join(dir, a.slice(5)) : a));
  const prompter = step.answers ? scriptedPrompter(step.answers) : undefined;
  const res = await runCli([...backEnd, ...args], {
    env: { ...(local ? localHome.env : remoteHome.env), ...(prompter ? { CI: '' } : {}) },
    draftDir: dir,
    ...(local ? { ids: () => localIds } : {}),
    ...(step.input === undefined ? {} : { input: step.input }),
    ...(step.terminal ? { tty: { stdout: true } } : {}),
    ...(prompter ? { tty: { stdin: true, stdout: true }, prompter } : {}),
    ...(step.edit ? { edit: async (text: string) => ({ text: step.edit!(text) }) } : {}),
  });
  // What a prompt asked and offered is shown on the terminal too.
  const asked = prompter ? `--- asked ${JSON.stringify(prompter.asked)}, offered ${JSON.stringify(prompter.offered)}\n` : '';
  const written = args.includes(out) ? `--- ${OUT}:\n${existsSync(out) ? readFileSync(out, 'utf8') : '(none)'}` : '';
  rmSync(out, { force: true });
  const mine = (text: string) => text.replaceAll(out, OUT);
  return { code: res.code, stdout: mine(res.stdout) + written, stderr: mine(res.stderr) + asked };
}

/** Where the back end is: a store path or a service URL, as messages name it. */
const sameBackEnd = (text: string): string => text.replaceAll(localHome.db, '<back end>').replaceAll(server.url, '<back end>');

/**
 * `whoami` shows the credential (`local`, or `token` for an API token: GET /me's
 * `credential`, docs/auth.md) and the back end as `local PATH` or `remote URL`
 * (docs/cli.md): what it is for. Nothing else of its line may differ.
 */
const sameWhoami = (text: string): string => text.replace(/\t(local|token)\t(.*)\t(local|remote) <back end>\t/, '\t<credential>\t$2\t<back end>\t');

const normal = (step: Step, r: CliResult): CliResult => {
  const same = (text: string) => (step.args[0] === 'whoami' ? sameWhoami(sameBackEnd(text)) : sameBackEnd(text));
  return { code: r.code, stdout: same(r.stdout), stderr: same(r.stderr) };
};

describe('every command prints the same on a local store and against serve', () => {
  for (const step of SCRIPT) {
    it(`${step.who ?? 'admin'}: ${step.args.join(' ').slice(0, 100)}`, async () => {
      const local = await run(step, 'local');
      const remote = await run(step, 'remote');
      expect(normal(step, remote)).toEqual(normal(step, local));
    });
  }
});
