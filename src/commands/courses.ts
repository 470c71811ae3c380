import { type CommandResult, defineCommands, numberOption, parseJsonText, seg, UsageError } from '../cli/command.js';
import { definedFields } from '../runtime/objects.js';

const courseColumns = [
  { key: 'id', header: 'ID' },
  { key: 'title', header: 'TITLE' },
  { key: 'status', header: 'STATUS' },
  { key: 'updatedAt', header: 'UPDATED' },
];
const moduleColumns = [
  { key: 'position', header: '#' },
  { key: 'id', header: 'ID' },
  { key: 'title', header: 'TITLE' },
  { key: 'objective', header: 'OBJECTIVE' },
];

export const coursesCommands = defineCommands([
  {
    name: 'courses list',
    description: "List courses (admins see all; others the courses they're enrolled in)",
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', '/courses'), columns: courseColumns }),
  },
  {
    name: 'courses show',
    description: 'Show a course',
    args: [{ name: '<courseId>', description: 'course id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/courses/${seg(id!)}`) }),
  },
  {
    name: 'courses create',
    fieldFlags: { objectives: '--objective' },
    description: 'Create a course (prompts for a missing title on a TTY)',
    options: [
      { flags: '--title <title>', description: 'course title' },
      { flags: '--description <text>', description: 'what the course is for and how it is organised' },
      { flags: '--objective <text...>', description: 'a course objective (repeatable)' },
      { flags: '--id <id>', description: 'use this id instead of a generated one' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const title = await ctx.require(opts.title as string | undefined, '--title', 'Course title?', 'title');
      const body = definedFields({ title, description: opts.description, objectives: opts.objective, id: opts.id });
      return { kind: 'api', response: await ctx.client.request('POST', '/courses', body) };
    },
  },
  {
    name: 'courses update',
    fieldFlags: { objectives: '--objective' },
    description: 'Change a course (only the given fields)',
    args: [{ name: '<courseId>', description: 'course id' }],
    options: [
      { flags: '--title <title>', description: 'new title' },
      { flags: '--description <text>', description: 'new description' },
      { flags: '--objective <text...>', description: 'replace the objectives (repeatable)' },
      { flags: '--rubric <rubricId>', description: 'the standards rubric readiness uses' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const body = definedFields({ title: opts.title, description: opts.description, objectives: opts.objective, rubricId: opts.rubric });
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --title, --description, --objective or --rubric');
      return { kind: 'api', response: await ctx.client.request('PATCH', `/courses/${seg(id!)}`, body) };
    },
  },
  {
    name: 'courses import',
    description: 'Create a course from a nested course file (see docs/course-format.md); all or nothing',
    args: [{ name: '<file>', description: "the course file ('-' for stdin)" }],
    // #14: a file without a course id is refused when a course with its title exists, unless --as-new.
    options: [{ flags: '--as-new', description: 'make a new course even when one with the same title exists (a file without a course id)' }],
    handler: async (ctx, [file], opts): Promise<CommandResult> => {
      const text = await ctx.readText(file!);
      parseJsonText(text, file!);
      return { kind: 'api', response: await ctx.client.request('POST', `/courses/import${opts.asNew ? '?asNew=true' : ''}`, text) };
    },
  },
  {
    name: 'courses export',
    description: 'Write a course as one nested course file (to stdout, or --out FILE)',
    args: [{ name: '<courseId>', description: 'course id' }],
    options: [{ flags: '--out <file>', description: 'write to this file' }],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const response = await ctx.client.request('GET', `/courses/${seg(id!)}/export`);
      const text = `${JSON.stringify(response.data, null, 2)}\n`;
      if (opts.out) {
        await ctx.writeFile(String(opts.out), text);
        return { kind: 'none', note: `wrote ${String(opts.out)}` };
      }
      return { kind: 'text', text, json: response.text };
    },
  },
  {
    name: 'modules list',
    description: "List a course's modules in order",
    parents: [{ kind: 'course', positional: true }],
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/courses/${seg(await ctx.parent('course'))}/modules`),
      columns: moduleColumns,
    }),
  },
  {
    name: 'modules show',
    description: 'Show a module',
    args: [{ name: '<moduleId>', description: 'module id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/modules/${seg(id!)}`) }),
  },
  {
    name: 'modules create',
    description: 'Add a module to a course (last, unless --position)',
    parents: [{ kind: 'course' }],
    options: [
      { flags: '--title <title>', description: 'module title (1 to 200 characters)' },
      { flags: '--objective <text>', description: 'what learners will be able to do' },
      { flags: '--position <n>', description: '0-based position; later modules shift down' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const title = await ctx.require(opts.title as string | undefined, '--title', 'Module title?', 'title');
      const body = definedFields({ title, objective: opts.objective, position: numberOption(opts.position, '--position') });
      return { kind: 'api', response: await ctx.client.request('POST', `/courses/${seg(course)}/modules`, body) };
    },
  },
  {
    name: 'modules update',
    description: 'Change a module (only the given fields); a new --position shifts its siblings',
    args: [{ name: '<moduleId>', description: 'module id' }],
    options: [
      { flags: '--title <title>', description: 'new title' },
      { flags: '--objective <text>', description: 'new objective' },
      { flags: '--position <n>', description: 'new 0-based position' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const body = definedFields({ title: opts.title, objective: opts.objective, position: numberOption(opts.position, '--position') });
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --title, --objective or --position');
      return { kind: 'api', response: await ctx.client.request('PATCH', `/modules/${seg(id!)}`, body) };
    },
  },
]);
