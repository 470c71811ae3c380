import { type CommandContext, type CommandResult, defineCommands, numberOption, parseJsonText, seg, UsageError } from '../cli/command.js';

const columns = [
  { key: 'id', header: 'ID' },
  { key: 'studentId', header: 'STUDENT' },
  { key: 'attempt', header: 'TRY' },
  { key: 'state', header: 'STATE' },
  { key: 'submittedAt', header: 'SUBMITTED' },
  {
    key: 'grade',
    header: 'SCORE',
    format: (v: unknown) => (v && typeof v === 'object' && (v as { score: unknown }).score !== null ? String((v as { score: unknown }).score) : ''),
  },
];

/** On a terminal: the one field the assignment's submission type takes, checked as it is typed. */
async function askWork(ctx: CommandContext, assignment: string): Promise<Record<string, string>> {
  const { submissionType } = (await ctx.client.request<{ submissionType: 'text' | 'file' | 'link' }>('GET', `/assignments/${seg(assignment)}`)).data;
  if (submissionType === 'link') {
    // The check and its schema load only now that a prompt is shown.
    const { VALIDATE } = await import('../cli/answer-checks.js');
    return { link: await ctx.prompt.input('Link to your work (http or https)?', { validate: VALIDATE.url }) };
  }
  if (submissionType === 'file') return { fileId: await ctx.require(undefined, '--file-id', 'Uploaded file id?') };
  return { text: await ctx.require(undefined, '--text', 'Your answer?') };
}

/**
 * The usage error for work not given: the flag the assignment takes, when it can be read
 * (a caller who may not see the assignment gets the general list, and the API's answer
 * about the assignment comes with the next try).
 */
async function missingWork(ctx: CommandContext, assignment: string): Promise<string> {
  const FLAGS = { text: '--text TEXT (or --text-file FILE)', file: '--file-id ID', link: '--link URL' } as const;
  try {
    const { submissionType } = (await ctx.client.request<{ submissionType: keyof typeof FLAGS }>('GET', `/assignments/${seg(assignment)}`)).data;
    if (submissionType in FLAGS)
      return `missing ${FLAGS[submissionType].split(' ')[0]}: ${assignment} takes ${submissionType} submissions; give ${FLAGS[submissionType]}`;
  } catch {
    // Not readable: say what each kind takes.
  }
  return 'give --text, --text-file, --file-id or --link';
}

export const submissionsCommands = defineCommands([
  {
    name: 'submissions create',
    description: 'Submit work to an assignment (give the field its type takes: --text, --file-id or --link; asked for on a terminal)',
    parents: [{ kind: 'assignment', positional: true }],
    options: [
      { flags: '--text <text>', description: 'the answer, for text assignments' },
      { flags: '--text-file <file>', description: "read the answer from a file ('-' for stdin)" },
      { flags: '--file-id <id>', description: 'an uploaded file id, for file assignments' },
      { flags: '--link <url>', description: 'an http(s) link, for link assignments' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const assignment = await ctx.parent('assignment');
      const body: Record<string, string> = {};
      if (opts.text !== undefined) body.text = String(opts.text);
      if (opts.textFile !== undefined) body.text = await ctx.readText(String(opts.textFile));
      if (opts.fileId !== undefined) body.fileId = String(opts.fileId);
      if (opts.link !== undefined) body.link = String(opts.link);
      if (Object.keys(body).length === 0) {
        if (!ctx.interactive) throw new UsageError(await missingWork(ctx, assignment));
        Object.assign(body, await askWork(ctx, assignment));
      }
      return { kind: 'api', response: await ctx.client.request('POST', `/assignments/${seg(assignment)}/submissions`, body) };
    },
  },
  {
    name: 'submissions list',
    description: "An assignment's submissions (students see their own)",
    parents: [{ kind: 'assignment', positional: true }],
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/assignments/${seg(await ctx.parent('assignment'))}/submissions`),
      columns,
    }),
  },
  {
    name: 'submissions show',
    description: 'Show a submission with its grade',
    args: [{ name: '<submissionId>', description: 'submission id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => {
      const response = await ctx.client.request('GET', `/submissions/${seg(id!)}`);
      return { kind: 'text', text: `${JSON.stringify(response.data, null, 2)}\n`, json: response.text };
    },
  },
  {
    name: 'submissions grade',
    fieldFlags: { criteria: '--criterion' },
    description: 'Grade a submission: --score, and/or rubric levels with --criterion CRITERION=LEVEL (score defaults to their sum)',
    args: [{ name: '<submissionId>', description: 'submission id' }],
    options: [
      { flags: '--score <n>', description: 'the score' },
      { flags: '--criterion <pair...>', description: 'criterionId=levelId (repeatable)' },
      { flags: '--criteria-file <file>', description: 'criteria JSON: [{criterionId, levelId, comment}]' },
      { flags: '--feedback <text>', description: 'feedback for the student' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const body: Record<string, unknown> = {};
      const score = numberOption(opts.score, '--score');
      if (score !== undefined) body.score = score;
      if (opts.criterion !== undefined) {
        body.criteria = (opts.criterion as string[]).map((pair) => {
          const [criterionId, levelId] = pair.split('=');
          if (!criterionId || !levelId) throw new UsageError(`--criterion must look like criterionId=levelId (got ${JSON.stringify(pair)})`);
          return { criterionId, levelId };
        });
      }
      if (opts.criterion !== undefined && opts.criteriaFile !== undefined) throw new UsageError('give --criterion or --criteria-file, not both');
      if (opts.criteriaFile !== undefined) body.criteria = parseJsonText(await ctx.readText(String(opts.criteriaFile)), String(opts.criteriaFile));
      if (opts.feedback !== undefined) body.feedback = String(opts.feedback);
      // A grade is a score or rubric levels; neither given is a missing flag (exit 2), not a bad value.
      if (body.score === undefined && body.criteria === undefined) {
        throw new UsageError('give --score N, or rubric levels with --criterion CRITERION=LEVEL (or --criteria-file FILE)');
      }
      return { kind: 'api', response: await ctx.client.request('PUT', `/submissions/${seg(id!)}/grade`, body) };
    },
  },
  {
    name: 'submissions release',
    description: 'Release a grade to the student',
    args: [{ name: '<submissionId>', description: 'submission id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('POST', `/submissions/${seg(id!)}/release`) }),
  },
]);
