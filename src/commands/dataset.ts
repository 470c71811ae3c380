import { type CommandResult, defineCommands, parseJsonText, seg, UsageError } from '../cli/command.js';

export const datasetCommands = defineCommands([
  {
    name: 'import',
    description: 'Import a dataset file, or a nested course file: all or nothing; every problem is listed with its path',
    args: [{ name: '<file>', description: "the dataset JSON ('-' for stdin)" }],
    options: [
      { flags: '--replace', description: 'overwrite records whose ids already exist' },
      // #14: as for courses import.
      { flags: '--as-new', description: 'a course file without a course id: make a new course even when one with the same title exists' },
    ],
    handler: async (ctx, [file], opts): Promise<CommandResult> => {
      const text = await ctx.readText(file!);
      const doc = parseJsonText(text, file!) as Record<string, unknown> | null;
      // A nested course file (docs/course-format.md) goes to the course import.
      if (doc && typeof doc === 'object' && 'coursebookCourse' in doc) {
        // A course file only creates a course; it updates one by id elsewhere (docs/course-format.md).
        if (opts.replace) {
          const id = (doc.course as { id?: unknown } | undefined)?.id;
          const course = typeof id === 'string' ? id : 'COURSE';
          throw new UsageError(
            `--replace is for datasets: ${file} is a course file, which import only creates a course from. To update course ${course} from it: coursebook api PUT /courses/${seg(course)}/content --file ${file} (coursebook courses push ${course} --to PROFILE sends a store's copy to another store)`,
          );
        }
        return { kind: 'api', response: await ctx.client.request('POST', `/courses/import${opts.asNew ? '?asNew=true' : ''}`, text) };
      }
      // Progress, so on a terminal only (a script's stderr carries errors and nothing else).
      if (ctx.io.stderr.isTTY === true) ctx.note(`importing ${file}...`);
      const response = await ctx.client.request<Record<string, number>>('POST', `/import${opts.replace ? '?replace=true' : ''}`, text);
      return {
        kind: 'api',
        response,
        rows: (d) =>
          Object.entries(d as Record<string, number>)
            .filter(([, n]) => n > 0)
            .map(([collection, records]) => ({ collection, records })),
      };
    },
  },
  {
    name: 'dump',
    description: 'Write the whole store as a dataset document (tokens as tokenSha256)',
    options: [{ flags: '--out <file>', description: 'write to this file instead of stdout' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const response = await ctx.client.request('GET', '/dump');
      if (opts.out) {
        await ctx.writeFile(String(opts.out), response.text);
        return { kind: 'none', note: `wrote ${String(opts.out)}` };
      }
      return { kind: 'text', text: response.text, json: response.text };
    },
  },
]);
