import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { JwtVerifier } from './auth.js';

export interface JwtOptions {
  /** HS256 shared secret. */
  secret?: string | undefined;
  /** A JWKS file path or an http(s) URL, for RS256 / ES256. */
  jwks?: string | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
}

/**
 * Access JWTs (errors-and-auth.md): verified by jose with an explicit algorithm list, so
 * `alg: none` and algorithm confusion are refused; expiry is judged by the service clock
 * (`now`), so fixtures with --now replay the same way. Any failure is simply "not valid":
 * the caller answers unauthenticated without saying why in detail.
 */
export async function createJwtVerifier(options: JwtOptions): Promise<JwtVerifier> {
  if (options.secret && options.jwks) throw new Error('give either --jwt-secret or --jwks, not both');
  let key: Uint8Array | JWTVerifyGetKey;
  let algorithms: string[];
  if (options.secret) {
    key = new TextEncoder().encode(options.secret);
    algorithms = ['HS256'];
  } else if (options.jwks) {
    key = /^https?:\/\//.test(options.jwks) ? createRemoteJWKSet(new URL(options.jwks)) : createLocalJWKSet(JSON.parse(readFileSync(options.jwks, 'utf8')));
    algorithms = ['RS256', 'ES256'];
  } else {
    throw new Error('a JWT verifier needs --jwt-secret or --jwks');
  }
  return {
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key as Uint8Array, {
          algorithms,
          currentDate: new Date(now),
          ...(options.issuer ? { issuer: options.issuer } : {}),
          ...(options.audience ? { audience: options.audience } : {}),
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') return null;
        const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
        const jti = typeof payload.jti === 'string' && payload.jti !== '' ? payload.jti : createHash('sha256').update(token).digest('hex').slice(0, 24);
        return { sub: payload.sub, scopes, jti };
      } catch {
        return null;
      }
    },
  };
}
