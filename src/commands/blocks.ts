import { type CommandContext, type CommandResult, defineCommands, isPlainObject, numberOption, parseJsonText, seg, UsageError } from '../cli/command.js';

const columns = [
  { key: 'position', header: '#' },
  { key: 'id', header: 'ID' },
  { key: 'type', header: 'TYPE' },
  {
    key: 'text',
    header: 'CONTENT',
    format: (_v: unknown, r: Record<string, unknown>) =>
      String(r.text ?? r.url ?? (Array.isArray(r.items) ? (r.items as string[]).join(' / ') : '')).slice(0, 60),
  },
  { key: 'aiState', header: 'AI', format: (v: unknown, r: Record<string, unknown>) => (r.origin === 'ai' ? String(v ?? 'ai') : '') },
];

const contentOptions = [
  { flags: '--file <file>', description: 'block content as JSON (\'-\' for stdin), e.g. {"type":"heading","level":2,"text":"Intro"}' },
  { flags: '--type <type>', description: 'heading, paragraph, list, image, video, link, code, quote, callout, embed or divider' },
  { flags: '--text <text>', description: 'text (heading, paragraph, link, code, quote, callout)' },
  { flags: '--level <n>', description: 'heading level 1 to 6' },
  { flags: '--url <url>', description: 'url (image, video, link, embed)' },
  { flags: '--alt <text>', description: 'image alt text' },
  { flags: '--decorative', description: 'image is decorative' },
  { flags: '--captions <url>', description: 'video captions track' },
  { flags: '--title <title>', description: 'embed title' },
  { flags: '--privacy-url <url>', description: 'embed privacy statement' },
  { flags: '--item <text...>', description: 'list items (repeatable)' },
  { flags: '--ordered', description: 'numbered list' },
  { flags: '--language <lang>', description: 'code language' },
  { flags: '--tone <tone>', description: 'callout tone: info, warning or success' },
  { flags: '--cite <text>', description: 'quote source' },
];

/** Block content from --file, or from flags (unknown combinations are left to the API to judge). */
async function contentFrom(ctx: CommandContext, opts: Record<string, unknown>): Promise<unknown> {
  if (opts.file !== undefined) return parseJsonText(await ctx.readText(String(opts.file)), String(opts.file));
  if (opts.type === undefined) throw new UsageError('give --file or --type (with its fields)');
  const c: Record<string, unknown> = { type: opts.type };
  const set = (key: string, value: unknown) => {
    if (value !== undefined) c[key] = value;
  };
  set('text', opts.text);
  set('level', numberOption(opts.level, '--level'));
  set('url', opts.url);
  set('alt', opts.alt);
  if (opts.decorative) c.decorative = true;
  set('captions', opts.captions);
  set('title', opts.title);
  set('privacyUrl', opts.privacyUrl);
  set('items', opts.item);
  if (opts.ordered) c.ordered = true;
  set('language', opts.language);
  set('tone', opts.tone);
  set('cite', opts.cite);
  return c;
}

export const blocksCommands = defineCommands([
  {
    name: 'blocks list',
    description: "A lesson's blocks in order",
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/lessons/${seg(id!)}/blocks`), columns }),
  },
  {
    name: 'blocks add',
    description: 'Add a block to a lesson (last, unless --position)',
    args: [{ name: '<lessonId>', description: 'lesson id' }],
    options: [...contentOptions, { flags: '--position <n>', description: '0-based position; later blocks shift' }],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const content = await contentFrom(ctx, opts);
      const position = numberOption(opts.position, '--position');
      // Only an object can take a position; anything else goes as it is, for the API to refuse.
      const body = position !== undefined && isPlainObject(content) ? { ...content, position } : content;
      return { kind: 'api', response: await ctx.client.request('POST', `/lessons/${seg(id!)}/blocks`, body) };
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
