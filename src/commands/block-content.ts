/**
 * One block's content from the command line, for every command that makes one: from
 * --file, from flags (--type and the fields it takes), or asked on a terminal. `blocks
 * create|update` use it for a lesson's blocks, `assignments instructions create` for an
 * assignment's instruction blocks (blocks are one kind: the same content, the same ids).
 * Only the API judges the content; its problems are named by these flags.
 */
import { type CommandContext, numberOption, parseJsonText, UsageError } from '../cli/command.js';
import type { BlockContentValue } from '../schemas/content.js';

/** A list of blocks as a table: a lesson's (blocks list) or an assignment's instructions. */
export const blockColumns = [
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

/** The flags that make one block's content (blocks create|update, assignments instructions create). */
export const contentOptions = [
  { flags: '--file <file>', description: 'block content as JSON (\'-\' for stdin), e.g. {"type":"heading","level":2,"text":"Intro"}' },
  { flags: '--type <type>', description: 'heading, paragraph, list, image, video, link, code, quote, callout, embed or divider' },
  { flags: '--text <text>', description: 'text (heading, paragraph, link, code, quote, callout)' },
  { flags: '--level <n>', description: 'heading level 1 to 6' },
  { flags: '--url <url>', description: 'url (image, video, link, embed)' },
  { flags: '--alt <text>', description: 'image alt text' },
  { flags: '--decorative', description: 'image is decorative' },
  { flags: '--captions <url|text>', description: 'video captions: a captions file URL, or the captions text itself' },
  { flags: '--duration <seconds>', description: 'video length in whole seconds' },
  { flags: '--title <title>', description: 'embed title' },
  { flags: '--privacy-url <url>', description: 'embed privacy statement' },
  { flags: '--item <text...>', description: 'list items (repeatable)' },
  { flags: '--ordered', description: 'numbered list' },
  { flags: '--language <lang>', description: 'code language' },
  { flags: '--tone <tone>', description: 'callout tone: info, warning or success' },
  { flags: '--cite <text>', description: 'quote source' },
];

type BlockType = BlockContentValue['type'];

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
  const [{ asNumber }, { validateBlockField }, { BLOCK_TYPES }] = await Promise.all([
    import('../cli/answer-checks.js'),
    import('../cli/prompt.js'),
    import('../schemas/content.js'),
  ]);
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

/** The content fields whose flags have other names (the rest are named like their flags). */
export const CONTENT_FIELD_FLAGS = { items: '--item', durationSeconds: '--duration' };

/** Block content from --file, or from flags (unknown combinations are left to the API to judge), or asked on a terminal. */
export async function contentFrom(ctx: CommandContext, opts: Record<string, unknown>): Promise<unknown> {
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
  set('durationSeconds', numberOption(opts.duration, '--duration'));
  set('title', opts.title);
  set('privacyUrl', opts.privacyUrl);
  set('items', opts.item);
  if (opts.ordered) c.ordered = true;
  set('language', opts.language);
  set('tone', opts.tone);
  set('cite', opts.cite);
  return c;
}
