import { describeBackend } from '../cli/backend.js';
import { type CommandResult, defineCommands, seg, UsageError } from '../cli/command.js';
import { definedFields } from '../runtime/objects.js';

const userColumns = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'email', header: 'EMAIL' },
  { key: 'admin', header: 'ADMIN', format: (v: unknown) => (v ? 'yes' : '') },
];

export const peopleCommands = defineCommands([
  {
    name: 'whoami',
    description: 'Show the acting user, the scopes of the credential, the back end in use (store or service) and the profile',
    handler: async (ctx): Promise<CommandResult> => {
      const response = await ctx.client.request<{ user: { id: string; name: string; admin: boolean }; scopes: string[]; credential: string }>('GET', '/me');
      const d = response.data;
      // --json stays the API's /me; the back end and profile are the CLI's own, shown in the table.
      const where = describeBackend(ctx.backend);
      return {
        kind: 'api',
        response,
        rows: () => [{ id: d.user.id, name: d.user.name, admin: d.user.admin ? 'yes' : 'no', credential: d.credential, scopes: d.scopes.join(' '), ...where }],
      };
    },
  },
  {
    name: 'users list',
    description: 'List users (admins)',
    handler: async (ctx): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', '/users'), columns: userColumns }),
  },
  {
    name: 'users show',
    description: 'Show a user',
    args: [{ name: '<userId>', description: 'user id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('GET', `/users/${seg(id!)}`) }),
  },
  {
    name: 'users create',
    description: 'Create a user (admins)',
    options: [
      { flags: '--name <name>', description: 'display name' },
      { flags: '--email <email>', description: 'email address' },
      { flags: '--id <id>', description: 'use this id instead of a generated one' },
      { flags: '--admin', description: 'make the user an admin' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const name = await ctx.require(opts.name as string | undefined, '--name', 'Name?', 'personName');
      const body = definedFields({ name, email: opts.email, id: opts.id, admin: opts.admin === true ? true : undefined });
      return { kind: 'api', response: await ctx.client.request('POST', '/users', body) };
    },
  },
  {
    name: 'users update',
    description: 'Change a user (admins)',
    args: [{ name: '<userId>', description: 'user id' }],
    options: [
      { flags: '--name <name>', description: 'display name' },
      { flags: '--email <email>', description: 'email address (none: no email)' },
      { flags: '--admin <yes|no>', description: 'admin or not' },
    ],
    handler: async (ctx, [id], opts): Promise<CommandResult> => {
      let admin: boolean | undefined;
      if (opts.admin !== undefined) {
        if (!['yes', 'no'].includes(String(opts.admin))) throw new UsageError('--admin must be yes or no');
        admin = opts.admin === 'yes';
      }
      // `none` clears the email, as `--due none` clears a due date.
      const email = opts.email === 'none' ? null : opts.email;
      const body = definedFields({ name: opts.name, email, admin });
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --name, --email or --admin');
      return { kind: 'api', response: await ctx.client.request('PATCH', `/users/${seg(id!)}`, body) };
    },
  },
  {
    name: 'enrollments list',
    description: "List a course's enrollments",
    parents: [{ kind: 'course', positional: true }],
    handler: async (ctx): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/courses/${seg(await ctx.parent('course'))}/enrollments`),
    }),
  },
  {
    name: 'enrollments create',
    aliases: ['add'],
    description: 'Enroll a user in a course (or change their role)',
    parents: [
      { kind: 'course', positional: true },
      { kind: 'user', positional: true, pick: 'user', description: 'the user to enroll' },
    ],
    options: [{ flags: '--role <role>', description: 'instructor, reviewer or student', default: 'student' }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const userId = await ctx.parent('user');
      return { kind: 'api', response: await ctx.client.request('POST', `/courses/${seg(course)}/enrollments`, { userId, role: opts.role }) };
    },
  },
  {
    name: 'enrollments delete',
    aliases: ['remove'],
    description: 'Remove a user from a course',
    parents: [
      { kind: 'course', positional: true },
      { kind: 'user', positional: true, pick: 'member', description: 'the user to remove' },
    ],
    handler: async (ctx): Promise<CommandResult> => {
      const course = await ctx.parent('course');
      const user = await ctx.parent('user');
      return { kind: 'api', response: await ctx.client.request('DELETE', `/courses/${seg(course)}/enrollments/${seg(user)}`) };
    },
  },
]);
