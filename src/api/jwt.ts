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
  /** The longest lifetime accepted, in seconds (`serve --jwt-max-age`, default 1 hour). */
  maxAgeSeconds?: number | undefined;
}

export const DEFAULT_JWT_MAX_AGE_SECONDS = 3600;
/** How far ahead of the service clock an `iat` may be (clock skew between issuer and service). */
export const JWT_IAT_SKEW_SECONDS = 60;

/**
 * The lifetime rules jose does not apply by itself: `exp` is required (a token without one
 * would be accepted forever), the lifetime is capped (exp - iat, or exp - now when there is
 * no iat), and an `iat` more than a minute ahead of the service clock is refused.
 */
export function lifetimeProblem(payload: { exp?: unknown; iat?: unknown }, nowSeconds: number, maxAgeSeconds: number): string | null {
  if (typeof payload.exp !== 'number') return 'it has no exp claim';
  if (payload.iat !== undefined) {
    if (typeof payload.iat !== 'number') return 'its iat claim is not a number';
    if (payload.iat > nowSeconds + JWT_IAT_SKEW_SECONDS) return 'it was issued in the future (iat)';
    if (payload.exp - payload.iat > maxAgeSeconds) return `its lifetime is over ${maxAgeSeconds} s`;
  } else if (payload.exp - nowSeconds > maxAgeSeconds) return `it expires more than ${maxAgeSeconds} s from now`;
  return null;
}

/**
 * Access JWTs (errors-and-auth.md): verified by jose with an explicit algorithm list, so
 * `alg: none` and algorithm confusion are refused; `exp` is required and the lifetime
 * capped (lifetimeProblem); expiry is judged by the service clock
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
  const maxAge = options.maxAgeSeconds ?? DEFAULT_JWT_MAX_AGE_SECONDS;
  if (!(Number.isInteger(maxAge) && maxAge >= 1)) throw new Error('--jwt-max-age must be a whole number of seconds >= 1');
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
        if (lifetimeProblem(payload, Math.floor(Date.parse(now) / 1000), maxAge) !== null) return null;
        const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
        const jti = typeof payload.jti === 'string' && payload.jti !== '' ? payload.jti : createHash('sha256').update(token).digest('hex').slice(0, 24);
        return { sub: payload.sub, scopes, jti };
      } catch {
        return null;
      }
    },
  };
}
