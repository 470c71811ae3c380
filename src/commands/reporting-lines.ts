import { type CommandResult, defineCommands, seg } from '../cli/command.js';

export const reportingLinesCommands = defineCommands([
  {
    name: 'reporting-lines list',
    description: 'Reporting lines (admins: all; others: their own)',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', '/reporting-lines') }),
  },
  {
    name: 'reporting-lines create',
    aliases: ['add'],
    description: 'Add a line: REPORT reports to MANAGER',
    args: [
      { name: '<managerId>', description: 'the manager' },
      { name: '<reportId>', description: 'the report' },
    ],
    handler: async (ctx, [managerId, reportId]): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('POST', '/reporting-lines', { managerId, reportId }),
    }),
  },
  {
    name: 'reporting-lines delete',
    aliases: ['remove'],
    description: 'Remove a line',
    args: [
      { name: '<managerId>', description: 'the manager' },
      { name: '<reportId>', description: 'the report' },
    ],
    handler: async (ctx, [managerId, reportId]): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('DELETE', `/reporting-lines/${seg(managerId!)}/${seg(reportId!)}`),
    }),
  },
]);
