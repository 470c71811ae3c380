/**
 * An assignment's rubric and instruction blocks without JSON (readiness items 3.2 and 3.4):
 * `assignments rubric show|create|update|delete` and `assignments instructions
 * list|create`. Each change reads the assignment, changes its list and sends the whole list
 * back (`PATCH /assignments/{id}` with `rubric` or `instructions`): the API judges it as it
 * judges a --rubric-file or an --instructions-file, and its problems are named by the flags
 * typed. Assignments have no version, so an edit made by someone else between the read and
 * the write is overwritten (docs/content.md, "Rubrics and instructions from the command line").
 * Instruction blocks are blocks: `blocks show|update|move|delete|review BLOCK` work on them by id.
 */
import type { z } from 'zod';
import { type ApiResponse, type CommandContext, type CommandResult, defineCommands, numberOption, seg, UsageError } from '../cli/command.js';
import { flagOfField, nthFlag } from '../cli/error-text.js';
import { freeId, slugId } from '../domain/slug.js';
import { AppError } from '../errors.js';
import type { AssignmentValue, BlockMeta, StoredBlockValue } from '../schemas/content.js';
import { blockColumns, CONTENT_FIELD_FLAGS, contentFrom, contentOptions } from './block-content.js';

type Criterion = AssignmentValue['rubric'][number];
type Level = Criterion['levels'][number];
/** A level as typed: its id is made (or kept) by the command. */
type TypedLevel = Omit<Level, 'id' | 'description'> & { description?: string };

const assignmentPath = (id: string) => `/assignments/${seg(id)}`;

async function readAssignment(ctx: CommandContext, id: string): Promise<AssignmentValue> {
  return (await ctx.client.request<AssignmentValue>('GET', assignmentPath(id))).data;
}

/** A list of the API's answer as the command's answer: --json and --query get that list, as the API wrote it. */
const answerPart = <T>(response: ApiResponse, part: T): ApiResponse<T> => ({ ...response, data: part, text: JSON.stringify(part) });

/** A 0-based place for a new item among `length` (default: last), or invalid naming the flag. */
function placeOf(value: unknown, length: number): number {
  const position = numberOption(value, '--position');
  if (position === undefined) return length;
  if (!Number.isInteger(position) || position < 0 || position > length) {
    const problem = { path: '--position', message: `must be a whole number from 0 to ${length}` };
    throw new AppError('invalid', `${problem.path}: ${problem.message}`, [problem]);
  }
  return position;
}

const inserted = <T>(list: readonly T[], item: T, at: number): T[] => [...list.slice(0, at), item, ...list.slice(at)];

// --- the rubric ------------------------------------------------------------------------

const rubricColumns = [
  { key: 'id', header: 'CRITERION' },
  { key: 'title', header: 'TITLE' },
  { key: 'levels', header: 'LEVELS' },
  { key: 'max', header: 'MAX' },
];

const best = (c: Criterion) => Math.max(0, ...c.levels.map((l) => l.points));

const rubricRows = (rubric: unknown) =>
  (rubric as Criterion[]).map((c) => ({ id: c.id, title: c.title, levels: c.levels.map((l) => `${l.id}=${l.points}`).join(', '), max: best(c) }));

/** The rubric of the API's answer as a table (--json: the rubric array), with a word when its best levels and the points differ. */
function rubricResult(ctx: CommandContext, response: ApiResponse<AssignmentValue>): CommandResult {
  const { rubric, points } = response.data;
  const total = Number(rubric.reduce((sum, c) => sum + best(c), 0).toFixed(6));
  if (rubric.length > 0 && points > 0 && total !== points)
    ctx.note(`note: the rubric's best levels add up to ${total} points; the assignment is worth ${points} (a grade's score defaults to the levels' sum)`);
  return { kind: 'api', response: answerPart(response, rubric), rows: rubricRows, columns: rubricColumns };
}

const LEVEL_SYNTAX = '"Title=points" or "Title=points: description"';
const LEVEL_TEXT = /^(.+?)\s*=\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(?::\s*([\s\S]*?))?\s*$/;

/** `Good=3: Mostly clear` -> {title: Good, points: 3, description: Mostly clear}; undefined when it does not read so. */
function parseLevel(text: string): TypedLevel | undefined {
  const m = LEVEL_TEXT.exec(text.trim());
  if (!m) return undefined;
  const [, title, points, description] = m as unknown as [string, string, string, string | undefined];
  return { title: title.trim(), points: Number(points), ...(description === undefined ? {} : { description }) };
}

/** The --level values, each read as a level (a usage error names the one that does not read). */
function typedLevels(values: readonly string[]): TypedLevel[] {
  return values.map((text, i) => {
    const level = parseLevel(text);
    if (!level) throw new UsageError(`${values.length > 1 ? nthFlag('--level', i) : '--level'} must look like ${LEVEL_SYNTAX} (got ${JSON.stringify(text)})`);
    return level;
  });
}

/** On a terminal without --level: the levels one by one, in order, an empty answer to finish. */
async function askLevels(ctx: CommandContext): Promise<TypedLevel[]> {
  const { VALIDATE } = await import('../cli/answer-checks.js');
  const levels: TypedLevel[] = [];
  for (;;) {
    const first = levels.length === 0;
    const answer = await ctx.prompt.input(`Level ${levels.length + 1} (Title=points, or Title=points: description)${first ? '' : ', empty to finish'}?`, {
      validate: (text) => {
        if (!first && text.trim() === '') return true;
        const level = parseLevel(text);
        if (!level) return `write ${LEVEL_SYNTAX}`;
        const title = VALIDATE.title(level.title);
        return title === true ? VALIDATE.points(String(level.points)) : title;
      },
    });
    if (answer.trim() === '') return levels;
    levels.push(parseLevel(answer)!);
  }
}

/** The levels given, or asked for on a terminal; none at all is a usage error. */
async function levelsFrom(ctx: CommandContext, value: unknown): Promise<TypedLevel[]> {
  if (value !== undefined) return typedLevels(value as string[]);
  if (!ctx.interactive) throw new UsageError(`missing --level: give one --level ${LEVEL_SYNTAX} for each level, in order`);
  return askLevels(ctx);
}

/**
 * Ids for typed levels: a level titled as one of `kept` was (same words, any case) keeps that
 * level's id, so grades that name it still do; the others get ids made from their titles,
 * unique within the criterion.
 */
function withIds(typed: readonly TypedLevel[], kept: readonly Level[] = []): Level[] {
  const key = (title: string) => title.trim().toLowerCase();
  const free = new Map<string, string>();
  for (const l of [...kept].reverse()) free.set(key(l.title), l.id);
  const reused = typed.map((l) => {
    const id = free.get(key(l.title));
    if (id !== undefined) free.delete(key(l.title));
    return id;
  });
  const taken = new Set(reused.filter((id): id is string => id !== undefined));
  return typed.map((l, i) => {
    let id = reused[i];
    if (id === undefined) {
      id = freeId(slugId(l.title, 'level'), taken);
      taken.add(id);
    }
    return { id, title: l.title, points: l.points, description: l.description ?? '' };
  });
}

/** The criterion at `index` of the rubric sent, by the flags that set it (`rubric[2].levels[1].points` is `--level (the 2nd)`). */
const criterionFlags =
  (index: number) =>
  (path: string): string | undefined => {
    const m = /^rubric\[(\d+)\]\.(id|title|description|levels)(?:\[(\d+)\](?:\.\w+)?)?$/.exec(path);
    if (!m || Number(m[1]) !== index) return undefined;
    if (m[2] !== 'levels') return `--${m[2]}`;
    return m[3] === undefined ? '--level' : nthFlag('--level', Number(m[3]));
  };

/** PATCH the rubric; problems of the criterion at `index` are named by the flags that set it. */
async function saveRubric(ctx: CommandContext, assignmentId: string, rubric: Criterion[], index?: number): Promise<CommandResult> {
  if (index !== undefined) ctx.nameProblemsBy(criterionFlags(index));
  return rubricResult(ctx, await ctx.client.request<AssignmentValue>('PATCH', assignmentPath(assignmentId), { rubric }));
}

/** The criterion `id` of the assignment's rubric, or not-found naming the ones it has. */
function criterionIndex(a: AssignmentValue, id: string): number {
  const index = a.rubric.findIndex((c) => c.id === id);
  if (index < 0) {
    const ids = a.rubric.map((c) => c.id).join(', ');
    throw new AppError(
      'not-found',
      `Criterion ${JSON.stringify(id)} is not in the rubric of assignment ${JSON.stringify(a.id)} (${ids === '' ? 'it has none' : `its criteria: ${ids}`}).`,
    );
  }
  return index;
}

const levelOption = (what: string) => ({
  flags: '--level <level...>',
  description: `${what}: "Title=points" or "Title=points: description" (repeatable, in the order shown to graders)`,
});

const RUBRIC_HELP = 'The rubric\'s fields and limits: docs/content.md ("Assignments"); a walk-through: "Rubrics and instructions from the command line".';

// --- instructions ------------------------------------------------------------------------

/**
 * What a stored block has beyond its id and content (schemas/content.ts BlockMeta): every one
 * of its fields, or this does not compile. The rest is what the PATCH takes back.
 */
const META_FIELDS: Record<Exclude<keyof z.infer<typeof BlockMeta>, 'id'>, true> = {
  lessonId: true,
  position: true,
  origin: true,
  aiState: true,
  provenance: true,
  previous: true,
  updatedAt: true,
};

/** A stored instruction block as the PATCH takes it back: its id and its content, unchanged (so it keeps its origin and review state). */
function asInput(block: StoredBlockValue): Record<string, unknown> {
  const input: Record<string, unknown> = { ...block };
  for (const k of Object.keys(META_FIELDS)) delete input[k];
  return input;
}

/** The block flags (`--text`, `--item (the 2nd)`) for problems of the instruction at `index` of the list sent. */
function instructionFlags(index: number): (path: string) => string | undefined {
  const contentFlag = flagOfField(
    contentOptions.map((o) => o.flags),
    CONTENT_FIELD_FLAGS,
  );
  return (path) => {
    const m = /^instructions\[(\d+)\]\.(.+)$/.exec(path);
    return m && Number(m[1]) === index ? contentFlag(m[2]!) : undefined;
  };
}

export const assignmentPartsCommands = defineCommands([
  {
    name: 'assignments rubric show',
    description: "An assignment's rubric: each criterion with its levels as id=points and its best level's points (--json: the rubric array)",
    parents: [{ kind: 'assignment' }],
    help: RUBRIC_HELP,
    handler: async (ctx): Promise<CommandResult> => {
      const response = await ctx.client.request<AssignmentValue>('GET', assignmentPath(await ctx.parent('assignment')));
      return rubricResult(ctx, response);
    },
  },
  {
    name: 'assignments rubric create',
    aliases: ['add'],
    description: "Add a criterion to an assignment's rubric (last unless --position); its id and its levels' ids are made from their titles",
    parents: [{ kind: 'assignment' }],
    options: [
      { flags: '--title <title>', description: 'what the criterion judges (1 to 200 characters)' },
      { flags: '--id <id>', description: 'the criterion id (default: made from the title, e.g. clarity)' },
      { flags: '--description <text>', description: 'what graders look for (at most 5000 characters)' },
      levelOption('a level'),
      { flags: '--position <n>', description: '0-based place among the criteria (default: last)' },
    ],
    help: RUBRIC_HELP,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const assignmentId = await ctx.parent('assignment');
      const title = await ctx.require(opts.title as string | undefined, '--title', 'Criterion title?', 'title');
      const levels = withIds(await levelsFrom(ctx, opts.level));
      const a = await readAssignment(ctx, assignmentId);
      const at = placeOf(opts.position, a.rubric.length);
      const id = (opts.id as string | undefined) ?? freeId(slugId(title, 'criterion'), new Set(a.rubric.map((c) => c.id)));
      const description = opts.description as string | undefined;
      const criterion = { id, title, ...(description === undefined ? {} : { description }), levels } as Criterion;
      return saveRubric(ctx, assignmentId, inserted(a.rubric, criterion, at), at);
    },
  },
  {
    name: 'assignments rubric update',
    description: 'Change a criterion of a rubric (only the given fields; --level replaces its levels, a level keeping its title keeps its id)',
    args: [{ name: '<criterionId>', description: 'the criterion (assignments rubric show lists them)' }],
    parents: [{ kind: 'assignment' }],
    options: [
      { flags: '--title <title>', description: 'a new title (the id stays)' },
      { flags: '--description <text>', description: 'a new description ("" clears it)' },
      levelOption('the levels, all of them'),
      { flags: '--position <n>', description: '0-based place among the criteria' },
    ],
    help: RUBRIC_HELP,
    handler: async (ctx, [criterionId], opts): Promise<CommandResult> => {
      const assignmentId = await ctx.parent('assignment');
      const typed = opts.level === undefined ? undefined : typedLevels(opts.level as string[]);
      if (opts.title === undefined && opts.description === undefined && typed === undefined && opts.position === undefined)
        throw new UsageError('nothing to change: give at least one of --title, --description, --level, --position');
      const a = await readAssignment(ctx, assignmentId);
      const index = criterionIndex(a, criterionId!);
      const before = a.rubric[index]!;
      const changed: Criterion = {
        ...before,
        ...(opts.title === undefined ? {} : { title: String(opts.title) }),
        ...(opts.description === undefined ? {} : { description: String(opts.description) }),
        ...(typed === undefined ? {} : { levels: withIds(typed, before.levels) }),
      };
      const rest = a.rubric.filter((_, i) => i !== index);
      const at = opts.position === undefined ? index : placeOf(opts.position, rest.length);
      return saveRubric(ctx, assignmentId, inserted(rest, changed, at), at);
    },
  },
  {
    name: 'assignments rubric delete',
    aliases: ['remove'],
    description: "Remove a criterion from an assignment's rubric (asks first on a terminal; --yes to skip)",
    args: [{ name: '<criterionId>', description: 'the criterion' }],
    parents: [{ kind: 'assignment' }],
    options: [{ flags: '--yes', description: 'do not ask (required when not interactive)' }],
    handler: async (ctx, [criterionId], opts): Promise<CommandResult> => {
      const assignmentId = await ctx.parent('assignment');
      const a = await readAssignment(ctx, assignmentId);
      const index = criterionIndex(a, criterionId!);
      if (!opts.yes) {
        if (!ctx.interactive) throw new UsageError('deleting needs --yes when not interactive');
        const c = a.rubric[index]!;
        if (!(await ctx.prompt.confirm(`Delete criterion ${c.id} ${JSON.stringify(c.title)} (${c.levels.length} levels) from assignment ${a.id}?`, false)))
          return { kind: 'none', note: 'nothing deleted' };
      }
      return saveRubric(
        ctx,
        assignmentId,
        a.rubric.filter((_, i) => i !== index),
      );
    },
  },
  {
    name: 'assignments instructions list',
    description: "An assignment's instruction blocks in order (change one with blocks update|move|delete BLOCK)",
    parents: [{ kind: 'assignment' }],
    handler: async (ctx): Promise<CommandResult> => {
      const response = await ctx.client.request<AssignmentValue>('GET', assignmentPath(await ctx.parent('assignment')));
      return { kind: 'api', response: answerPart(response, response.data.instructions), columns: blockColumns };
    },
  },
  {
    name: 'assignments instructions create',
    aliases: ['add'],
    description:
      'Add an instruction block to an assignment (last, unless --position), with the flags of blocks create; on a terminal without --file or --type, asks for it',
    parents: [{ kind: 'assignment' }],
    options: [...contentOptions, { flags: '--position <n>', description: '0-based position among its instructions; later blocks shift' }],
    fieldFlags: CONTENT_FIELD_FLAGS,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const assignmentId = await ctx.parent('assignment');
      const content = await contentFrom(ctx, opts);
      const a = await readAssignment(ctx, assignmentId);
      const at = placeOf(opts.position, a.instructions.length);
      const before = new Set(a.instructions.map((b) => b.id));
      ctx.nameProblemsBy(instructionFlags(at));
      const response = await ctx.client.request<AssignmentValue>('PATCH', assignmentPath(assignmentId), {
        // Content that is not an object goes as it is, for the API to refuse.
        instructions: inserted<unknown>(a.instructions.map(asInput), content, at),
      });
      const block = response.data.instructions.find((b) => !before.has(b.id));
      if (!block) throw new Error(`the answer to adding an instruction block to ${assignmentId} holds no new block`);
      const id = block.id;
      return {
        kind: 'text',
        text: ctx.stdoutIsTTY ? `Created instruction block ${id} (position ${block.position} of assignment ${assignmentId})\n` : `${id}\n`,
        json: JSON.stringify(block),
      };
    },
  },
]);
