/**
 * `coursebook fixture ...`: the control routes of a `coursebook serve --allow-admin` fixture
 * (docs/fixtures.md) from a CI script: reset, the request journal, fault rules, the clock.
 * They talk to the configured remote back end (--base-url / COURSEBOOK_BASE_URL, an admin token).
 */
import { resolveBackend } from '../cli/backend.js';
import { remoteClient } from '../cli/client.js';
import { type ApiResponse, type CommandContext, type CommandDef, type CommandResult, defineCommands, numberOption, seg, UsageError } from '../cli/command.js';
import { redact } from '../cli/config.js';
import { AppError } from '../errors.js';
import { faultRuleSentences } from '../schemas/fault-rule-sentences.js';

/**
 * One control request to the remote fixture. Local mode has no fixture to control (and the
 * commands are noClient, so no local store is opened or created). A service without
 * --allow-admin has no such route, and the error says how to get it.
 */
async function control(ctx: CommandContext, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const backend = await fixtureBackend(ctx);
  try {
    const client = await remoteClient(backend.baseUrl, backend.token, { sleep: ctx.io.sleep, note: ctx.note, now: () => ctx.io.clock.now() });
    return await client.request(method, path, body);
  } catch (err) {
    if (err instanceof AppError && err.code === 'not-found' && err.message.startsWith('No route '))
      throw new AppError('not-found', 'The service has no fixture control routes: start it with `coursebook serve --allow-admin`.');
    throw err;
  }
}

/** The remote fixture the command controls; local mode is a usage error. */
async function fixtureBackend(ctx: CommandContext): Promise<{ baseUrl: string; token?: string }> {
  const backend = await resolveBackend(ctx.globals, ctx.env, ctx.config);
  if (backend.kind === 'local')
    throw new UsageError(
      'fixture commands control a running `coursebook serve --allow-admin`: give its --base-url (or COURSEBOOK_BASE_URL) and an admin --token',
    );
  return backend;
}

/**
 * A --path pattern as the API takes it. The flag is relative to /api/v1, so `courses/**`
 * (how a path relative to something is usually written) means `/courses/**`; the API itself
 * keeps to its one spelling, with the slash.
 */
const pathPattern = (pattern: string): string => (pattern.startsWith('/') ? pattern : `/${pattern}`);

/** `?method=..&path=..` from the filter flags that were given. */
function journalQuery(opts: Record<string, unknown>, withLimit: boolean): string {
  const params = new URLSearchParams();
  for (const key of ['method', 'path', 'status', ...(withLimit ? ['limit'] : [])]) {
    if (opts[key] !== undefined) params.set(key, key === 'path' ? pathPattern(String(opts[key])) : String(opts[key]));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const FILTERS = [
  { flags: '--method <method>', description: 'only this HTTP method' },
  {
    flags: '--path <pattern>',
    description: 'only paths matching: * within a segment, ** across, {name} one segment (relative to /api/v1, the leading / optional)',
  },
  { flags: '--status <status>', description: 'only this status (404) or class (4xx)' },
];

const journalColumns = [
  { key: 'seq', header: 'SEQ' },
  { key: 'time', header: 'TIME' },
  { key: 'method', header: 'METHOD' },
  { key: 'path', header: 'PATH', format: (v: unknown, row: Record<string, unknown>) => `${String(v)}${row.query ? `?${String(row.query)}` : ''}` },
  { key: 'status', header: 'STATUS', format: (v: unknown) => (v === null ? 'dropped' : String(v)) },
  { key: 'callerId', header: 'CALLER' },
  { key: 'durationMs', header: 'MS' },
  { key: 'requestId', header: 'REQUEST ID' },
  { key: 'faultId', header: 'FAULT' },
];

const faultColumns = [
  { key: 'id', header: 'ID' },
  { key: 'method', header: 'METHOD', format: (v: unknown) => (v === null ? '*' : String(v)) },
  { key: 'path', header: 'PATH' },
  { key: 'status', header: 'STATUS' },
  { key: 'code', header: 'CODE' },
  { key: 'delayMs', header: 'DELAY MS' },
  { key: 'dropConnection', header: 'DROP' },
  { key: 'times', header: 'TIMES', format: (v: unknown) => (v === null ? 'always' : String(v)) },
  { key: 'matched', header: 'MATCHED' },
];

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `90`, `90s`, `15m`, `2h`, `3d`, `1w` -> seconds. */
function durationSeconds(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([smhdw])?$/.exec(text.trim());
  if (!m) throw new UsageError(`the duration must be seconds or a number with s, m, h, d or w, such as 90, 15m or 3d (got ${JSON.stringify(text)})`);
  return Number(m[1]) * UNIT_SECONDS[m[2] ?? 's']!;
}

export const fixtureCommands: CommandDef[] = defineCommands([
  {
    name: 'fixture reset',
    description:
      'Restore the fixture to its seed: records, ids and clock; fault rules are removed (the journal stays). Asks first on a terminal; --yes to skip',
    options: [{ flags: '--yes', description: 'do not ask (required when not interactive)' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      // A reset deletes every record written since the seed was loaded: asked first, as every destructive command is.
      if (!opts.yes) {
        const { baseUrl } = await fixtureBackend(ctx);
        if (!ctx.interactive)
          throw new UsageError('resetting the fixture needs --yes when not interactive (it deletes everything written since its seed was loaded)');
        if (!(await ctx.prompt.confirm(`Reset the fixture at ${redact('baseUrl', baseUrl)} to its seed, deleting everything written since?`, false)))
          return { kind: 'none', note: 'nothing reset' };
      }
      return { kind: 'api', response: await control(ctx, 'POST', '/_reset') };
    },
  },
  {
    name: 'fixture requests list',
    description: 'The requests the fixture served, oldest first (filters; --limit keeps the newest N)',
    options: [...FILTERS, { flags: '--limit <n>', description: 'only the newest N matching requests' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => ({
      kind: 'api',
      response: await control(ctx, 'GET', `/_admin/requests${journalQuery(opts, true)}`),
      columns: journalColumns,
    }),
  },
  {
    name: 'fixture requests count',
    description: 'How many journaled requests match the filters (prints the number)',
    options: FILTERS,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const response = await control(ctx, 'GET', `/_admin/requests/count${journalQuery(opts, false)}`);
      return { kind: 'text', text: `${(response.data as { count: number }).count}\n`, json: response.text };
    },
  },
  {
    name: 'fixture requests clear',
    description: 'Empty the request journal',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await control(ctx, 'DELETE', '/_admin/requests') }),
  },
  {
    name: 'fixture faults create',
    fieldFlags: { delayMs: '--delay', dropConnection: '--drop' },
    sentences: faultRuleSentences,
    aliases: ['add'],
    description: 'Add a fault rule: matching requests are delayed, answered with an error, or dropped (the newest rule wins)',
    options: [
      {
        flags: '--path <pattern>',
        description: 'the paths it applies to: * within a segment, ** across, {name} one segment (relative to /api/v1, the leading / optional)',
      },
      { flags: '--method <method>', description: 'only this HTTP method (default: any)' },
      { flags: '--status <status>', description: 'answer with this status (400..599) and the error envelope' },
      { flags: '--code <code>', description: "the envelope's error code (default: the code of the status; internal for 5xx)" },
      { flags: '--message <text>', description: "the envelope's message" },
      { flags: '--retry-after <seconds>', description: 'the Retry-After header (default 1 for a 429 or rate-limited answer, else none)' },
      { flags: '--delay <ms>', description: 'wait this long first' },
      { flags: '--drop', description: 'close the connection without an answer' },
      { flags: '--times <n>', description: 'stop after this many matches (default: always)' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const given = opts.path === undefined ? undefined : pathPattern(String(opts.path));
      const path = await ctx.require(given, '--path', 'Path pattern (e.g. /courses/**)?', 'pathPattern');
      const body: Record<string, unknown> = { path };
      if (opts.method !== undefined) body.method = opts.method;
      if (opts.status !== undefined) body.status = numberOption(opts.status, '--status');
      if (opts.code !== undefined) body.code = opts.code;
      if (opts.message !== undefined) body.message = opts.message;
      if (opts.retryAfter !== undefined) body.retryAfter = numberOption(opts.retryAfter, '--retry-after');
      if (opts.delay !== undefined) body.delayMs = numberOption(opts.delay, '--delay');
      if (opts.drop === true) body.dropConnection = true;
      if (opts.times !== undefined) body.times = numberOption(opts.times, '--times');
      return { kind: 'api', response: await control(ctx, 'POST', '/_admin/faults', body) };
    },
  },
  {
    name: 'fixture faults list',
    description: 'The fault rules, oldest first, with how often each matched',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await control(ctx, 'GET', '/_admin/faults'), columns: faultColumns }),
  },
  {
    name: 'fixture faults delete',
    aliases: ['remove'],
    description: 'Remove one fault rule',
    args: [{ name: '<faultId>', description: 'the rule id (flt_1, ...)' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await control(ctx, 'DELETE', `/_admin/faults/${seg(id!)}`) }),
  },
  {
    name: 'fixture faults clear',
    description: 'Remove every fault rule',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await control(ctx, 'DELETE', '/_admin/faults') }),
  },
  {
    name: 'fixture clock show',
    description: "The fixture's service clock and whether it stands still",
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await control(ctx, 'GET', '/_admin/clock') }),
  },
  {
    name: 'fixture clock set',
    description: 'Set the service clock (RFC 3339); --frozen stands it still there, --running lets it run on',
    args: [{ name: '<time>', description: 'e.g. 2026-12-01T09:00:00Z' }],
    options: [
      { flags: '--frozen', description: 'stand still at this time' },
      { flags: '--running', description: 'run on from this time' },
    ],
    handler: async (ctx, [time], opts): Promise<CommandResult> => {
      if (opts.frozen === true && opts.running === true) throw new UsageError('give --frozen or --running, not both');
      const body: Record<string, unknown> = { now: time };
      if (opts.frozen === true) body.frozen = true;
      if (opts.running === true) body.frozen = false;
      return { kind: 'api', response: await control(ctx, 'PUT', '/_admin/clock', body) };
    },
  },
  {
    name: 'fixture clock advance',
    description: 'Move the service clock forward: 90 (seconds), 15m, 2h, 3d, 1w',
    args: [{ name: '<duration>', description: 'seconds, or a number with s, m, h, d or w' }],
    handler: async (ctx, [duration]): Promise<CommandResult> => ({
      kind: 'api',
      response: await control(ctx, 'POST', '/_admin/clock/advance', { seconds: durationSeconds(duration!) }),
    }),
  },
]).map((def) => ({ ...def, noClient: true }));
