import { Command, CommanderError, Help } from 'commander';
import { COMMAND_GROUPS, loadCommands, TOP_LEVEL_COMMANDS, type TopLevelCommand } from '../commands/catalog.js';
import { EXAMPLES, GROUP_DESCRIPTIONS } from '../commands/examples.js';
import { AppError, EXIT } from '../errors.js';
import { type Backend, resolveBackend } from './backend.js';
import { remoteClient, ServiceError, UnreachableError } from './client.js';
import { type ApiClient, type CommandContext, type CommandDef, type GlobalOptions, type ParentKind, UsageError } from './command.js';
import { configPath, configSource } from './config.js';
import { errorLines, fileError, flagOfField, problemsByFlag, readError, sentencesByFlag } from './error-text.js';
import { commandOptions, GLOBAL_OPTIONS, isListCommand } from './global-options.js';
import { checkedUtf8, type Io } from './io.js';
import { pagingClient, parseLimit } from './paginate.js';
import { type Invocation, parentResolver, takesPositionalParents, typedParents } from './parents.js';
import { makePrompter } from './prompter.js';
import { QueryFailed } from './query-failed.js';
import { type RenderTarget, renderResult } from './render.js';
import { VERSION } from './version.js';

export type { Io } from './io.js';

async function makeClient(backend: Backend, io: Io, def: CommandDef, cleanups: (() => void)[]): Promise<ApiClient> {
  return openBackend(backend, io, def.name !== 'import' && def.name !== 'dump', cleanups);
}

/** A client for a back end: HTTP for a service, in-process over the store file for a local one (closed by `cleanups`). */
async function openBackend(backend: Backend, io: Io, persistActor: boolean, cleanups: (() => void)[]): Promise<ApiClient> {
  const note = (message: string) => void io.stderr.write(`${message}\n`);
  if (backend.kind === 'remote') return remoteClient(backend.baseUrl, backend.token, { sleep: io.sleep, note, now: () => io.clock.now() });
  const { openLocalClient } = await import('./local.js');
  const local = await openLocalClient({
    db: backend.db,
    isDefault: backend.isDefault,
    as: backend.as,
    asFrom: backend.asFrom,
    pool: backend.pool,
    persistActor,
    clock: io.clock,
    ids: io.ids(),
    useLiteFetch: io.useLiteFetch,
    note,
  });
  cleanups.push(local.close);
  return local.client;
}

function colorEnabled(io: Io): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.stdout.isTTY === true;
}

/** The Examples section of a command's help. */
function examplesHelp(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n')}\n`;
}

/** `coursebook __complete WORD... CURRENT`: what the completion scripts ask; never an error. */
async function runCompletion(words: string[], io: Io): Promise<number> {
  try {
    const { commandTree, complete, completionLines } = await import('./completion.js');
    // Only the groups named before the word being typed are loaded; the catalog lists the rest.
    const defs = await loadCommands(new Set(words.slice(0, -1)));
    io.stdout.write(completionLines(await complete(commandTree(defs, GROUP_DESCRIPTIONS, TOP_LEVEL_COMMANDS), words, io)));
  } catch {
    // A broken store or config must not print into the user's command line.
  }
  return EXIT.ok;
}

/** Runs one command with what commander parsed, keeping its exit code for runCli. */
type RunCommand = (def: CommandDef, invocation: Invocation, opts: Record<string, unknown>, g: GlobalOptions) => Promise<void>;

/**
 * Run the CLI; resolves to the exit code. No process.exit here, so tests can call it.
 * Every top-level word is registered from the catalog; its module (commands, their
 * options, the schemas their prompts check with) is loaded only when it is the one
 * commander dispatches to, or the one `help WORD` asks about.
 */
export async function runCli(argv: string[], io: Io): Promise<number> {
  if (argv[0] === '__complete') return runCompletion(argv.slice(1), io);
  const program = new Command('coursebook');
  let exitCode: number = EXIT.ok;
  /** Top-level commands whose module is not loaded yet: help lists them as the catalog says. */
  const unloaded = new Map<string, { command: Command; entry: TopLevelCommand }>();
  program.description('Course content and gradebooks: a local offline store, and the same operations against a remote service.');
  for (const o of GLOBAL_OPTIONS) program.option(o.flags, o.description);
  program
    .version(VERSION, '-V, --version', 'print the version')
    .configureHelp({
      showGlobalOptions: true,
      subcommandTerm(cmd) {
        const usage = cmd.parent === program ? unloaded.get(cmd.name())?.entry.usage : undefined;
        return usage ? `${cmd.name()} ${usage}` : Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    // A usage error is one line (docs/cli.md), not the error and then the whole help.
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  for (const entry of TOP_LEVEL_COMMANDS) {
    unloaded.set(entry.word, { command: program.command(entry.word).description(entry.description).exitOverride(), entry });
  }
  const run: RunCommand = async (def, invocation, opts, g) => {
    exitCode = await runCommand(def, invocation, opts, g, io);
  };
  const load = async (words: Iterable<string>): Promise<void> => {
    const pending = new Map([...words].flatMap((w) => (unloaded.has(w) ? [[w, unloaded.get(w)!.command] as const] : [])));
    if (pending.size === 0) return;
    for (const word of pending.keys()) unloaded.delete(word);
    registerCommands(pending, await loadCommands(new Set(pending.keys())), run);
  };
  // `help WORD` prints WORD's help without dispatching to it: those words are loaded first.
  if (argv.includes('help')) await load(argv);
  program.hook('preSubcommand', (_program, subcommand) => load([subcommand.name()]));

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

/** Registers loaded commands under their top-level commands (`tops`, by word), with their groups' help. */
function registerCommands(tops: ReadonlyMap<string, Command>, defs: CommandDef[], run: RunCommand): void {
  const groups = new Map<string, Command>(tops);
  const groupFor = (path: string[]): Command => {
    let parent = groups.get(path[0]!)!;
    for (let i = 1; i < path.length; i++) {
      const key = path.slice(0, i + 1).join(' ');
      let cmd = groups.get(key);
      if (!cmd) {
        cmd = parent.command(path[i]!).exitOverride();
        const description = GROUP_DESCRIPTIONS[key];
        if (description) cmd.description(description);
        groups.set(key, cmd);
      }
      parent = cmd;
    }
    return parent;
  };

  for (const def of defs) {
    const words = def.name.split(' ');
    // A one-word command is its top-level command itself.
    const cmd = words.length === 1 ? tops.get(def.name)! : groupFor(words.slice(0, -1)).command(words[words.length - 1]!);
    cmd
      .aliases(def.aliases ?? [])
      .description(def.description)
      .exitOverride();
    for (const a of def.args ?? []) cmd.argument(a.name, a.description);
    // Old positional parent ids come after the command's own arguments; typedParents checks them.
    if (takesPositionalParents(def)) cmd.allowExcessArguments(true);
    for (const o of commandOptions(def)) cmd.option(o.flags, o.description, o.default as string);
    const examples = def.examples ?? EXAMPLES[def.name];
    if (examples?.length) cmd.addHelpText('after', examplesHelp(examples));
    if (def.help) cmd.addHelpText('after', `\n${def.help}`);
    cmd.action(async (...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      const args = actionArgs.slice(0, -2).flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a.map(String) : [String(a)]));
      const invocation: Invocation = {
        // The word typed for the command (an old name, maybe), as its group saw it.
        typedName: command.parent?.args[0] ?? command.name(),
        args,
        extra: takesPositionalParents(def) ? command.args.slice(command.registeredArguments.length) : [],
      };
      await run(def, invocation, command.opts(), command.optsWithGlobals() as GlobalOptions);
    });
  }

  for (const group of COMMAND_GROUPS) {
    const cmd = groups.get(group.name);
    if (!cmd) continue;
    cmd.description(group.description);
    if (group.help) cmd.addHelpText('after', `\n${group.help}`);
  }
}

/** --query's expression, checked, with the runner render.ts applies: JMESPath loads only with --query. */
async function checkedQuery(expression: string): Promise<NonNullable<RenderTarget['query']>> {
  const { checkQuery, runQuery } = await import('./query.js');
  checkQuery(expression);
  return { expression, run: runQuery };
}

async function runCommand(def: CommandDef, invocation: Invocation, opts: Record<string, unknown>, g: GlobalOptions, io: Io): Promise<number> {
  const cleanups: (() => void)[] = [];
  // Flags for nested fields a command named (ctx.nameProblemsBy), for its invalid answers.
  let nestedFlagOf: ((path: string) => string | undefined) | undefined;
  const interactive = io.stdin.isTTY && io.stdout.isTTY === true && !io.env.CI && g.input !== false;
  const json = g.json === true;
  const color = colorEnabled(io);
  try {
    const parents = typedParents(def, invocation, opts);
    if (parents.deprecation) io.stderr.write(`${parents.deprecation}\n`);
    // Everything that can be refused before a request is: the query, the limit, the back end.
    const query = g.query === undefined ? undefined : await checkedQuery(g.query);
    const limit = isListCommand(def) ? parseLimit(opts.limit) : undefined;
    const config = configSource(configPath(io.env), (m) => void io.stderr.write(`${m}\n`));
    const backend = def.noClient ? null : await resolveBackend(g, io.env, config);
    const connected = backend ? await makeClient(backend, io, def, cleanups) : null;
    const paged = connected && !def.rawClient ? pagingClient(connected, limit) : connected;
    // Whether the command asked for a change: a --query that fails on its answer must not
    // lose what the change made (the id of what a create made, say).
    let changed = false;
    const client: ApiClient | null = paged && {
      mode: paged.mode,
      request: (method, path, body) => {
        if (method !== 'GET') changed = true;
        return paged.request(method, path, body);
      },
    };
    const prompt = io.prompter ?? makePrompter();
    let lastProgress = 0;
    let parentOf: (kind: ParentKind) => Promise<string> = () => Promise.reject(new Error('parents are resolved once the context exists'));
    const ctx: CommandContext = {
      get client(): ApiClient {
        if (!client) throw new Error(`${def.name} is declared noClient but asked for the API client`);
        return client;
      },
      io,
      env: io.env,
      interactive,
      color,
      prompt,
      globals: g,
      config,
      openClient: (backend) => openBackend(backend, io, true, cleanups),
      stdoutIsTTY: io.stdout.isTTY === true,
      backend,
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
        path === '-' ? io.stdin.readAll().catch((err) => readError('standard input', err)) : io.files.read(path).catch((err) => readError(path, err)),
      readBytes: (path) =>
        path === '-'
          ? io.stdin
              .readAll()
              .then((text) => new TextEncoder().encode(text))
              .catch((err) => readError('standard input', err))
          : io.files
              .readBytes(path)
              .then(checkedUtf8)
              .catch((err) => readError(path, err)),
      writeFile: (path, text) => io.files.write(path, text).catch((err) => fileError('write', path, err)),
      require: async (value, flag, question, check) => {
        if (value !== undefined && value !== '') return value;
        if (!interactive) throw new UsageError(`missing ${flag}`);
        const validate =
          check === undefined ? (v: string) => (v.trim() === '' ? 'a value is required' : true) : (await import('./answer-checks.js')).VALIDATE[check];
        return prompt.input(question, { validate });
      },
      parent: (kind) => parentOf(kind),
      parentGiven: (kind) => parents.given[kind],
      nameProblemsBy: (flagOf) => {
        nestedFlagOf = flagOf;
      },
    };
    parentOf = parentResolver(ctx, def, parents.given);
    const result = await def.handler(ctx, invocation.args, opts);
    const tty = io.stdout.isTTY === true;
    const target = { json, tty, color, width: tty ? io.stdout.columns : undefined, now: io.clock.now(), query };
    let out: string;
    try {
      out = renderResult(result, target);
    } catch (err) {
      if (!(err instanceof QueryFailed) || !changed) throw err;
      // The change was made: its whole answer goes out, and the error says so (exit 2 still).
      io.stdout.write(renderResult(result, { ...target, json: true, query: undefined }));
      throw new UsageError(`${err.message}; the change was made, and its whole answer is printed above instead`);
    }
    if (out) io.stdout.write(out);
    if (result.kind === 'none' && result.note) io.stderr.write(`${result.note}\n`);
    // A report of work partly done, or a negative answer: printed above, and the command still fails.
    if (result.kind !== 'none' && result.failure) return reportError(result.failure, io, json);
    return EXIT.ok;
  } catch (err) {
    // A person reads problems by the flags they typed; --json keeps the API's envelope.
    return reportError(json ? err : byFlag(err, def, opts, nestedFlagOf), io, json);
  } finally {
    for (const c of cleanups.reverse()) c();
  }
}

/**
 * An `invalid` answer to a body the command made from its flags, restated by flag: the
 * flags its fields are named after, and any the command named for nested fields. Not for a
 * body read from --file, nor a field read from its own `--FIELD-file` (its paths are the
 * file's fields), nor `api` (the API's answer as it is).
 */
function byFlag(err: unknown, def: CommandDef, opts: Record<string, unknown>, nested?: (path: string) => string | undefined): unknown {
  if (def.rawClient || opts.file !== undefined) return err;
  const named = flagOfField(
    commandOptions(def).map((o) => o.flags),
    def.fieldFlags,
  );
  // A field read from its own file option (`text` from --text-file, `criteria` from
  // --criteria-file) is named by that option, and a part of it by the file's own path, like
  // a whole --file body: the flag the field is otherwise named by was not given.
  const flagOf = (path: string): string | undefined => {
    const field = /^[A-Za-z][A-Za-z0-9]*/.exec(path)?.[0];
    if (field !== undefined && opts[`${field}File`] !== undefined)
      return path === field ? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-file` : undefined;
    return nested?.(path) ?? named(path);
  };
  return problemsByFlag(err, flagOf, def.sentences ? sentencesByFlag(def.sentences, flagOf) : undefined);
}

export function reportError(err: unknown, io: Io, json: boolean): number {
  if (err instanceof AppError) {
    if (json) io.stderr.write(JSON.stringify(err.toEnvelope()) + '\n');
    else
      io.stderr.write(
        errorLines(err)
          .map((l) => `${l}\n`)
          .join(''),
      );
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
