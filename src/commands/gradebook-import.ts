/**
 * gradebook import FILE.csv --course C (issue #13): scores edited in a spreadsheet back
 * into the gradebook. Reads the export's own layout, asks the API for the plan (a dry
 * run), shows it, and after confirmation (or --yes) applies exactly that plan in one
 * request; --dry-run stops after showing it.
 */
import { type ApiResponse, type CommandContext, type CommandResult, defineCommands, seg, UsageError } from '../cli/command.js';
import { renderTable } from '../cli/render.js';
import { AppError, type Problem } from '../errors.js';
import type { GradesImportResultValue } from '../schemas/gradebook.js';

type Result = GradesImportResultValue;
type Change = Result['changes'][number];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const shown = (v: number | null) => (v === null ? '' : String(v));

/** What a change does beyond the number, in words. */
function note(c: Change): string {
  const notes: string[] = [];
  if (c.action === 'create') notes.push('new submission, graded');
  if (c.action === 'grade') notes.push('grades the submission');
  if (c.late) {
    notes.push(
      c.status === 'missing'
        ? `late ${c.late.periods} periods, past the cap: counts as missing (0)`
        : `late ${plural(c.late.periods, 'period')}: ${c.to} is before the deduction, the export will show ${shown(c.after)}`,
    );
  }
  return notes.join('; ');
}

const columns = [
  { key: 'row', header: 'ROW' },
  { key: 'student', header: 'STUDENT' },
  { key: 'item', header: 'ITEM' },
  { key: 'from', header: 'OLD' },
  { key: 'to', header: 'NEW' },
  { key: 'note', header: 'NOTE' },
];

const planRows = (result: Result) =>
  result.changes.map((c) => ({
    row: c.row ?? '',
    student: `${c.studentName} (${c.studentId})`,
    item: `${c.itemTitle} (${c.itemId})`,
    from: shown(c.from),
    to: String(c.to),
    note: note(c),
  }));

function summary(result: Result, done: 'would change' | 'changed'): string {
  const created = result.changes.filter((c) => c.action === 'create').length;
  return (
    `${plural(result.changes.length, 'score')} ${done}` +
    `${created > 0 ? ` (${plural(created, 'new submission')})` : ''}, ${result.unchanged} unchanged, ${result.blank} blank`
  );
}

/** Problems sorted as a person reads the file: columns first, then rows, then cells left to right. */
function byPlace(problems: Problem[]): Problem[] {
  const key = (p: Problem) => {
    const item = /^items\[(\d+)\]/.exec(p.path);
    if (item) return [0, Number(item[1]), 0];
    const row = /^rows\[(\d+)\](?:\.scores\[(\d+)\])?/.exec(p.path);
    if (row) return [1, Number(row[1]), row[2] === undefined ? -1 : Number(row[2])];
    return [2, 0, 0];
  };
  return [...problems].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
}

/**
 * Each of the course's assignments' points, by id (what the file's Points Possible row is
 * checked against); null when the caller may import grades but not read the course's
 * content (a token scoped to the gradebook), which leaves the row unchecked, as it is
 * unimported, with a note.
 */
async function coursePoints(ctx: CommandContext, courseId: string): Promise<Map<string, number> | null> {
  try {
    const { data } = await ctx.client.request<{ id: string; points: number }[]>('GET', `/courses/${seg(courseId)}/assignments`);
    return new Map(data.map((a) => [a.id, a.points]));
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'forbidden') throw err;
    ctx.note(`note: the Points Possible row was not checked (${err.message}); it is not imported either way`);
    return null;
  }
}

/** The plan (a dry run); problems of the file and of the API's checks are reported together. */
async function planImport(ctx: CommandContext, path: string, body: object, fileProblems: Problem[], file: string): Promise<ApiResponse<Result>> {
  let apiProblems: Problem[] = [];
  let response: ApiResponse<Result> | null = null;
  try {
    response = await ctx.client.request<Result>('POST', path, { ...body, dryRun: true });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'invalid' || !Array.isArray(err.details)) throw err;
    apiProblems = err.details as Problem[];
  }
  const problems = byPlace([...fileProblems, ...apiProblems]);
  if (problems.length > 0 || response === null) {
    throw new AppError('invalid', `${plural(problems.length, 'problem')} in ${file}; nothing was written.`, problems);
  }
  return response;
}

export const gradebookImportCommands = defineCommands([
  {
    name: 'gradebook import',
    description: "Scores edited in a spreadsheet back into the gradebook: the export's layout, a plan, then all or nothing",
    args: [{ name: '<file>', description: "a CSV in the export's layout ('-' for stdin)" }],
    parents: [{ kind: 'course' }],
    options: [
      { flags: '--dry-run', description: 'show the plan and change nothing' },
      { flags: '--yes', description: 'apply without asking (required when not interactive)' },
    ],
    help:
      'Item columns are headed "<title> (<id>)" and rows keyed by "Student ID", as the export writes them; other columns are ignored.\n' +
      "The Points Possible row is not imported: a cell there that no longer says the item's points is refused, so change points with `assignments update`.\n" +
      'A cell changes only where it differs from what the export prints now; a blank cell changes nothing.\n' +
      'A changed score is stored as entered, before any late deduction; work never submitted gets a graded submission.',
    handler: async (ctx, [file], opts): Promise<CommandResult> => {
      const courseId = await ctx.parent('course');
      // The CSV reader (csv-parse) loads with this command only, not with the rest of the gradebook group.
      const { pointsPossibleProblems, readGradesSheet } = await import('../domain/grading/import-csv.js');
      const sheet = readGradesSheet(await ctx.readText(file!));
      const fileLevel = sheet.problems.filter((p) => p.path === '(file)');
      if (sheet.items.length === 0 && fileLevel.length === 0) {
        throw new UsageError(`${file} has no item columns: the export heads them "<title> (<id>)", e.g. "Quiz 1 (asg_01)"`);
      }
      const path = `/courses/${seg(courseId)}/gradebook/import`;
      const body = { items: sheet.items, rows: sheet.rows };
      const points = sheet.pointsPossible === null ? null : await coursePoints(ctx, courseId);
      const pointsProblems = points === null ? [] : pointsPossibleProblems(sheet, points);
      const response = await planImport(ctx, path, body, [...sheet.problems, ...pointsProblems], file!);
      const result = response.data;
      if (result.changes.length === 0) {
        ctx.note(`nothing to import: ${summary(result, 'would change')}`);
        return { kind: 'text', text: '', json: response.text };
      }
      const rows = planRows(result);
      if (opts.dryRun) {
        ctx.note(`${summary(result, 'would change')}; nothing was written (dry run)`);
        return { kind: 'api', response, rows: () => rows, columns };
      }
      if (!opts.yes) {
        if (!ctx.interactive) throw new UsageError(`importing grades needs --yes when not interactive (${summary(result, 'would change')}; see --dry-run)`);
        ctx.note(renderTable(rows, columns, { json: false, tty: true, color: false }).trimEnd());
        if (!(await ctx.prompt.confirm(`Apply ${plural(result.changes.length, 'change')} to ${courseId}?`, false)))
          return { kind: 'none', note: 'nothing changed' };
      }
      // Exactly the plan shown: if the gradebook moved on meanwhile, the API refuses (conflict).
      const applied = await ctx.client.request<Result>('POST', path, { ...body, dryRun: false, expectedPlan: result.plan });
      ctx.note(summary(applied.data, 'changed'));
      // Confirmed on a terminal: the plan is on the screen already.
      return opts.yes ? { kind: 'api', response: applied, rows: () => planRows(applied.data), columns } : { kind: 'text', text: '', json: applied.text };
    },
  },
]);
