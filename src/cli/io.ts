/**
 * Everything a command touches outside its own arguments comes through an Io (like gh's
 * IOStreams): streams and their TTY flags, the environment, file reads and writes, the
 * editor, the clock, ids, prompts and signals. `processIo()` is the real one (bin/coursebook);
 * tests build their own and run the whole CLI in-process.
 */
import { isUtf8 } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, systemClock } from '../runtime/clock.js';
import { type Ids, randomIds } from '../runtime/ids.js';
import { NotUtf8Error } from '../runtime/utf8.js';
import { useLiteFetch } from './lite-fetch.js';
import type { Prompter } from './prompter.js';

export interface OutStream {
  write(text: string): boolean;
  isTTY?: boolean;
  /** Terminal width, when a terminal. */
  columns?: number;
}

export type Env = Record<string, string | undefined>;

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: { isTTY: boolean; readAll(): Promise<string> };
  env: Env;
  files: {
    read(path: string): Promise<string>;
    /** The file's bytes as they are (a seed whose text is decoded only if it is needed). */
    readBytes(path: string): Promise<Uint8Array>;
    write(path: string, text: string): Promise<void>;
  };
  /**
   * Opens `initial` in the user's editor ($VISUAL, $EDITOR, else vi) as a file named
   * `fileName` and answers the saved text, or null when the editor failed.
   */
  edit(initial: string, fileName: string): Promise<{ text: string } | { failed: string }>;
  /**
   * Keeps text the user wrote that could not be saved (an edited setup the service refused)
   * in a new file under the temp folder, and answers its path.
   */
  keepDraft(fileName: string, text: string): Promise<string>;
  /** Waits (the remote client's retries); tests answer at once. */
  sleep(ms: number): Promise<void>;
  /** The clock and id source of the local store's service (serve has its own flags). */
  clock: Clock;
  ids(): Ids;
  /** Prompts; the default loads @inquirer/prompts on first use. */
  prompter?: Prompter;
  /** SIGINT/SIGTERM for long-running commands (serve). */
  onStop(handler: () => void): () => void;
  /**
   * Local mode asks for it before its first request: the real process then answers with the
   * light Fetch classes of lite-fetch.ts instead of loading node's undici. Tests leave it out.
   */
  useLiteFetch?: () => void;
}

/**
 * Bytes to text, refusing what is not UTF-8 (NotUtf8Error, naming the first bad byte): a
 * lenient decoder would send U+FFFD in place of the bad bytes and the service would store
 * the altered text.
 */
export function strictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new NotUtf8Error(bytes);
  }
}

/** The bytes, refused as strictUtf8 refuses them, without decoding them (a native check). */
export function checkedUtf8(bytes: Uint8Array): Uint8Array {
  if (!isUtf8(bytes)) throw new NotUtf8Error(bytes);
  return bytes;
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return strictUtf8(Buffer.concat(chunks));
}

function editWithSystemEditor(env: Env): Io['edit'] {
  return async (initial, fileName) => {
    const dir = mkdtempSync(join(tmpdir(), 'coursebook-edit-'));
    const file = join(dir, fileName);
    try {
      writeFileSync(file, initial);
      // Loaded when an editor opens: node's child_process (and its net) is 7 ms of every start.
      const { spawnSync } = await import('node:child_process');
      const editor = env.VISUAL || env.EDITOR || 'vi';
      const run = spawnSync(editor, [file], { stdio: 'inherit', shell: true });
      if (run.status !== 0) return { failed: `${editor} exited with ${run.status}` };
      return { text: readFileSync(file, 'utf8') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The real process: what bin/coursebook runs with. */
/**
 * node:fs/promises (which brings readline's internals), loaded by a command that reads or
 * writes a file rather than at every start: about a millisecond.
 */
const fsPromises = () => import('node:fs/promises');

export function processIo(): Io {
  const env = process.env;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: { isTTY: process.stdin.isTTY === true, readAll: readAllStdin },
    env,
    files: {
      read: async (path) => strictUtf8(await (await fsPromises()).readFile(path)),
      readBytes: async (path) => (await fsPromises()).readFile(path),
      write: async (path, text) => (await fsPromises()).writeFile(path, text),
    },
    edit: editWithSystemEditor(env),
    keepDraft: async (fileName, text) => {
      const file = join(mkdtempSync(join(tmpdir(), 'coursebook-draft-')), fileName);
      writeFileSync(file, text, { mode: 0o600 });
      return file;
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    clock: systemClock(),
    ids: randomIds,
    useLiteFetch: () => void useLiteFetch(),
    onStop(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}
