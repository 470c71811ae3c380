import { type CommandContext, type CommandResult, defineCommands, isPlainObject, numberOption, parseJsonText, seg, UsageError } from '../cli/command.js';
import { BLOCK_TYPES } from '../schemas/content.js';

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

type BlockType = (typeof BLOCK_TYPES)[number];

/** A field a terminal asks for: typed text (checked with the block schema), or a choice. */
interface Question {
  field: string;
  question: string;
  choices?: string[];
  number?: boolean;
}

/** What a terminal asks for each block type: the fields it needs, and the optional ones worth a word. */
const QUESTIONS: Record<BlockType, Question[]> = {
  heading: [
    { field: 'level', question: 'Heading level?', choices: ['1', '2', '3', '4', '5', '6'], number: true },
    { field: 'text', question: 'Heading text?' },
  ],
  paragraph: [{ field: 'text', question: 'Text?' }],
  list: [],
  image: [
    { field: 'url', question: 'Image URL?' },
    { field: 'alt', question: 'Alt text (empty: a decorative image)?' },
  ],
  video: [{ field: 'url', question: 'Video URL (http or https)?' }],
  link: [
    { field: 'url', question: 'Link URL (http or https)?' },
    { field: 'text', question: 'Link text?' },
  ],
  code: [
    { field: 'language', question: 'Language (empty: none)?' },
    { field: 'text', question: 'Code?' },
  ],
  quote: [{ field: 'text', question: 'Quote?' }],
  callout: [
    { field: 'tone', question: 'Tone?', choices: ['info', 'warning', 'success'] },
    { field: 'text', question: 'Text?' },
  ],
  embed: [
    { field: 'url', question: 'Embed URL (http or https)?' },
    { field: 'title', question: 'Embed title?' },
  ],
  divider: [],
};

/** On a terminal without --file or --type: the type from a list, then its fields, each checked as it is typed. */
async function askContent(ctx: CommandContext): Promise<Record<string, unknown>> {
  // The checks and the block schema load only now that prompts are shown.
  const { asNumber, validateBlockField } = await import('../cli/prompt.js');
  const type = await ctx.prompt.select(
    'Block type?',
    BLOCK_TYPES.map((t) => ({ name: t, value: t })),
  );
  const block: Record<string, unknown> = { type };
  for (const q of QUESTIONS[type]) {
    const parse = q.number ? asNumber : (text: string) => text;
    const answer = q.choices
      ? await ctx.prompt.select(
          q.question,
          q.choices.map((c) => ({ name: c, value: c })),
        )
      : await ctx.prompt.input(q.question, { validate: validateBlockField(block, q.field, parse) });
    block[q.field] = parse(answer);
  }
  if (type === 'image') block.decorative = block.alt === '';
  if (type === 'list') {
    const items: string[] = [];
    for (;;) {
      const first = items.length === 0;
      const item = await ctx.prompt.input(`Item ${items.length + 1}${first ? '' : ' (empty to finish)'}?`, {
        validate: (answer) => (!first && answer === '' ? true : validateBlockField(block, 'items', (text) => [text])(answer)),
      });
      if (item === '') break;
      items.push(item);
    }
    block.items = items;
  }
  return block;
}

/** The content field whose flag has another name (the rest are named like their flags). */
const CONTENT_FIELD_FLAGS = { items: '--item' };

/** Block content from --file, or from flags (unknown combinations are left to the API to judge), or asked on a terminal. */
async function contentFrom(ctx: CommandContext, opts: Record<string, unknown>): Promise<unknown> {
  if (opts.file !== undefined) return parseJsonText(await ctx.readText(String(opts.file)), String(opts.file));
  if (opts.type === undefined) {
    if (!ctx.interactive) throw new UsageError('give --file or --type (with its fields)');
    return askContent(ctx);
  }
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
