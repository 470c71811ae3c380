import { type CommandResult, defineCommands, isPlainObject, numberOption, seg, UsageError } from '../cli/command.js';
import { CONTENT_FIELD_FLAGS, blockColumns as columns, contentFrom, contentOptions } from './block-content.js';

export const blocksCommands = defineCommands([
  {
    name: 'blocks list',
    description: "A lesson's blocks in order",
    parents: [{ kind: 'lesson', positional: true }],
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/lessons/${seg(await ctx.parent('lesson'))}/blocks`),
      columns,
    }),
  },
  {
    name: 'blocks create',
    aliases: ['add'],
    description: 'Add a block to a lesson (last, unless --position); on a terminal without --file or --type, asks for it',
    parents: [{ kind: 'lesson', positional: true }],
    options: [...contentOptions, { flags: '--position <n>', description: '0-based position; later blocks shift' }],
    fieldFlags: CONTENT_FIELD_FLAGS,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const lesson = await ctx.parent('lesson');
      const content = await contentFrom(ctx, opts);
      const position = numberOption(opts.position, '--position');
      // Only an object can take a position; anything else goes as it is, for the API to refuse.
      const body = position !== undefined && isPlainObject(content) ? { ...content, position } : content;
      return { kind: 'api', response: await ctx.client.request('POST', `/lessons/${seg(lesson)}/blocks`, body) };
    },
  },
  {
    name: 'blocks show',
    description: 'Show a block',
    args: [{ name: '<blockId>', description: 'block id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/blocks/${seg(id!)}`) }),
  },
  {
    name: 'blocks update',
    description: "Replace a block's content (an edit by a person: the old content is kept in previous)",
    args: [{ name: '<blockId>', description: 'block id' }],
    options: contentOptions,
    fieldFlags: CONTENT_FIELD_FLAGS,
    handler: async (ctx, [id], opts): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('PATCH', `/blocks/${seg(id!)}`, await contentFrom(ctx, opts)),
    }),
  },
  {
    name: 'blocks move',
    description: 'Move a block to a 0-based position (in another lesson of the course with --lesson)',
    args: [
      { name: '<blockId>', description: 'block id' },
      { name: '<position>', description: 'new position' },
    ],
    // #14: authors move a block to another lesson.
    options: [{ flags: '--lesson <lessonId>', description: 'move it into this lesson of the same course' }],
    handler: async (ctx, [id, position], opts): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('POST', `/blocks/${seg(id!)}/move`, {
        position: numberOption(position, 'position'),
        ...(opts.lesson === undefined ? {} : { lessonId: String(opts.lesson) }),
      }),
    }),
  },
  {
    name: 'blocks delete',
    description: 'Delete a block (asks first on a terminal; --yes to skip)',
    args: [{ name: '<blockId>', description: 'block id' }],
    options: [{ flags: '--yes', description: 'do not ask' }],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      if (!opts.yes) {
        if (!ctx.interactive) throw new UsageError('deleting needs --yes when not interactive');
        if (!(await ctx.prompt.confirm(`Delete block ${id}?`, false))) return { kind: 'none', note: 'nothing deleted' };
      }
      return { kind: 'api', response: await ctx.client.request('DELETE', `/blocks/${seg(id!)}`) };
    },
  },
  {
    name: 'blocks review',
    description: 'Accept or reject an AI draft block',
    args: [{ name: '<blockId>', description: 'block id' }],
    options: [
      { flags: '--accept', description: 'keep the AI content' },
      { flags: '--reject', description: 'restore the previous content (or remove a new block)' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      if (opts.accept && opts.reject) throw new UsageError('give --accept or --reject, not both');
      let decision = opts.accept ? 'accept' : opts.reject ? 'reject' : undefined;
      if (!decision) {
        if (!ctx.interactive) throw new UsageError('missing --accept or --reject');
        decision = await ctx.prompt.select('Decision?', [
          { name: 'accept', value: 'accept' },
          { name: 'reject', value: 'reject' },
        ]);
      }
      return { kind: 'api', response: await ctx.client.request('POST', `/blocks/${seg(id!)}/review`, { decision }) };
    },
  },
]);
