import { Command, CommanderError } from 'commander';
import { COMMANDS } from '../commands/index.js';
import { AppError, EXIT } from '../errors.js';
import { resolveBackend } from './backend.js';
import { remoteClient, ServiceError, UnreachableError } from './client.js';
import { type ApiClient, type CommandContext, type CommandDef, type GlobalOptions, UsageError } from './command.js';
import type { Io } from './io.js';
import { makePrompter } from './prompt.js';
import { renderResult } from './render.js';

export type { Io } from './io.js';

async function makeClient(g: GlobalOptions, io: Io, def: CommandDef, cleanups: (() => void)[]): Promise<ApiClient> {
  const backend = resolveBackend(g, io.env);
  if (backend.kind === 'remote') return remoteClient(backend.baseUrl, backend.token);
  const { openLocalClient } = await import('./local.js');
  const local = openLocalClient({ db: backend.db, as: backend.as, persistActor: def.name !== 'import' && def.name !== 'dump', clock: io.clock, ids: io.ids() });
  cleanups.push(local.close);
  return local.client;
}

function colorEnabled(io: Io): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.stdout.isTTY === true;
}

/** Run the CLI; resolves to the exit code. No process.exit here, so tests can call it. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = new Command('coursebook');
  let exitCode: number = EXIT.ok;
  program
    .description('Course content and gradebooks: a local offline store, and the same operations against a remote service.')
    .option('--db <path>', 'local store file (env COURSEBOOK_DB; default $XDG_DATA_HOME/coursebook/coursebook.db)')
    .option('--memory', 'use a throwaway in-memory store')
    .option('--base-url <url>', 'remote service URL (env COURSEBOOK_BASE_URL)')
    .option('--token <token>', 'bearer token for the remote service (env COURSEBOOK_TOKEN)')
    .option('--profile <name>', 'named settings from the config file (env COURSEBOOK_PROFILE)')
    .option('--as <userId>', 'local mode: act as this user instead of the first admin (env COURSEBOOK_AS)')
    .option('--json', "print the API's JSON exactly")
    .option('--no-input', 'never prompt; a missing value is a usage error')
    .version('0.1.0', '-V, --version')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  const groups = new Map<string, Command>();
  const groupFor = (path: string[]): Command => {
    let parent = program;
    for (let i = 0; i < path.length; i++) {
      const key = path.slice(0, i + 1).join(' ');
      let cmd = groups.get(key);
      if (!cmd) {
        cmd = parent.command(path[i]!).exitOverride();
        groups.set(key, cmd);
      }
      parent = cmd;
    }
    return parent;
  };

  for (const def of COMMANDS) {
    const words = def.name.split(' ');
    const parent = words.length > 1 ? groupFor(words.slice(0, -1)) : program;
    const cmd = parent
      .command(words[words.length - 1]!)
      .description(def.description)
      .exitOverride();
    for (const a of def.args ?? []) cmd.argument(a.name, a.description);
    for (const o of def.options ?? []) cmd.option(o.flags, o.description, o.default as string);
    cmd.action(async (...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      const args = actionArgs.slice(0, -2).flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a.map(String) : [String(a)]));
      const opts = command.opts();
      const g = command.optsWithGlobals() as GlobalOptions;
      exitCode = await runCommand(def, args, opts, g, io);
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      if (err.code === 'commander.executeSubCommandAsync') return EXIT.ok;
      return EXIT.usage;
    }
    throw err;
  }
  return exitCode;
}

async function runCommand(def: CommandDef, args: string[], opts: Record<string, unknown>, g: GlobalOptions, io: Io): Promise<number> {
  const cleanups: (() => void)[] = [];
  const interactive = io.stdin.isTTY && io.stdout.isTTY === true && !io.env.CI && g.input !== false;
  const json = g.json === true;
  try {
    const client = def.noClient ? null : await makeClient(g, io, def, cleanups);
    const prompt = io.prompter ?? makePrompter();
    let lastProgress = 0;
    const ctx: CommandContext = {
      get client(): ApiClient {
        if (!client) throw new Error(`${def.name} is declared noClient but asked for the API client`);
        return client;
      },
      io,
      env: io.env,
      interactive,
      color: colorEnabled(io),
      prompt,
      globals: g,
      stdoutIsTTY: io.stdout.isTTY === true,
      note: (m) => void io.stderr.write(`${m}\n`),
      progress: (done, total, label) => {
        if (io.stderr.isTTY !== true) return;
        const now = Date.parse(io.clock.now());
        if (done < total && now - lastProgress < 100) return;
        lastProgress = now;
        const w = 30;
        const filled = total === 0 ? w : Math.round((done / total) * w);
        io.stderr.write(`\r${label ?? ''} [${'#'.repeat(filled)}${'.'.repeat(w - filled)}] ${done}/${total}${done >= total ? '\n' : ''}`);
      },
      readText: (path) =>
        path === '-'
          ? io.stdin.readAll().catch((err) => fileError('read', 'standard input', err))
          : io.files.read(path).catch((err) => fileError('read', path, err)),
      writeFile: (path, text) => io.files.write(path, text).catch((err) => fileError('write', path, err)),
      require: async (value, flag, question) => {
        if (value !== undefined && value !== '') return value;
        if (!interactive) throw new UsageError(`missing ${flag}`);
        return prompt.input(question, { validate: (v) => (v.trim() === '' ? 'a value is required' : true) });
      },
    };
    const result = await def.handler(ctx, args, opts);
    const out = renderResult(result, { json, tty: io.stdout.isTTY === true, color: colorEnabled(io) });
    if (out) io.stdout.write(out);
    if (result.kind === 'none' && result.note) io.stderr.write(`${result.note}\n`);
    return EXIT.ok;
  } catch (err) {
    return reportError(err, io, json);
  } finally {
    for (const c of cleanups.reverse()) c();
  }
}

export function reportError(err: unknown, io: Io, json: boolean): number {
  if (err instanceof AppError) {
    if (json) io.stderr.write(JSON.stringify(err.toEnvelope()) + '\n');
    else {
      io.stderr.write(`error (${err.code}): ${err.message}\n`);
      if (Array.isArray(err.details)) {
        const problems = (err.details as { path?: unknown; message?: unknown }[]).filter((p) => typeof p?.path === 'string');
        const restated = problems.length === 1 && err.message.includes(`${problems[0]!.path as string}: `);
        if (!restated) for (const p of problems) io.stderr.write(`  ${p.path as string}: ${String(p.message)}\n`);
      }
    }
    return err.exitCode;
  }
  if (err instanceof UsageError) {
    io.stderr.write(`error: ${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof UnreachableError) {
    io.stderr.write(`error: ${err.message}\n`);
    return EXIT.unreachable;
  }
  if (err instanceof ServiceError) {
    io.stderr.write(`error: ${err.message}\n`);
    return EXIT.unexpected;
  }
  if ((err as { name?: string })?.name === 'ExitPromptError') {
    io.stderr.write('cancelled\n');
    return EXIT.usage;
  }
  io.stderr.write(`error: unexpected failure: ${(err as Error)?.stack ?? String(err)}\n`);
  return EXIT.unexpected;
}

const FILE_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/** A file that cannot be read or written is a one-line usage error naming it, never a stack trace. */
function fileError(action: 'read' | 'write', path: string, err: unknown): never {
  const code = (err as { code?: string }).code ?? '';
  throw new UsageError(`cannot ${action} ${path}: ${FILE_REASONS[code] ?? (err as Error).message}`);
}
