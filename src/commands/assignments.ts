import { type CommandContext, type CommandResult, defineCommands, numberOption, parseJsonText, seg, UsageError } from '../cli/command.js';

const columns = [
  { key: 'id', header: 'ID' },
  { key: 'title', header: 'TITLE' },
  { key: 'status', header: 'STATUS' },
  { key: 'points', header: 'POINTS' },
  { key: 'dueAt', header: 'DUE' },
  { key: 'categoryId', header: 'CATEGORY' },
];

const fieldOptions = [
  { flags: '--title <title>', description: 'title' },
  { flags: '--due <iso|none>', description: 'due date (RFC 3339), or none to clear it' },
  { flags: '--points <n>', description: 'points (0 makes it extra credit)' },
  { flags: '--position <n>', description: '0-based position in its module' },
  { flags: '--category <id|none>', description: 'gradebook category, or none' },
  { flags: '--submission-type <type>', description: 'text, file or link' },
  { flags: '--rubric-file <file>', description: 'rubric JSON: an array of criteria (replaces the rubric)' },
  { flags: '--instructions-file <file>', description: 'instruction blocks JSON: an array (replaces them; blocks with an id keep their identity)' },
];

async function bodyFrom(ctx: CommandContext, opts: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (opts.title !== undefined) body.title = opts.title;
  if (opts.due !== undefined) body.dueAt = opts.due === 'none' ? null : opts.due;
  const points = numberOption(opts.points, '--points');
  if (points !== undefined) body.points = points;
  const position = numberOption(opts.position, '--position');
  if (position !== undefined) body.position = position;
  if (opts.category !== undefined) body.categoryId = opts.category === 'none' ? null : opts.category;
  if (opts.submissionType !== undefined) body.submissionType = opts.submissionType;
  if (opts.rubricFile !== undefined) body.rubric = parseJsonText(await ctx.readText(String(opts.rubricFile)), String(opts.rubricFile));
  if (opts.instructionsFile !== undefined) body.instructions = parseJsonText(await ctx.readText(String(opts.instructionsFile)), String(opts.instructionsFile));
  return body;
}

export const assignmentsCommands = defineCommands([
  {
    name: 'assignments list',
    description: "A course's assignments, in course order",
    parents: [{ kind: 'course', positional: true }],
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/courses/${seg(await ctx.parent('course'))}/assignments`),
      columns,
    }),
  },
  {
    name: 'assignments show',
    description: 'Show an assignment with its rubric and instructions (JSON on a terminal too)',
    args: [{ name: '<assignmentId>', description: 'assignment id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => {
      const response = await ctx.client.request('GET', `/assignments/${seg(id!)}`);
      return { kind: 'text', text: `${JSON.stringify(response.data, null, 2)}\n`, json: response.text };
    },
  },
  {
    name: 'assignments create',
    fieldFlags: { dueAt: '--due' },
    description: 'Create a draft assignment in a module (prompts for missing values on a terminal)',
    parents: [{ kind: 'module' }],
    options: fieldOptions,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const module = await ctx.parent('module');
      const title = await ctx.require(opts.title as string | undefined, '--title', 'Title?', 'title');
      const points = await ctx.require(opts.points as string | undefined, '--points', 'Points?', 'points');
      const body = await bodyFrom(ctx, { ...opts, title, points });
      return { kind: 'api', response: await ctx.client.request('POST', `/modules/${seg(module)}/assignments`, body), columns };
    },
  },
  {
    name: 'assignments update',
    fieldFlags: { dueAt: '--due' },
    description: 'Change an assignment (only the given fields); with several ids or --all-in-module, move them all to --category at once',
    args: [{ name: '[assignmentIds...]', description: 'assignment id(s); several only with --category' }],
    options: [...fieldOptions, { flags: '--all-in-module <moduleId>', description: 'every assignment of this module (drafts too); only with --category' }],
    handler: async (ctx, ids, opts): Promise<CommandResult> => {
      const module = opts.allInModule as string | undefined;
      if (module !== undefined && ids.length > 0) throw new UsageError('give assignment ids or --all-in-module, not both');
      if (module === undefined && ids.length === 0) throw new UsageError('missing assignment id (or --all-in-module MODULE)');
      const body = await bodyFrom(ctx, opts);
      if (module === undefined && ids.length === 1) {
        if (Object.keys(body).length === 0)
          throw new UsageError(
            'nothing to change: give at least one of --title, --due, --points, --position, --category, --submission-type, --rubric-file, --instructions-file',
          );
        return { kind: 'api', response: await ctx.client.request('PATCH', `/assignments/${seg(ids[0]!)}`, body), columns };
      }
      // Several at once: only the category, in one request, all or nothing.
      const others = Object.keys(body).filter((k) => k !== 'categoryId');
      if (others.length > 0 || !('categoryId' in body))
        throw new UsageError('several assignments at once take only --category (change other fields one assignment at a time)');
      const courseId =
        module !== undefined
          ? (await ctx.client.request<{ courseId: string }>('GET', `/modules/${seg(module)}`)).data.courseId
          : (await ctx.client.request<{ courseId: string }>('GET', `/assignments/${seg(ids[0]!)}`)).data.courseId;
      const target = module !== undefined ? { moduleId: module } : { assignmentIds: ids };
      return {
        kind: 'api',
        response: await ctx.client.request('POST', `/courses/${seg(courseId)}/assignments/category`, { categoryId: body.categoryId, ...target }),
        columns,
      };
    },
  },
  {
    name: 'assignments publish',
    description: 'Publish an assignment',
    args: [{ name: '<assignmentId>', description: 'assignment id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('POST', `/assignments/${seg(id!)}/publish`),
      columns,
    }),
  },
  {
    name: 'assignments unpublish',
    description: 'Back to draft (refused once it has submissions)',
    args: [{ name: '<assignmentId>', description: 'assignment id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('POST', `/assignments/${seg(id!)}/unpublish`),
      columns,
    }),
  },
]);
