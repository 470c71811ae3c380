import { type CommandResult, defineCommands, seg } from '../cli/command.js';

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
    options: [
      { flags: '--user <userId>', description: 'the learner' },
      { flags: '--course <courseId>', description: 'the course' },
      { flags: '--basis <basis>', description: 'completed or tested-out', default: 'completed' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const userId = await ctx.require(opts.user as string | undefined, '--user', 'Learner id?');
      const courseId = await ctx.require(opts.course as string | undefined, '--course', 'Course id?');
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
    options: [
      { flags: '--user <userId>', description: 'one learner' },
      { flags: '--course <courseId>', description: 'one course' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const q = new URLSearchParams(
        Object.entries({ userId: opts.user, courseId: opts.course }).filter(([, v]) => v !== undefined) as [string, string][],
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
      const reason = await ctx.require(opts.reason as string | undefined, '--reason', 'Reason?');
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
