import chalk from 'chalk';
import type { ParentDef } from '../cli/command.js';
import { type CommandContext, type CommandResult, defineCommands, seg, UsageError } from '../cli/command.js';
import { FIX_LABELS } from '../domain/readiness/fix-labels.js';
import { AppError } from '../errors.js';
import type { ReadinessReportValue } from '../schemas/readiness.js';

/** The readiness report as the API answers it (its schema's type). */
type Report = ReadinessReportValue;
type Item = Report['standards'][number]['items'][number];

const STATUS_COLOR: Record<string, (s: string) => string> = {
  met: chalk.green,
  attested: chalk.cyan,
  'not-met': chalk.red,
  'likely-met': chalk.yellow,
  'likely-not-met': chalk.yellow,
  pending: chalk.magenta,
  'needs-review': chalk.yellow,
  'not-applicable': chalk.gray,
};

/**
 * The command that makes a fix, where one command does, shaped from its target: the fix
 * labels are the API's and name no command (a client of the API may have other ways).
 */
function fixCommand(fix: Report['standards'][number]['items'][number]['fixes'][number]): string | null {
  const { assignmentId, blockId } = fix.target;
  if (assignmentId && fix.label === FIX_LABELS.addRubric)
    return `coursebook assignments rubric create --assignment ${assignmentId} --title TITLE --level "Meets=POINTS" --level "Not yet=0"`;
  if (assignmentId && fix.label === FIX_LABELS.setDueDate) return `coursebook assignments update ${assignmentId} --due YYYY-MM-DDTHH:MM:SSZ`;
  if (assignmentId && fix.label === FIX_LABELS.writeInstructions)
    return `coursebook assignments instructions create --assignment ${assignmentId} --type paragraph --text TEXT`;
  if (blockId && fix.label === FIX_LABELS.reviewAiBlock) return `coursebook blocks review ${blockId} --accept (or --reject)`;
  return null;
}

/** The course's readiness floor (from its template), or null when it has none or cannot be read. */
async function accessFloorOf(ctx: CommandContext, course: string): Promise<number | null> {
  try {
    return (await ctx.client.request<{ accessFloor: number | null }>('GET', `/courses/${seg(course)}`)).data.accessFloor ?? null;
  } catch {
    return null;
  }
}

/** The report as a person reads it: standards, items with statuses, what blocks, and fixes. */
export function describeReport(r: Report, color: boolean, accessFloor: number | null = null): string {
  const paint = (status: string) => (color ? (STATUS_COLOR[status] ?? ((s: string) => s))(status) : status);
  const out: string[] = [];
  out.push(`${r.rubricName} (${r.rubricId}): ${r.met}/${r.applicable} met, ${r.percent}%${r.needsReview ? `, ${r.needsReview} need review` : ''}`);
  const blocking = r.standards
    .flatMap((s) => s.items)
    .filter((i) => i.essential && !['met', 'attested', 'not-applicable'].includes(i.status))
    .map((i) => i.number);
  // The report does not carry the floor itself: the course does (given when it was read).
  const floorBlocks = accessFloor !== null && accessFloor > r.percent;
  const reasons = [
    ...(blocking.length ? [`essential items ${blocking.join(', ')}`] : []),
    ...(floorBlocks ? [`the template's readiness floor of ${accessFloor}% (readiness is ${r.percent}%)`] : []),
  ];
  const blockedText = `Publishing is blocked by ${
    reasons.length > 0 ? reasons.join(', and by ') : `the template's readiness floor: ${r.percent}% is below it (courses show names the floor)`
  }.`;
  out.push(r.blocksPublishing ? (color ? chalk.red(blockedText) : blockedText) : 'Ready to publish.');
  for (const s of r.standards) {
    out.push('');
    out.push(`${s.number} ${s.title}  [${paint(s.status)}] ${s.met}/${s.applicable}`);
    for (const i of s.items) {
      out.push(`  ${i.number.padEnd(5)} ${paint(i.status).padEnd(color ? 24 : 15)} ${i.essential ? 'E ' : '  '}${i.text}`);
      for (const e of i.evidence) out.push(`        - ${e}`);
      for (const f of i.fixes) {
        out.push(
          `        fix: ${f.label}${f.target.blockId ? ` (block ${f.target.blockId})` : f.target.lessonId ? ` (lesson ${f.target.lessonId})` : f.target.assignmentId ? ` (assignment ${f.target.assignmentId})` : f.target.moduleId ? ` (module ${f.target.moduleId})` : ''}`,
        );
        const command = fixCommand(f);
        if (command) out.push(`             ${command}`);
      }
      if (i.attestation) out.push(`        attested by ${i.attestation.byName} at ${i.attestation.at}${i.attestation.note ? `: ${i.attestation.note}` : ''}`);
      if (i.finding) out.push(`        AI finding: ${i.finding.verdict} (${i.finding.state})`);
    }
  }
  return out.join('\n') + '\n';
}

/** Readiness is a course's (the positional course id of 0.1 still works, with a note). */
const inCourse: ParentDef[] = [{ kind: 'course', positional: true }];

/**
 * The course's readiness report, read for what a command was not told by its flags: the
 * course's rubric id (`needs`: 'rubric'), the items to pick from ('item'). Reading it needs
 * the scope readiness:read, which attesting, withdrawing and reviewing do not: a credential
 * without it is told which flags let the command do without the report.
 */
async function readReport(ctx: CommandContext, course: string, command: string, needs: ('item' | 'rubric')[]): Promise<Report> {
  try {
    return (await ctx.client.request<Report>('GET', `/courses/${seg(course)}/readiness`)).data;
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'forbidden' && (err.details as { requiredScope?: unknown } | undefined)?.requiredScope === 'readiness:read'))
      throw err;
    // The flags are a way on only for a credential that may do the change itself (GET /me needs no scope).
    const scopes = await ctx.client.request<{ scopes: string[] }>('GET', '/me').then(
      (me) => me.data.scopes,
      () => undefined,
    );
    if (scopes !== undefined && !scopes.includes('readiness:attest') && !scopes.includes('*'))
      throw new AppError('forbidden', 'This credential lacks the scope readiness:attest.', { requiredScope: 'readiness:attest' });
    const what = needs.map((n) => (n === 'rubric' ? "read the course's rubric id" : 'list the items to choose from')).join(' and ');
    const flags = needs.map((n) => (n === 'rubric' ? "--rubric RUBRIC (the course's rubric id)" : '--item ITEM')).join(' and ');
    throw new AppError(
      'forbidden',
      `This credential lacks the scope readiness:read, which ${command} needs to ${what}; give ${flags} to ${command.split(' ').pop()} with readiness:attest alone.`,
      err.details,
    );
  }
}

/** The item a command acts on: --item, else (on a terminal) one picked from the report's items that pass `filter`. */
async function pickItem(report: Report, filter: (i: Item) => boolean, question: string, ctx: CommandContext): Promise<string> {
  const items = report.standards.flatMap((s) => s.items).filter(filter);
  if (items.length === 0) throw new UsageError('no items to choose from');
  return ctx.prompt.select(
    question,
    items.map((i) => ({ name: `${i.number} [${i.status}] ${i.text}`, value: i.itemId })),
  );
}

/** --item, or a usage error naming it when no pick list can be shown. */
function givenItem(ctx: CommandContext, opts: Record<string, unknown>): string | undefined {
  if (opts.item !== undefined) return String(opts.item);
  if (!ctx.interactive) throw new UsageError('missing --item');
  return undefined;
}

async function itemOf(
  ctx: CommandContext,
  course: string,
  opts: Record<string, unknown>,
  filter: (i: Item) => boolean,
  question: string,
  command: string,
): Promise<string> {
  const given = givenItem(ctx, opts);
  if (given !== undefined) return given;
  return pickItem(await readReport(ctx, course, command, ['item']), filter, question, ctx);
}

export const readinessCommands = defineCommands([
  {
    name: 'readiness show',
    description: 'Readiness against the course rubric: statuses, what blocks publishing, and fixes',
    parents: inCourse,
    handler: async (ctx): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const response = await ctx.client.request<Report>('GET', `/courses/${seg(course)}/readiness`);
      // What blocks is said whole: the floor is the course's, read only when something blocks.
      const floor = response.data.blocksPublishing ? await accessFloorOf(ctx, course) : null;
      return { kind: 'text', text: describeReport(response.data, ctx.color, floor), json: response.text };
    },
  },
  {
    name: 'readiness attest',
    description: 'Attest a rubric item (on a terminal without --item: pick from the pending items)',
    parents: inCourse,
    options: [
      { flags: '--item <itemId>', description: 'the item (e.g. 1.3)' },
      { flags: '--note <text>', description: 'why it is met (required for an automatic item that is not met)' },
      {
        flags: '--rubric <rubricId>',
        description: "the course's rubric, which the attestation names (default: read from the readiness report, which needs readiness:read)",
      },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      let item = givenItem(ctx, opts);
      let rubricId = opts.rubric === undefined ? undefined : String(opts.rubric);
      if (rubricId === undefined || item === undefined) {
        const needs = [...(rubricId === undefined ? (['rubric'] as const) : []), ...(item === undefined ? (['item'] as const) : [])];
        const report = await readReport(ctx, course, 'readiness attest', needs);
        rubricId ??= report.rubricId;
        item ??= await pickItem(report, (i) => ['pending', 'not-met', 'likely-met', 'likely-not-met'].includes(i.status), 'Attest which item?', ctx);
      }
      const body: Record<string, string> = { rubricId };
      if (opts.note !== undefined) body.note = String(opts.note);
      const response = await ctx.client.request<Report>('PUT', `/courses/${seg(course)}/readiness/items/${seg(item)}/attestation`, body);
      return { kind: 'text', text: describeReport(response.data, false), json: response.text };
    },
  },
  {
    name: 'readiness withdraw',
    description: 'Withdraw an attestation',
    parents: inCourse,
    options: [{ flags: '--item <itemId>', description: 'the item' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const item = await itemOf(ctx, course, opts, (i) => i.attestation !== null, 'Withdraw which attestation?', 'readiness withdraw');
      const response = await ctx.client.request<Report>('DELETE', `/courses/${seg(course)}/readiness/items/${seg(item)}/attestation`);
      return { kind: 'text', text: describeReport(response.data, false), json: response.text };
    },
  },
  {
    name: 'readiness findings list',
    description: "The course's AI findings",
    parents: inCourse,
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/courses/${seg(await ctx.parent('course'))}/readiness/findings`),
      columns: [
        { key: 'itemId', header: 'ITEM' },
        { key: 'verdict', header: 'VERDICT' },
        { key: 'state', header: 'STATE' },
        { key: 'reviewedByName', header: 'REVIEWED BY' },
        { key: 'evidence', header: 'EVIDENCE' },
      ],
    }),
  },
  {
    name: 'readiness findings review',
    description: 'Accept or reject an AI finding',
    parents: inCourse,
    options: [
      { flags: '--item <itemId>', description: 'the item the finding is about' },
      { flags: '--accept', description: 'accept the finding' },
      { flags: '--reject', description: 'reject the finding' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const item = await itemOf(ctx, course, opts, (i) => i.finding?.state === 'draft', 'Review which finding?', 'readiness findings review');
      let decision: 'accept' | 'reject';
      if (opts.accept && opts.reject) throw new UsageError('give --accept or --reject, not both');
      if (opts.accept) decision = 'accept';
      else if (opts.reject) decision = 'reject';
      else if (ctx.interactive)
        decision = await ctx.prompt.select('Decision?', [
          { name: 'accept', value: 'accept' },
          { name: 'reject', value: 'reject' },
        ]);
      else throw new UsageError('missing --accept or --reject');
      return { kind: 'api', response: await ctx.client.request('POST', `/courses/${seg(course)}/readiness/items/${seg(item)}/finding/review`, { decision }) };
    },
  },
  {
    name: 'courses publish',
    description: 'Publish a course (refused with not-ready while readiness blocks it)',
    args: [{ name: '<courseId>', description: 'course id' }],
    handler: async (ctx, [course]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/courses/${seg(course!)}/publish`) }),
  },
]);
