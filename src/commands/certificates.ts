import { type CommandResult, defineCommands, seg } from '../cli/command.js';
import { AppError } from '../errors.js';

/** The failure of a code no certificate has: what it was, and what a code looks like. */
const unknownCode = (code: string) =>
  new AppError(
    'not-found',
    `No certificate has the code ${JSON.stringify(code)}. Check it against the certificate: a code is 12 letters and digits, XXXX-XXXX-XXXX (case and hyphens do not matter).`,
  );

const columns = [
  { key: 'id', header: 'ID' },
  { key: 'code', header: 'CODE' },
  { key: 'learnerName', header: 'LEARNER' },
  { key: 'courseTitle', header: 'COURSE' },
  { key: 'issuedAt', header: 'ISSUED' },
  { key: 'basis', header: 'BASIS' },
  { key: 'replacedBy', header: 'REPLACED BY' },
];

export const certificatesCommands = defineCommands([
  {
    name: 'certificates issue',
    description: 'Issue a certificate to a learner for a course',
    parents: [{ kind: 'course' }, { kind: 'user', pick: 'student', description: 'the learner' }],
    options: [{ flags: '--basis <basis>', description: 'completed or tested-out', default: 'completed' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      // The course first: a pick list of learners is the course's students.
      const courseId = await ctx.parent('course');
      const userId = await ctx.parent('user');
      return { kind: 'api', response: await ctx.client.request('POST', '/certificates', { userId, courseId, basis: opts.basis }) };
    },
  },
  {
    name: 'certificates show',
    description: 'Show a certificate',
    args: [{ name: '<certificateId>', description: 'certificate id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/certificates/${seg(id!)}`) }),
  },
  {
    name: 'certificates list',
    description: 'Certificates you may read (--user, --course to filter)',
    // Filters, not parents: every course's certificates unless -c says otherwise (no default course).
    parents: [
      { kind: 'course', optional: true, description: 'only this course (no default: without it, every course)' },
      { kind: 'user', optional: true, description: 'only this learner' },
    ],
    handler: async (ctx): Promise<CommandResult> => {
      const q = new URLSearchParams(
        Object.entries({ userId: ctx.parentGiven('user'), courseId: ctx.parentGiven('course') }).filter(([, v]) => v !== undefined) as [string, string][],
      ).toString();
      return { kind: 'api', response: await ctx.client.request('GET', `/certificates${q ? `?${q}` : ''}`), columns };
    },
  },
  {
    name: 'certificates replace',
    description: 'Replace a certificate (the old one stays readable and points to the new one)',
    args: [{ name: '<certificateId>', description: 'certificate id' }],
    options: [
      { flags: '--reason <text>', description: 'why it is replaced' },
      { flags: '--basis <basis>', description: 'completed or tested-out (default: as before)' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      const reason = await ctx.require(opts.reason as string | undefined, '--reason', 'Reason?', 'replaceReason');
      const body = opts.basis === undefined ? { reason } : { reason, basis: opts.basis };
      return { kind: 'api', response: await ctx.client.request('POST', `/certificates/${seg(id!)}/replace`, body) };
    },
  },
  {
    name: 'certificates verify',
    description: 'Check a certificate code: valid, and current (not replaced)?',
    args: [{ name: '<code>', description: 'XXXX-XXXX-XXXX' }],
    handler: async (ctx, [code]): Promise<CommandResult> => {
      const response = await ctx.client.request<{
        valid: boolean;
        current: boolean;
        certificate: { learnerName: string; courseTitle: string; issuedAt: string } | null;
      }>('GET', `/certificate-codes/${seg(code!)}`);
      const d = response.data;
      return {
        kind: 'api',
        response,
        // The answer is printed either way (--json: the API's {valid: false, ...}); an unknown
        // code then fails as a missing resource does (not-found, exit 5), so a script can rely
        // on the exit code. A replaced certificate is genuine: exit 0, `current` says no.
        ...(d.valid ? {} : { failure: unknownCode(code!) }),
        rows: () => [
          {
            valid: d.valid ? 'yes' : 'no',
            current: d.current ? 'yes' : 'no',
            learner: d.certificate?.learnerName ?? '',
            course: d.certificate?.courseTitle ?? '',
            issued: d.certificate?.issuedAt ?? '',
          },
        ],
      };
    },
  },
]);
