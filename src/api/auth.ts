import { AppError } from '../errors.js';
import type { ApiTokenValue } from '../schemas/people.js';
import { findTokenByHash, sha256Hex } from '../store/tokens.js';
import { getUser } from '../store/users.js';
import { makeCaller } from './caller.js';
import type { AppDeps, Authenticator, Caller } from './context.js';
import { directReads } from './read-cache.js';

/** Verifies access JWTs; supplied by serve when --jwt-secret or --jwks is given. */
export interface JwtVerifier {
  verify(token: string, now: string): Promise<{ sub: string; scopes: string[]; jti: string } | null>;
}

/** Token and user rows: kept until a token or user may have changed, not until any write (read-cache.ts). */
const CREDENTIALS = { scope: 'credentials' } as const;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** `Authorization: Bearer <API token | access JWT>`. Tokens are looked up by SHA-256 only. */
export function bearerAuthenticator(options: { jwt?: JwtVerifier | null } = {}): Authenticator {
  return {
    async authenticate(c, deps): Promise<Caller | null> {
      const header = c.req.header('authorization');
      if (!header) return null;
      const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
      if (!m) throw new AppError('unauthenticated', 'The Authorization header must be "Bearer <token>".');
      const secret = m[1]!;

      if (JWT_SHAPE.test(secret) && secret.split('.')[0]!.startsWith('ey')) {
        if (!options.jwt) throw new AppError('unauthenticated', 'Access JWTs are not accepted by this service (no JWT key configured).');
        const claims = await options.jwt.verify(secret, deps.clock.now());
        if (!claims) throw new AppError('unauthenticated', 'The access JWT is not valid.');
        const user = await (c.get('reads') ?? directReads).remember(['user', claims.sub], () => getUser(deps.store, claims.sub), CREDENTIALS);
        if (!user) throw new AppError('unauthenticated', 'The access JWT names an unknown user.');
        return makeCaller(user, claims.scopes, { kind: 'jwt', id: claims.jti });
      }

      // Looked up again whenever a token or user may have changed, so a revocation holds at
      // once. Kept under the secret itself, which the request carries anyway: a request served
      // from the cache needs no hashing, and finds the caller already made.
      const reads = c.get('reads') ?? directReads;
      const found = await reads.remember(['token', secret], () => tokenCaller(deps, secret), CREDENTIALS);
      if (!found) throw new AppError('unauthenticated', 'The bearer token is not known.');
      const { token, caller } = found;
      if (token.revokedAt !== null) throw new AppError('unauthenticated', 'The bearer token has been revoked.');
      if (token.expiresAt !== null && token.expiresAt <= deps.clock.now()) throw new AppError('unauthenticated', 'The bearer token has expired.');
      if (!caller) throw new AppError('unauthenticated', 'The bearer token belongs to an unknown user.');
      return caller;
    },
  };
}

/** The token a secret names, and the caller it makes (null when its user is gone); null for an unknown secret. */
async function tokenCaller(deps: AppDeps, secret: string): Promise<{ token: ApiTokenValue; caller: Caller | null } | null> {
  const token = await findTokenByHash(deps.store, sha256Hex(secret));
  if (!token) return null;
  const user = await getUser(deps.store, token.userId);
  return { token, caller: user ? makeCaller(user, token.scopes, { kind: 'token', id: token.id }) : null };
}

/** Local mode: every request acts as one user of the store, with all scopes. */
export function localAuthenticator(userId: string): Authenticator {
  return {
    async authenticate(_c, deps) {
      const user = await getUser(deps.store, userId);
      if (!user) throw new AppError('unauthenticated', `The local user ${JSON.stringify(userId)} does not exist in this store.`);
      return makeCaller(user, ['*'], { kind: 'local', id: userId });
    },
  };
}
