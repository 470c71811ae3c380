import { type CommandResult, defineCommands, seg, UsageError } from '../cli/command.js';

const columns = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'userId', header: 'USER' },
  { key: 'scopes', header: 'SCOPES', format: (v: unknown) => (v as string[]).join(' ') },
  { key: 'expiresAt', header: 'EXPIRES' },
  { key: 'revokedAt', header: 'REVOKED' },
];

export const tokensCommands = defineCommands([
  {
    name: 'tokens create',
    fieldFlags: { scopes: '--scope', expiresAt: '--expires' },
    description: 'Create an API token and print its secret once (store it now: only its SHA-256 is kept)',
    options: [
      { flags: '--name <name>', description: 'what the token is for' },
      { flags: '--scope <scope...>', description: 'scopes (repeatable), e.g. gradebook:read content:read, or *' },
      { flags: '--expires <iso>', description: 'expiry time (RFC 3339)' },
      { flags: '--user <userId>', description: 'for another user (admins)' },
    ],
    handler: async (ctx, _args, opts): Promise<CommandResult> => {
      const name = await ctx.require(opts.name as string | undefined, '--name', 'Token name?');
      if (opts.scope === undefined) throw new UsageError('missing --scope');
      const body: Record<string, unknown> = { name, scopes: opts.scope };
      if (opts.expires !== undefined) body.expiresAt = opts.expires;
      if (opts.user !== undefined) body.userId = opts.user;
      const response = await ctx.client.request<{ token: string; id: string }>('POST', '/tokens', body);
      if (ctx.stdoutIsTTY) ctx.note(`token ${response.data.id} created; this is the only time its secret is shown:`);
      return { kind: 'text', text: `${response.data.token}\n`, json: response.text };
    },
  },
  {
    name: 'tokens list',
    description: 'Your tokens (admins: --all for everyone)',
    options: [{ flags: '--all', description: "everyone's tokens (admins)" }],
    handler: async (ctx, _args, opts): Promise<CommandResult> => ({
      kind: 'api',
      response: await ctx.client.request('GET', `/tokens${opts.all ? '?all=true' : ''}`),
      columns,
    }),
  },
  {
    name: 'tokens revoke',
    description: 'Revoke a token (effective at once)',
    args: [{ name: '<tokenId>', description: 'token id' }],
    handler: async (ctx, [id]): Promise<CommandResult> => ({ kind: 'api', response: await ctx.client.request('DELETE', `/tokens/${seg(id!)}`) }),
  },
]);
