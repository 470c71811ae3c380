import { Chalk } from 'chalk';
import { type CommandContext, type CommandResult, defineCommands, parseJsonText, seg, UsageError } from '../cli/command.js';
import { checkTemplatePatch, unknownWhereFields } from '../domain/templates/bulk.js';
import { diffText, templateDiff } from '../domain/templates/diff.js';
import { buildPatch, matches, parseAssignment } from '../domain/templates/templates.js';
import { AppError, type ErrorCode, invalid, type Problem } from '../errors.js';
import { definedFields } from '../runtime/objects.js';
import { forEachConcurrently } from '../runtime/pool.js';

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
 * a diff; the problems of every patch (each listed once). With no match, the patch's field
 * names are still checked, so a typo never passes for "nothing to do".
 */
function planUpdates(
  matching: Record<string, unknown>[],
  filePatch: Record<string, unknown>,
  sets: [string, unknown][],
): { updates: PlannedUpdate[]; problems: Problem[] } {
  const updates: PlannedUpdate[] = [];
  const problems = new Map<string, Problem>();
  const add = (list: Problem[]) => list.forEach((p) => problems.set(`${p.path}\u0000${p.message}`, p));
  for (const t of matching) {
    const patch = buildPatch(t, filePatch, sets);
    const checked = checkTemplatePatch(patch);
    if (!checked.ok) {
      add(checked.problems);
      continue;
    }
    const changes = diffText(templateDiff(t, checked.patch));
    if (changes.length > 0) updates.push({ id: t.id as string, name: t.name as string, patch, changes });
  }
  if (matching.length === 0) {
    const checked = checkTemplatePatch(buildPatch({}, filePatch, sets));
    if (!checked.ok) add(checked.problems.filter((p) => p.message.startsWith('unknown field')));
  }
  return { updates, problems: [...problems.values()] };
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
      const paint = (line: string) =>
        !ctx.color ? line : /^\s*-/.test(line) ? RED(line) : /^\s*\+/.test(line) ? GREEN(line) : /^\s*~/.test(line) ? YELLOW(line) : line;
      const preview = updates.map((u) => `${u.id}  ${u.name}\n${u.changes.map((c) => `    ${paint(c)}`).join('\n')}\n`).join('');
      const count = (n: number) => `${n} template${n === 1 ? '' : 's'}`;
      const summary = `${count(updates.length)} ${opts.dryRun ? 'would change' : 'to change'}`;
      if (updates.length === 0) return { kind: 'text', text: 'no template matches or would change\n', json: JSON.stringify({ changed: [], failed: [] }) };
      if (opts.dryRun)
        return {
          kind: 'text',
          text: `${preview}${summary}\n`,
          json: JSON.stringify({ preview: updates.map(({ id, patch, changes }) => ({ id, patch, changes })) }),
        };
      if (!opts.yes) {
        if (!ctx.interactive) throw new UsageError(`bulk changes need --yes when not interactive (${summary}; see --dry-run)`);
        ctx.note(preview);
        if (!(await ctx.prompt.confirm(`Apply to ${count(updates.length)}?`, false))) return { kind: 'none', note: 'nothing changed' };
      }
      // The preview is on the terminal already when it was confirmed there.
      const shown = opts.yes ? preview : '';
      if (ctx.client.mode === 'local') {
        // One request, one transaction: all or nothing.
        await ctx.client.request('POST', '/templates/bulk-update', { updates: updates.map(({ id, patch }) => ({ id, patch })) });
        return {
          kind: 'text',
          text: `${shown}updated ${count(updates.length)}\n`,
          json: JSON.stringify({ changed: updates.map((u) => u.id), failed: [] }),
        };
      }
      // Remote: one PATCH each, --concurrency at a time (the client waits out 429s), then a
      // summary of what succeeded and what failed, in preview order.
      const outcome: ({ ok: true } | { ok: false; code: ErrorCode; message: string } | undefined)[] = updates.map(() => undefined);
      let done = 0;
      try {
        await forEachConcurrently(updates, concurrency, async (u, i) => {
          try {
            await ctx.client.request('PATCH', `/templates/${seg(u.id)}`, u.patch);
            outcome[i] = { ok: true };
          } catch (err) {
            // The service went away (or broke): stop starting new updates.
            if (!(err instanceof AppError)) throw err;
            outcome[i] = { ok: false, code: err.code, message: err.message };
          }
          ctx.progress(++done, updates.length, 'updating');
        });
      } catch (err) {
        const finished = outcome.filter((o) => o !== undefined);
        ctx.note(
          `updated ${finished.filter((o) => o.ok).length}, failed ${finished.filter((o) => !o.ok).length}, not done ${updates.length - finished.length}`,
        );
        throw err;
      }
      const changed = updates.filter((_, i) => outcome[i]?.ok).map((u) => u.id);
      const failed = updates.flatMap((u, i) => {
        const o = outcome[i];
        return o && !o.ok ? [{ id: u.id, code: o.code, message: o.message }] : [];
      });
      const report = `updated ${changed.length}, failed ${failed.length}\n${failed.map((f) => `  ${f.id}: ${f.code}: ${f.message}\n`).join('')}`;
      if (failed.length > 0) {
        ctx.note(report.trimEnd());
        throw new AppError(failed[0]!.code, `${failed.length} of ${updates.length} template updates failed.`, { changed, failed });
      }
      return { kind: 'text', text: `${shown}${report}`, json: JSON.stringify({ changed, failed }) };
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
