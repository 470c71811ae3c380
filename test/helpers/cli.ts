/**
 * Two ways to run the CLI in tests:
 * - `runCli`: in-process through `runCli` of src/cli/program.ts with an injected Io (like
 *   gh's IOStreams tests): fast, and every stream, TTY flag, env var, prompt answer, editor
 *   and the clock are the test's to set. Most tests use this.
 * - `runBin`: the built binary (bin/coursebook -> dist/) as a child process, for the few
 *   tests about the binary itself, signals and `serve`. `npm test` builds first (pretest).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Prompter } from '../../src/cli/command.js';
import { type Io, strictUtf8 } from '../../src/cli/io.js';
import { runCli as runInProcess } from '../../src/cli/program.js';
import { type Clock, fixedClock } from '../../src/runtime/clock.js';
import { type Ids, randomIds } from '../../src/runtime/ids.js';

export const BIN = resolve(import.meta.dirname, '../../bin/coursebook');
export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  /** Standard input text ('-' file arguments read it). */
  input?: string;
  /** Relative file paths resolve against this folder (default: the repository root). */
  cwd?: string;
  /** TTY flags: stdin and stdout terminals make the CLI interactive (when CI is unset). */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** Terminal width when stdout is a TTY. */
  columns?: number;
  /** Answers for prompts; a prompt with no scripted answer fails the test. */
  prompter?: Prompter;
  /** What the "editor" does with the text it is given (gradebook setup edit). */
  edit?: Io['edit'];
  /** Where kept drafts go (gradebook setup edit); default the system temp folder. */
  draftDir?: string;
  /** Records the remote client's waits instead of waiting (never a timed test). */
  sleeps?: number[];
  /** How the remote client waits; default: at once (recorded in `sleeps`). */
  sleep?: (ms: number) => Promise<void>;
  /** The local store's clock; default a fixed instant, so output repeats. */
  clock?: Clock;
  /** The local store's id source (default random: each run is a new process's ids). */
  ids?: () => Ids;
}

/** A fixed instant for in-process CLI runs. */
export const CLI_NOW = '2026-11-22T08:30:00.000Z';

/** The Io a test runs the CLI with: captured output, the given env, stdin and TTY flags. */
export function testIo(options: InProcessOptions = {}): Io & { out(): string; err(): string } {
  let stdout = '';
  let stderr = '';
  const cwd = options.cwd ?? ROOT;
  const at = (path: string) => (isAbsolute(path) ? path : join(cwd, path));
  const tty = options.tty ?? {};
  return {
    stdout: { write: (s: string) => ((stdout += s), true), isTTY: tty.stdout === true, columns: options.columns ?? 100 },
    stderr: { write: (s: string) => ((stderr += s), true), isTTY: tty.stderr === true },
    stdin: { isTTY: tty.stdin === true, readAll: async () => options.input ?? '' },
    env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '', ...options.env },
    // read as the real process reads: strictly UTF-8 (io.ts strictUtf8)
    files: {
      read: async (path) => strictUtf8(await readFile(at(path))),
      readBytes: (path) => readFile(at(path)),
      write: (path, text) => writeFile(at(path), text),
    },
    edit: options.edit ?? (async () => ({ failed: 'no editor in tests' })),
    keepDraft: async (fileName, text) => {
      const file = join(options.draftDir ?? mkdtempSync(join(tmpdir(), 'coursebook-draft-')), fileName);
      await writeFile(file, text);
      return file;
    },
    sleep: async (ms) => {
      options.sleeps?.push(ms);
      await options.sleep?.(ms);
    },
    clock: options.clock ?? fixedClock(CLI_NOW),
    ids: options.ids ?? randomIds,
    ...(options.prompter ? { prompter: options.prompter } : {}),
    onStop: () => () => {},
    out: () => stdout,
    err: () => stderr,
  };
}

/** Run the CLI in-process; resolves to the exit code and what it wrote. */
export async function runCli(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const io = testIo(options);
  const code = await runInProcess(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

/** A prompter that answers from a script, in order, and records the questions. */
export function scriptedPrompter(answers: unknown[]): Prompter & { asked: string[]; offered: string[][] } {
  const queue = [...answers];
  const asked: string[] = [];
  /** The choices each select or checkbox offered, by name. */
  const offered: string[][] = [];
  const next = <T>(message: string): T => {
    asked.push(message);
    if (queue.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return queue.shift() as T;
  };
  return {
    asked,
    offered,
    input: async (message, opts) => {
      const answer = next<string>(message);
      const verdict = opts?.validate?.(answer) ?? true;
      if (verdict !== true) throw new Error(`scripted answer ${JSON.stringify(answer)} rejected: ${verdict}`);
      return answer;
    },
    confirm: async (message) => next<boolean>(message),
    select: async (message, choices) => {
      offered.push(choices.map((c) => c.name));
      return next(message);
    },
    checkbox: async (message, choices) => {
      offered.push(choices.map((c) => c.name));
      return next(message);
    },
  };
}

/** Run the built binary as a child process, the way users do. */
export function runBin(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string | Uint8Array; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A temp directory with its own XDG dirs so tests never touch the user's store or config. */
export function tempHome(): { dir: string; db: string; env: Record<string, string>; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'coursebook-test-'));
  return {
    dir,
    db: join(dir, 'store.db'),
    env: { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
