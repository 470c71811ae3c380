/**
 * gradebook categories list|create|update|delete (issue #13; create and delete were add and
 * remove, still accepted): a course's categories without touching the setup JSON. Create
 * and update change the setup read at its version and PUT it back (a concurrent save is a
 * conflict); delete is one API operation that also moves the category's assignments
 * (--move-to) or refuses.
 */
import { type CommandContext, type CommandResult, defineCommands, numberOption, seg, UsageError } from '../cli/command.js';
import { categoryIdFromName, nextCategoryPosition, orderedCategories, placeCategory } from '../domain/grading/category-rules.js';
import { AppError } from '../errors.js';
import type { AssignmentValue } from '../schemas/content.js';
import { dropText, expectedVersionOption, explain, readSetup, SETUP_DOC, type Setup, saveSetup, weightsNote } from './gradebook-setup-change.js';

type Category = Setup['categories'][number];

/** A category's flags; `create` says what each defaults to, `update` changes only those given. */
const categoryOptions = (forCreate: boolean) => {
  const byDefault = (text: string) => (forCreate ? ` (default ${text})` : '');
  return [
    { flags: '--name <name>', description: 'the name shown in the gradebook and the export (1 to 120 characters)' },
    { flags: '--weight <percent>', description: `weight in weighted mode, 0 to 100${byDefault('0')}` },
    { flags: '--drop-lowest <n>', description: `drop each student's n lowest scores${byDefault('0')}` },
    { flags: '--drop-highest <n>', description: `drop each student's n highest scores${byDefault('0')}` },
    { flags: '--keep-at-least <n>', description: `never drop below n counted items${byDefault('1')}` },
    { flags: '--late', description: `the late policy applies to its items${forCreate ? ' (the default)' : ''}` },
    { flags: '--no-late', description: 'the late policy does not apply to its items' },
    { flags: '--position <n>', description: `0-based place among the categories (the others move to make room)${forCreate ? '; default: last' : ''}` },
  ];
};

/** What the user typed, by the setup path it lands on (categories[i].<field>). */
const CATEGORY_FLAGS: Record<string, string> = {
  id: '--id',
  name: '--name',
  weight: '--weight',
  position: '--position',
  'drop.lowest': '--drop-lowest',
  'drop.highest': '--drop-highest',
  'drop.keepAtLeast': '--keep-at-least',
  lateApplies: '--late',
};

const flagsOfCategory = (index: number) => (path: string) => {
  const m = /^categories\[(\d+)\]\.(.+)$/.exec(path);
  return m && Number(m[1]) === index ? CATEGORY_FLAGS[m[2]!] : undefined;
};

const columns = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'position', header: 'POSITION' },
  { key: 'weight', header: 'WEIGHT' },
  { key: 'drop', header: 'DROPS' },
  { key: 'late', header: 'LATE' },
];

const rowsOf = (setup: Setup, items?: Map<string, number>) =>
  orderedCategories(setup.categories).map((c) => ({
    id: c.id,
    name: c.name,
    position: c.position,
    weight: c.weight,
    drop: dropText(c.drop),
    late: c.lateApplies ? 'applies' : 'no',
    ...(items ? { items: items.get(c.id) ?? 0 } : {}),
  }));

const integer = (value: unknown, flag: string) => numberOption(value, flag);

/** The category fields given as flags (undefined: not given). */
function categoryFields(opts: Record<string, unknown>) {
  return {
    name: opts.name as string | undefined,
    weight: numberOption(opts.weight, '--weight'),
    lowest: integer(opts.dropLowest, '--drop-lowest'),
    highest: integer(opts.dropHighest, '--drop-highest'),
    keepAtLeast: integer(opts.keepAtLeast, '--keep-at-least'),
    lateApplies: opts.late as boolean | undefined,
    position: integer(opts.position, '--position'),
  };
}

function withFields(c: Category, f: ReturnType<typeof categoryFields>): Category {
  return {
    ...c,
    ...(f.name !== undefined ? { name: f.name } : {}),
    ...(f.weight !== undefined ? { weight: f.weight } : {}),
    ...(f.lateApplies !== undefined ? { lateApplies: f.lateApplies } : {}),
    drop: {
      lowest: f.lowest ?? c.drop.lowest,
      highest: f.highest ?? c.drop.highest,
      keepAtLeast: f.keepAtLeast ?? c.drop.keepAtLeast,
    },
  };
}

/** The saved setup as the categories table; --json prints the API's setup. */
function saved(ctx: CommandContext, response: Awaited<ReturnType<typeof saveSetup>>, note?: string): CommandResult {
  const weights = weightsNote(response.data);
  for (const line of [note, weights]) if (line) ctx.note(line);
  return { kind: 'api', response, rows: (d) => rowsOf(d as Setup), columns };
}

async function assignmentsOf(ctx: CommandContext, courseId: string): Promise<AssignmentValue[]> {
  return (await ctx.client.request<AssignmentValue[]>('GET', `/courses/${seg(courseId)}/assignments`)).data;
}

export const gradebookCategoriesCommands = defineCommands([
  {
    name: 'gradebook categories list',
    description: "A course's gradebook categories in order, with their weights, drops and assignment counts",
    parents: [{ kind: 'course', positional: true }],
    help: `Every category field, its limits and an example: ${SETUP_DOC}`,
    handler: async (ctx): Promise<CommandResult> => {
      const courseId = await ctx.parent('course');
      const response = await ctx.client.request<Setup>('GET', `/courses/${seg(courseId)}/gradebook/setup`);
      const items = new Map<string, number>();
      for (const a of await assignmentsOf(ctx, courseId)) if (a.categoryId !== null) items.set(a.categoryId, (items.get(a.categoryId) ?? 0) + 1);
      return { kind: 'api', response, rows: (d) => rowsOf(d as Setup, items), columns: [...columns, { key: 'items', header: 'ASSIGNMENTS' }] };
    },
  },
  {
    name: 'gradebook categories create',
    aliases: ['add'],
    description: 'Add a category to a course (its id comes from the name unless --id is given)',
    parents: [{ kind: 'course' }],
    options: [
      { flags: '--id <id>', description: 'the category id (default: made from the name, e.g. quizzes)' },
      ...categoryOptions(true),
      expectedVersionOption,
    ],
    help: `Every category field, its limits and an example: ${SETUP_DOC}`,
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const courseId = await ctx.parent('course');
      const expectedVersion = integer(opts.expectedVersion, '--expected-version');
      const f = categoryFields(opts);
      const setup = await readSetup(ctx, courseId);
      const name = f.name ?? (await ctx.require(undefined, '--name', 'Category name?', 'categoryName'));
      const id = (opts.id as string | undefined) ?? categoryIdFromName(name);
      const taken = setup.categories.find((c) => c.id === id);
      if (taken) throw new UsageError(`the setup already has a category with id ${JSON.stringify(id)} (${taken.name}); give another --id`);
      const added = withFields(
        {
          id,
          courseId,
          name,
          position: nextCategoryPosition(setup.categories),
          weight: 0,
          drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
          lateApplies: true,
        },
        f,
      );
      let categories = [...setup.categories, added];
      if (f.position !== undefined) categories = placeCategory(categories, id, f.position);
      const response = await saveSetup(ctx, courseId, setup, { ...setup, categories }, { expectedVersion, flagOf: flagsOfCategory(categories.length - 1) });
      return saved(ctx, response);
    },
  },
  {
    name: 'gradebook categories update',
    description: 'Change a category (only the given fields)',
    args: [{ name: '<categoryId>', description: 'the category' }],
    parents: [{ kind: 'course' }],
    options: [...categoryOptions(false), expectedVersionOption],
    help: `Every category field, its limits and an example: ${SETUP_DOC}`,
    handler: async (ctx, [categoryId], opts): Promise<CommandResult> => {
      const courseId = await ctx.parent('course');
      const expectedVersion = integer(opts.expectedVersion, '--expected-version');
      const f = categoryFields(opts);
      if (Object.values(f).every((v) => v === undefined)) {
        throw new UsageError(
          'nothing to change: give at least one of --name, --weight, --drop-lowest, --drop-highest, --keep-at-least, --late/--no-late, --position',
        );
      }
      const setup = await readSetup(ctx, courseId);
      const index = setup.categories.findIndex((c) => c.id === categoryId);
      if (index < 0)
        throw new AppError(
          'not-found',
          `Category ${JSON.stringify(categoryId)} is not in the gradebook setup of course ${JSON.stringify(courseId)} (its categories: ${setup.categories.map((c) => c.id).join(', ') || 'none'}).`,
        );
      let categories = setup.categories.map((c, i) => (i === index ? withFields(c, f) : c));
      if (f.position !== undefined) categories = placeCategory(categories, categoryId!, f.position);
      const response = await saveSetup(
        ctx,
        courseId,
        setup,
        { ...setup, categories },
        {
          expectedVersion,
          flagOf: flagsOfCategory(categories.findIndex((c) => c.id === categoryId)),
        },
      );
      return saved(ctx, response);
    },
  },
  {
    name: 'gradebook categories delete',
    aliases: ['remove'],
    description:
      'Remove a category (asks first on a terminal; --yes to skip); one that holds assignments needs --move-to (asked on a terminal), else it is refused',
    args: [{ name: '<categoryId>', description: 'the category' }],
    parents: [{ kind: 'course' }],
    options: [
      { flags: '--move-to <categoryId>', description: "another category: the removed one's assignments (drafts too) and student notes move there" },
      { flags: '--yes', description: 'do not ask (required when not interactive)' },
      expectedVersionOption,
    ],
    handler: async (ctx, [categoryId], opts): Promise<CommandResult> => {
      const courseId = await ctx.parent('course');
      const setup = await readSetup(ctx, courseId);
      const expectedVersion = integer(opts.expectedVersion, '--expected-version') ?? setup.version;
      let moveTo = opts.moveTo as string | undefined;
      const held = (await assignmentsOf(ctx, courseId)).filter((a) => a.categoryId === categoryId);
      const others = orderedCategories(setup.categories).filter((c) => c.id !== categoryId);
      const exists = setup.categories.some((c) => c.id === categoryId);
      // Choosing where the assignments go (or cancel) is the confirmation.
      let confirmed = Boolean(opts.yes);
      if (held.length > 0 && moveTo === undefined && ctx.interactive && exists) {
        if (others.length === 0) throw new UsageError(`${categoryId} is the only category and holds ${held.length} assignment(s); add another category first`);
        const cancel = '\u0000cancel';
        const what = held.length === 1 ? '1 assignment. Move it' : `${held.length} assignments. Move them`;
        moveTo = await ctx.prompt.select(`${categoryId} holds ${what} to which category?`, [
          ...others.map((c) => ({ name: `${c.id} (${c.name})`, value: c.id })),
          { name: 'cancel: remove nothing', value: cancel },
        ]);
        if (moveTo === cancel) return { kind: 'none', note: 'nothing changed' };
        confirmed = true;
      }
      // Asked only of a removal that would go ahead: an unknown category, or one holding
      // assignments with nowhere to move them, is the service's to refuse, with its reason.
      if (!confirmed && exists && (held.length === 0 || moveTo !== undefined)) {
        if (!ctx.interactive) throw new UsageError('removing a category needs --yes when not interactive');
        const moving = held.length === 0 ? '' : ` (its ${held.length === 1 ? 'assignment moves' : `${held.length} assignments move`} to ${moveTo})`;
        if (!(await ctx.prompt.confirm(`Remove category ${categoryId}${moving}?`, false))) return { kind: 'none', note: 'nothing changed' };
      }
      const query = new URLSearchParams({ expectedVersion: String(expectedVersion), ...(moveTo !== undefined ? { moveTo } : {}) });
      let response: Awaited<ReturnType<typeof saveSetup>>;
      try {
        response = await ctx.client.request<Setup>('DELETE', `/courses/${seg(courseId)}/gradebook/categories/${seg(categoryId!)}?${query}`);
      } catch (err) {
        if (err instanceof AppError && err.code === 'conflict' && Array.isArray((err.details as { assignments?: unknown })?.assignments)) {
          // Refused: it holds assignments. Say it in this command's words.
          const n = (err.details as { assignments: string[] }).assignments.length;
          const choices = others.map((c) => c.id).join(', ');
          throw new AppError(
            'conflict',
            `${categoryId} holds ${n} assignment${n === 1 ? '' : 's'}: give --move-to CATEGORY (${choices || 'add another category first'}) to move ${n === 1 ? 'it' : 'them'} there; nothing changed.`,
            err.details,
          );
        }
        // An invalid --move-to is named by flag where the runner shows problems (program.ts byFlag).
        throw explain(err, expectedVersion);
      }
      const moved = held.length > 0 ? `moved ${held.length} assignment${held.length === 1 ? '' : 's'} to ${moveTo}` : undefined;
      return saved(ctx, response, moved);
    },
  },
]);
