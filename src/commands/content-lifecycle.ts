/**
 * The content lifecycle an author expects (#14): unpublish a course or a lesson, publish
 * and unpublish a module, delete a module, lesson or assignment. Deletes say what goes and
 * ask first on a terminal (--yes otherwise); the service refuses, naming them, anything
 * that would delete or hide an assignment with submissions.
 */
import { type CommandContext, type CommandResult, defineCommands, seg, UsageError } from '../cli/command.js';

/** Ask before deleting (or require --yes off a terminal); true when it may go ahead. */
async function confirmDelete(ctx: CommandContext, yes: unknown, what: () => Promise<string>): Promise<boolean> {
  if (yes) return true;
  if (!ctx.interactive) throw new UsageError('deleting needs --yes when not interactive');
  return ctx.prompt.confirm(`Delete ${await what()}?`, false);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const contentLifecycleCommands = defineCommands([
  {
    name: 'courses unpublish',
    description: 'Return a course to draft (publishing it again passes the readiness gate again)',
    args: [{ name: '<courseId>', description: 'course id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/courses/${seg(id!)}/unpublish`) }),
  },
  {
    name: 'modules publish',
    description: 'Publish a module: students see it and its published lessons and assignments',
    args: [{ name: '<moduleId>', description: 'module id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/modules/${seg(id!)}/publish`) }),
  },
  {
    name: 'modules unpublish',
    description: 'Return a module to draft: students see neither it nor anything in it (refused while its assignments have submissions)',
    args: [{ name: '<moduleId>', description: 'module id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/modules/${seg(id!)}/unpublish`) }),
  },
  {
    name: 'modules delete',
    description: 'Delete a module with its lessons, blocks and assignments (asks first on a terminal; --yes to skip)',
    args: [{ name: '<moduleId>', description: 'module id' }],
    options: [{ flags: '--yes', description: 'do not ask' }],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const go = await confirmDelete(ctx, opts.yes, async () => {
        const m = (await ctx.client.request<{ courseId: string; title: string }>('GET', `/modules/${seg(id!)}`)).data;
        const lessons = (await ctx.client.request<unknown[]>('GET', `/modules/${seg(id!)}/lessons`)).data.length;
        const assignments = (await ctx.client.request<{ moduleId: string }[]>('GET', `/courses/${seg(m.courseId)}/assignments`)).data.filter(
          (a) => a.moduleId === id,
        ).length;
        return `module ${id} ${JSON.stringify(m.title)} with ${plural(lessons, 'lesson')} and ${plural(assignments, 'assignment')}`;
      });
      if (!go) return { kind: 'none', note: 'nothing deleted' };
      return { kind: 'api', response: await ctx.client.request('DELETE', `/modules/${seg(id!)}`) };
    },
  },
  {
    name: 'lessons unpublish',
    description: 'Return a lesson to draft: students no longer see it or its blocks',
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/lessons/${seg(id!)}/unpublish`) }),
  },
  {
    name: 'lessons delete',
    description: 'Delete a lesson and its blocks (asks first on a terminal; --yes to skip)',
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    options: [{ flags: '--yes', description: 'do not ask' }],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const go = await confirmDelete(ctx, opts.yes, async () => {
        const l = (await ctx.client.request<{ title: string }>('GET', `/lessons/${seg(id!)}`)).data;
        const blocks = (await ctx.client.request<unknown[]>('GET', `/lessons/${seg(id!)}/blocks`)).data.length;
        return `lesson ${id} ${JSON.stringify(l.title)} with ${plural(blocks, 'block')}`;
      });
      if (!go) return { kind: 'none', note: 'nothing deleted' };
      return { kind: 'api', response: await ctx.client.request('DELETE', `/lessons/${seg(id!)}`) };
    },
  },
  {
    name: 'assignments delete',
    description: 'Delete an assignment and its instructions (refused while it has submissions; asks first on a terminal; --yes to skip)',
    args: [{ name: '<assignmentId>', description: 'assignment id' }],
    options: [{ flags: '--yes', description: 'do not ask' }],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const go = await confirmDelete(ctx, opts.yes, async () => {
        const a = (await ctx.client.request<{ title: string }>('GET', `/assignments/${seg(id!)}`)).data;
        return `assignment ${id} ${JSON.stringify(a.title)}`;
      });
      if (!go) return { kind: 'none', note: 'nothing deleted' };
      return { kind: 'api', response: await ctx.client.request('DELETE', `/assignments/${seg(id!)}`) };
    },
  },
]);
