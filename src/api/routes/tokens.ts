import { z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { Id, TimestampInput } from '../../schemas/common.js';
import { ApiToken, ScopeSchema } from '../../schemas/people.js';
import { getToken, insertToken, listTokens, revokeToken, sha256Hex } from '../../store/tokens.js';
import { getUser } from '../../store/users.js';
import { hasScope } from '../access.js';
import { defineOperation, type RouteModule } from '../define.js';

const TokenCreate = z.strictObject({
  name: z.string().min(1).max(200),
  scopes: z.array(ScopeSchema).min(1).max(20),
  expiresAt: TimestampInput.nullable().default(null),
  userId: Id.optional(),
});

export const tokensRoutes: RouteModule = [
  defineOperation({
    operationId: 'createToken',
    method: 'post',
    path: '/tokens',
    summary: 'Create an API token; its secret is in this answer only (only its SHA-256 is kept)',
    tag: 'tokens',
    body: TokenCreate,
    response: ApiToken.extend({ token: z.string() }),
    status: 201,
    handler: ({ deps, body, granted }) => {
      const { caller } = granted;
      const userId = body.userId ?? caller.user.id;
      if (userId !== caller.user.id && !caller.user.admin) throw new AppError('forbidden', 'Only admins may create tokens for other users.');
      // A token can never carry more than the credential that made it.
      const beyond = body.scopes.filter((s) => !hasScope(caller, s));
      if (beyond.length > 0) throw new AppError('forbidden', `This credential cannot grant scopes it does not have: ${beyond.join(', ')}.`, { scopes: beyond });
      const now = deps.clock.now();
      if (body.expiresAt !== null && body.expiresAt <= now)
        throw new AppError('invalid', 'expiresAt: must be in the future', [{ path: 'expiresAt', message: 'must be in the future' }]);
      return deps.store.tx(async (tx) => {
        if (!(await getUser(tx, userId))) throw new AppError('not-found', `User ${JSON.stringify(userId)} was not found.`);
        const secret = deps.ids.secret();
        const token = await insertToken(
          tx,
          {
            id: deps.ids.next('tok'),
            userId,
            name: body.name,
            scopes: [...new Set(body.scopes)],
            createdAt: now,
            expiresAt: body.expiresAt,
            revokedAt: null,
            lastUsedAt: null,
          },
          sha256Hex(secret),
        );
        return { token: secret, ...token };
      });
    },
  }),
  defineOperation({
    operationId: 'listTokens',
    method: 'get',
    path: '/tokens',
    summary: "The caller's tokens (admins: everyone's with ?all=true); never their secrets",
    tag: 'tokens',
    query: z.object({ all: z.enum(['true', 'false']).optional() }),
    response: z.array(ApiToken),
    handler: ({ deps, query, granted }) => {
      if (query.all === 'true' && !granted.caller.user.admin) throw new AppError('forbidden', "Only admins may list everyone's tokens.");
      return listTokens(deps.store, query.all === 'true' ? undefined : granted.caller.user.id);
    },
  }),
  defineOperation({
    operationId: 'revokeToken',
    method: 'delete',
    path: '/tokens/{tokenId}',
    summary: 'Revoke a token (effective at once)',
    tag: 'tokens',
    params: z.object({ tokenId: Id }),
    response: ApiToken,
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        await revokeToken(tx, params.tokenId, deps.clock.now());
        return getToken(tx, params.tokenId);
      }),
  }),
];
