import { Chalk } from 'chalk';
import { ServiceError, UnreachableError } from '../cli/client.js';
import { type CommandContext, type CommandResult, defineCommands, parseJsonText, seg, UsageError } from '../cli/command.js';
import { checkTemplatePatch, unknownWhereFields } from '../domain/templates/bulk.js';
import { diffText, templateDiff } from '../domain/templates/diff.js';
import { buildPatch, matches, parseAssignment } from '../domain/templates/templates.js';
import { AppError, invalid, isErrorCode, type Problem } from '../errors.js';
import { definedFields } from '../runtime/objects.js';
import { forEachConcurrently } from '../runtime/pool.js';
import type { TemplateBulkFailure } from '../schemas/templates.js';

const ink = new Chalk({ level: 1 });
const RED = ink.red;
const GREEN = ink.green;
const YELLOW = ink.yellow;

interface PlannedUpdate {
  id: string;
  name: string;
  /** The PATCH body as the user gave it (--file, then each --set). */
  patch: Record<string, unknown>;
  /** The diff lines of the preview. */
  changes: string[];
}

/**
 * Each matching template's patch, checked as PATCH /templates/{id} checks it and turned into
 * a diff; the problems of every patch. A problem the patch has whatever the template (it
 * comes from --set or --file alone: a misspelt field, a value out of range) is listed once,
 * by its field; one that comes from a template's stored data (a dotted --set that makes a
 * module key a duplicate there) is named with the template: `tpl_2.modules[1].key`. With no
 * match, the patch's field names are still checked, so a typo never passes for "nothing to do".
 */
function planUpdates(
  matching: Record<string, unknown>[],
  filePatch: Record<string, unknown>,
  sets: [string, unknown][],
): { updates: PlannedUpdate[]; problems: Problem[] } {
  const updates: PlannedUpdate[] = [];
  const problems = new Map<string, Problem>();
  const key = (p: Problem) => `${p.path}\u0000${p.message}`;
  const add = (list: Problem[]) => list.forEach((p) => problems.set(key(p), p));
  const alone = checkTemplatePatch(buildPatch({}, filePatch, sets));
  const ofThePatch = new Set(alone.ok ? [] : alone.problems.map(key));
  for (const t of matching) {
    const patch = buildPatch(t, filePatch, sets);
    const checked = checkTemplatePatch(patch);
    if (!checked.ok) {
      add(checked.problems.map((p) => (ofThePatch.has(key(p)) ? p : { path: `${t.id as string}.${p.path}`, message: p.message })));
      continue;
    }
    const changes = diffText(templateDiff(t, checked.patch));
    if (changes.length > 0) updates.push({ id: t.id as string, name: t.name as string, patch, changes });
  }
  if (matching.length === 0 && !alone.ok) add(alone.problems.filter((p) => p.message.startsWith('unknown field')));
  return { updates, problems: [...problems.values()] };
}

/**
 * What happened to one update that failed: its template, and the API's error code, or
 * `unexpected` (the service answered a 5xx, or something that is not the API's envelope:
 * exit 1) or `unreachable` (no answer: exit 9).
 */
interface Failure {
  id: string;
  code: string;
  message: string;
}

/** What a run did (or a dry run would do): the templates changed, the failures, in preview order. */
interface Outcome {
  changed: string[];
  failed: Failure[];
  /** Templates whose update did not fail but was not kept: locally the updates are all or nothing. */
  undone: string[];
}

/** One update's failure; anything that is neither an answer nor a lost connection (a bug) is thrown. */
function failureOf(id: string, err: unknown): Failure {
  if (err instanceof AppError) return { id, code: err.code, message: err.message };
  if (err instanceof UnreachableError) return { id, code: 'unreachable', message: err.message };
  if (err instanceof ServiceError) return { id, code: 'unexpected', message: err.message };
  throw err;
}

/** The error a run with failures ends with: the first failure's code (so its exit code), counting them all. */
function failureError(code: string, message: string): Error {
  if (code === 'unreachable') return new UnreachableError(message);
  return isErrorCode(code) ? new AppError(code, message) : new ServiceError(message);
}

/** A bulk answer's error naming each failed update (details: TemplateBulkFailure[]), or undefined for any other error. */
function bulkFailures(err: unknown): TemplateBulkFailure[] | undefined {
  if (!(err instanceof AppError) || !Array.isArray(err.details) || err.details.length === 0) return undefined;
  const list = err.details as Partial<TemplateBulkFailure>[];
  return list.every((f) => typeof f?.id === 'string' && typeof f.code === 'string' && typeof f.message === 'string')
    ? (list as TemplateBulkFailure[])
    : undefined;
}

/**
 * POST /templates/bulk-update: every update checked as its PATCH would be, each failure
 * named; all or nothing, and with dryRun nothing at all. The one place the CLI asks the
 * service to check (a dry run, local or remote) or to apply (local) a bulk update.
 */
async function bulkRequest(ctx: CommandContext, updates: PlannedUpdate[], dryRun: boolean): Promise<Outcome> {
  try {
    await ctx.client.request('POST', '/templates/bulk-update', { updates: updates.map(({ id, patch }) => ({ id, patch })), dryRun });
    return { changed: updates.map((u) => u.id), failed: [], undone: [] };
  } catch (err) {
    const failures = bulkFailures(err);
    if (!failures) throw err;
    const failed = failures.map(({ id, code, message }) => ({ id, code, message }));
    const ids = new Set(failed.map((f) => f.id));
    const rest = updates.map((u) => u.id).filter((id) => !ids.has(id));
    // A dry run against a service where the real run is one PATCH each: the others would be made.
    return dryRun && ctx.client.mode === 'remote' ? { changed: rest, failed, undone: [] } : { changed: [], failed, undone: rest };
  }
}

/** A service that has no bulk route (another implementation of the API): its answer to one. */
const noBulkRoute = (err: unknown): boolean =>
  (err instanceof AppError && err.code === 'not-found' && bulkFailures(err) === undefined) ||
  (err instanceof ServiceError && (err.status === 404 || err.status === 405));

/** Remote: one PATCH per template, --concurrency at a time (the client waits out 429s); every one is tried. */
async function patchEach(ctx: CommandContext, updates: PlannedUpdate[], concurrency: number): Promise<Outcome> {
  // null: done; a failure otherwise. Kept by position, so the summary is in preview order.
  const failures: (Failure | null)[] = updates.map(() => null);
  let done = 0;
  await forEachConcurrently(updates, concurrency, async (u, i) => {
    try {
      await ctx.client.request('PATCH', `/templates/${seg(u.id)}`, u.patch);
    } catch (err) {
      failures[i] = failureOf(u.id, err);
    }
    ctx.progress(++done, updates.length, 'updating');
  });
  return { changed: updates.filter((_, i) => failures[i] === null).map((u) => u.id), failed: failures.filter((f) => f !== null), undone: [] };
}

const count = (n: number) => `${n} template${n === 1 ? '' : 's'}`;

/**
 * The summary of a run (or a dry run): which templates changed, and each failure with its
 * code. Its exit is the first failure's (in preview order), with a message counting them.
 */
function summary(outcome: Outcome, total: number, dryRun: boolean): { text: string; failure?: Error } {
  const { changed, failed, undone } = outcome;
  if (failed.length === 0) return { text: dryRun ? `${count(total)} would change\n` : `updated ${count(total)}: ${changed.join(', ')}\n` };
  const kept = undone.length === 0 ? '' : ` (all or nothing: ${undone.join(', ')} ${dryRun ? 'would not change' : 'not changed'} either)`;
  const text = [
    `${dryRun ? 'would update' : 'updated'} ${changed.length} of ${total}${changed.length > 0 ? `: ${changed.join(', ')}` : ''}${kept}`,
    `${dryRun ? 'would fail' : 'failed'} ${failed.length} of ${total}:`,
    ...failed.map((f) => `  ${f.id}: ${f.code}: ${f.message}`),
  ].join('\n');
  const allOrNothing = undone.length === 0 ? '' : dryRun ? '; nothing would change' : '; nothing was changed';
  const message = `${failed.length} of ${total} template updates ${dryRun ? 'would fail' : 'failed'}${allOrNothing}.`;
  return { text: `${text}\n`, failure: failureError(failed[0]!.code, message) };
}

const columns = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  {
    key: 'owner',
    header: 'OWNER',
    format: (v: unknown) => ((v as { kind: string; userId?: string }).kind === 'user' ? `user ${(v as { userId: string }).userId}` : 'institution'),
  },
  { key: 'modules', header: 'MODULES', format: (v: unknown) => String((v as unknown[]).length) },
  { key: 'accessFloor', header: 'FLOOR' },
];

const assignments = (list: unknown, flag: string): [string, unknown][] =>
  ((list as string[] | undefined) ?? []).map((text) => {
    const pair = parseAssignment(text);
    if (!pair) throw new UsageError(`${flag} must look like FIELD=VALUE (got ${JSON.stringify(text)})`);
    return pair;
  });

async function patchFile(ctx: CommandContext, file: unknown): Promise<Record<string, unknown>> {
  if (file === undefined) return {};
  const parsed = parseJsonText(await ctx.readText(String(file)), String(file));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${String(file)} must hold a JSON object (the PATCH body)`);
  return parsed as Record<string, unknown>;
}

export const templatesCommands = defineCommands([
  {
    name: 'templates list',
    description: 'Course templates',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', '/templates'), columns }),
  },
  {
    name: 'templates show',
    description: 'A template in full (JSON)',
    args: [{ name: '<templateId>', description: 'template id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => {
      const response = await ctx.client.request('GET', `/templates/${seg(id!)}`);
      return { kind: 'text', text: `${JSON.stringify(response.data, null, 2)}\n`, json: response.text };
    },
  },
  {
    name: 'templates create',
    description: 'Create a template from a JSON file ({name, description?, owner?, modules?, tutorDefaults?, accessFloor?})',
    options: [
      { flags: '--file <file>', description: "the template JSON ('-' for stdin)" },
      { flags: '--name <name>', description: 'or just a name, for an empty template' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const body =
        opts.file !== undefined
          ? await patchFile(ctx, opts.file)
          : { name: await ctx.require(opts.name as string | undefined, '--name', 'Template name?', 'templateName') };
      return { kind: 'api', response: await ctx.client.request('POST', '/templates', body), columns };
    },
  },
  {
    name: 'templates update',
    description: 'Change one template: --set FIELD=VALUE (repeatable) and/or --file patch.json',
    args: [{ name: '<templateId>', description: 'template id' }],
    options: [
      { flags: '--set <assignment...>', description: 'FIELD=VALUE, e.g. accessFloor=80 or tutorDefaults.lesson=on' },
      { flags: '--file <file>', description: 'a PATCH body as JSON' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const current = (await ctx.client.request<Record<string, unknown>>('GET', `/templates/${seg(id!)}`)).data;
      const patch = buildPatch(current, await patchFile(ctx, opts.file), assignments(opts.set, '--set'));
      if (Object.keys(patch).length === 0) throw new UsageError('nothing to change: give --set or --file');
      return { kind: 'api', response: await ctx.client.request('PATCH', `/templates/${seg(id!)}`, patch), columns };
    },
  },
  {
    name: 'templates bulk-update',
    description: 'Change every template matching --where: preview, one confirmation (or --yes), then apply (locally all or nothing)',
    options: [
      { flags: '--where <assignment...>', description: 'FIELD=VALUE to match (dotted paths; repeat to AND), e.g. owner.kind=institution' },
      { flags: '--set <assignment...>', description: 'FIELD=VALUE to set, e.g. accessFloor=80' },
      { flags: '--file <file>', description: 'a PATCH body as JSON, applied to each' },
      { flags: '--dry-run', description: 'check and preview every change, and change nothing' },
      { flags: '--yes', description: 'do not ask (required when not interactive)' },
      { flags: '--concurrency <n>', description: 'against a remote service: this many updates at a time', default: '4' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const where = assignments(opts.where, '--where');
      if (where.length === 0) throw new UsageError('missing --where (FIELD=VALUE); to change every template say so, e.g. --where owner.kind=institution');
      const unknownWhere = unknownWhereFields(where.map(([path]) => path));
      if (unknownWhere.length > 0) throw new UsageError(`--where: ${unknownWhere.join(', ')}`);
      const concurrency = Number(opts.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
        throw new UsageError(`--concurrency must be a whole number from 1 to 64 (got ${JSON.stringify(opts.concurrency)})`);
      const sets = assignments(opts.set, '--set');
      const filePatch = await patchFile(ctx, opts.file);
      if (sets.length === 0 && Object.keys(filePatch).length === 0) throw new UsageError('nothing to change: give --set or --file');
      const templates = (await ctx.client.request<Record<string, unknown>[]>('GET', '/templates')).data;
      const { updates, problems } = planUpdates(
        templates.filter((t) => matches(t, where)),
        filePatch,
        sets,
      );
      // Checked before the preview, so --dry-run fails exactly where the real run would.
      if (problems.length > 0) throw invalid(problems);
      const dryRun = opts.dryRun === true;
      if (updates.length === 0)
        return {
          kind: 'text',
          text: 'no template matches or would change\n',
          json: JSON.stringify({ preview: [], ...(dryRun ? {} : { changed: [] }), failed: [] }),
        };
      const paint = (line: string) =>
        !ctx.color ? line : /^\s*-/.test(line) ? RED(line) : /^\s*\+/.test(line) ? GREEN(line) : /^\s*~/.test(line) ? YELLOW(line) : line;
      const preview = updates.map((u) => `${u.id}  ${u.name}\n${u.changes.map((c) => `    ${paint(c)}`).join('\n')}\n`).join('');
      const planned = updates.map(({ id, patch, changes }) => ({ id, patch, changes }));
      const report = (outcome: Outcome, shown: string): CommandResult => {
        const { text, failure } = summary(outcome, updates.length, dryRun);
        const json = JSON.stringify({ preview: planned, ...(dryRun ? {} : { changed: outcome.changed }), failed: outcome.failed });
        return { kind: 'text', text: `${shown}${text}`, json, ...(failure ? { failure } : {}) };
      };
      if (dryRun) {
        // The service checks every update as the real run would (who may change it, what it
        // refers to), and changes nothing.
        try {
          return report(await bulkRequest(ctx, updates, true), preview);
        } catch (err) {
          if (ctx.client.mode !== 'remote' || !noBulkRoute(err)) throw err;
          ctx.note('note: the service has no POST /templates/bulk-update to check a dry run with: only each patch itself was checked');
          return report({ changed: updates.map((u) => u.id), failed: [], undone: [] }, preview);
        }
      }
      if (!opts.yes) {
        if (!ctx.interactive) throw new UsageError(`bulk changes need --yes when not interactive (${count(updates.length)} to change; see --dry-run)`);
        ctx.note(preview);
        if (!(await ctx.prompt.confirm(`Apply to ${count(updates.length)}?`, false))) return { kind: 'none', note: 'nothing changed' };
      } else if (!ctx.globals.json) {
        // What will change is on the screen before anything changes, whatever happens next.
        ctx.note(preview.trimEnd());
      }
      // Locally one request, one transaction: all or nothing. Remotely one PATCH each.
      const outcome = ctx.client.mode === 'local' ? await bulkRequest(ctx, updates, false) : await patchEach(ctx, updates, concurrency);
      return report(outcome, '');
    },
  },
  {
    name: 'templates use',
    description: 'Create a course from a template',
    args: [{ name: '<templateId>', description: 'template id' }],
    options: [
      { flags: '--title <title>', description: 'course title' },
      { flags: '--id <id>', description: 'course id' },
      { flags: '--description <text>', description: 'course description' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const title = await ctx.require(opts.title as string | undefined, '--title', 'Course title?', 'title');
      const body = definedFields({ title, id: opts.id, description: opts.description });
      return { kind: 'api', response: await ctx.client.request('POST', `/templates/${seg(id!)}/courses`, body) };
    },
  },
]);
