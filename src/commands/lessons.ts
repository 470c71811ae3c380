import { type CommandResult, defineCommands, numberOption, seg, UsageError } from '../cli/command.js';
import { definedFields } from '../runtime/objects.js';

const columns = [
  { key: 'position', header: '#' },
  { key: 'id', header: 'ID' },
  { key: 'title', header: 'TITLE' },
  { key: 'minutes', header: 'MIN' },
  { key: 'status', header: 'STATUS' },
];

export const lessonsCommands = defineCommands([
  {
    name: 'lessons create',
    description: 'Create a draft lesson at the end of a module (prompts for missing values on a terminal)',
    parents: [{ kind: 'module' }],
    options: [
      { flags: '--title <title>', description: 'lesson title (1 to 200 characters)' },
      { flags: '--minutes <n>', description: 'expected minutes, a whole number from 1 to 240' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const module = await ctx.parent('module');
      const title = await ctx.require(opts.title as string | undefined, '--title', 'Lesson title?', 'title');
      const minutes = numberOption(await ctx.require(opts.minutes as string | undefined, '--minutes', 'Minutes (1-240)?', 'minutes'), '--minutes');
      return { kind: 'api', response: await ctx.client.request('POST', `/modules/${seg(module)}/lessons`, { title, minutes }) };
    },
  },
  {
    name: 'lessons list',
    description: "A module's lessons in order",
    parents: [{ kind: 'module', positional: true }],
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/modules/${seg(await ctx.parent('module'))}/lessons`),
      columns,
    }),
  },
  {
    name: 'lessons show',
    description: 'Show a lesson',
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/lessons/${seg(id!)}`) }),
  },
  {
    name: 'lessons update',
    description: 'Change a lesson (only the given fields)',
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    options: [
      { flags: '--title <title>', description: 'new title' },
      { flags: '--minutes <n>', description: 'new minutes (1 to 240)' },
      { flags: '--position <n>', description: 'new 0-based position in the module' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const body = definedFields({ title: opts.title, minutes: numberOption(opts.minutes, '--minutes'), position: numberOption(opts.position, '--position') });
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --title, --minutes or --position');
      return { kind: 'api', response: await ctx.client.request('PATCH', `/lessons/${seg(id!)}`, body) };
    },
  },
  {
    name: 'lessons publish',
    description: 'Publish a lesson',
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/lessons/${seg(id!)}/publish`) }),
  },
]);
