import { type CommandResult, defineCommands, parseJsonText, seg } from '../cli/command.js';

export const rubricsCommands = defineCommands([
  {
    name: 'rubrics list',
    description: 'Standards rubrics: the built-in default and imported ones',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', '/rubrics') }),
  },
  {
    name: 'rubrics show',
    description: 'A standards rubric in full (JSON)',
    args: [{ name: '<rubricId>', description: 'rubric id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => {
      const response = await ctx.client.request('GET', `/rubrics/${seg(id!)}`);
      return { kind: 'text', text: `${JSON.stringify(response.data, null, 2)}\n`, json: response.text };
    },
  },
  {
    name: 'rubrics import',
    description: 'Import a standards rubric from a JSON file (admins)',
    args: [{ name: '<file>', description: "rubric JSON ('-' for stdin)" }],
    handler: async (ctx, [file]): Promise<CommandResult> => {
      const text = await ctx.readText(file!);
      parseJsonText(text, file!);
      const response = await ctx.client.request<{ id: string; name: string }>('POST', '/rubrics', text);
      return { kind: 'api', response, rows: (d) => [{ imported: (d as { id: string }).id, name: (d as { name: string }).name }] };
    },
  },
]);
