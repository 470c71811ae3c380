/**
 * #17: JWT lifetimes (exp required, capped; no iat from the future), the request budget per
 * user (minting tokens buys nothing), and failed authentications limited per client address.
 */
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { bearerAuthenticator } from '../../src/api/auth.js';
import { createJwtVerifier, lifetimeProblem } from '../../src/api/jwt.js';
import { parseRateLimit, tokenBucketLimiter } from '../../src/api/rate-limit.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import { makeService, type TestService } from '../helpers/app.js';
import { conforming } from '../helpers/openapi-conformance.js';

let svc: TestService;
afterEach(() => svc?.close());

const get = (app: { request: ReturnType<typeof createApp>['request'] }, path: string, token?: string) =>
  app.request(`http://t/api/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

// The test service's clock: 2026-11-22T08:30:00Z.
const NOW_S = Date.parse('2026-11-22T08:30:00Z') / 1000;

describe('lifetimeProblem (the JWT lifetime rule)', () => {
  it.each([
    [{ exp: NOW_S + 60, iat: NOW_S - 60 }, 3600, null],
    [{ exp: NOW_S + 3600, iat: NOW_S }, 3600, null], // exactly the cap
    [{ exp: NOW_S + 3601, iat: NOW_S }, 3600, 'its lifetime is over 3600 s'],
    [{ exp: NOW_S + 60 }, 3600, null], // no iat: judged from now
    [{ exp: NOW_S + 3601 }, 3600, 'it expires more than 3600 s from now'],
    [{ iat: NOW_S }, 3600, 'it has no exp claim'],
    [{}, 3600, 'it has no exp claim'],
    [{ exp: NOW_S + 120, iat: NOW_S + 60 }, 3600, null], // a minute ahead: clock skew is allowed
    [{ exp: NOW_S + 120, iat: NOW_S + 61 }, 3600, 'it was issued in the future (iat)'],
    [{ exp: NOW_S + 120, iat: 'yesterday' }, 3600, 'its iat claim is not a number'],
    [{ exp: NOW_S + 7200, iat: NOW_S }, 86_400, null], // --jwt-max-age 86400
  ])('%j with max age %i -> %s', (claims, maxAge, want) => {
    expect(lifetimeProblem(claims, NOW_S, maxAge)).toBe(want);
  });
});

describe('access JWTs through the app', () => {
  const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
  const sign = (claims: { exp?: number; iat?: number }) => {
    let jwt = new SignJWT({ scope: '*' }).setProtectedHeader({ alg: 'HS256' }).setSubject('inst');
    if (claims.iat !== undefined) jwt = jwt.setIssuedAt(claims.iat);
    if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
    return jwt.sign(new TextEncoder().encode(SECRET));
  };
  const appWith = async (maxAgeSeconds?: number) => {
    svc = await makeService();
    return conforming(
      createApp({ ...svc.deps, auth: bearerAuthenticator({ jwt: await createJwtVerifier({ secret: SECRET, maxAgeSeconds }) }) }, ROUTE_MODULES),
    );
  };

  it('a JWT without exp is refused (it would be valid forever): 401 unauthenticated with WWW-Authenticate', async () => {
    const app = await appWith();
    const res = await get(app, '/me', await sign({ iat: NOW_S - 10 }));
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthenticated');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a lifetime over the cap is refused; at the cap it is accepted (default 1 hour)', async () => {
    const app = await appWith();
    expect((await get(app, '/me', await sign({ iat: NOW_S - 10, exp: NOW_S - 10 + 3600 }))).status).toBe(200);
    expect((await get(app, '/me', await sign({ iat: NOW_S - 10, exp: NOW_S - 10 + 3601 }))).status).toBe(401);
    expect((await get(app, '/me', await sign({ exp: NOW_S + 24 * 3600 }))).status).toBe(401); // no iat, a day ahead
  });

  it('--jwt-max-age raises the cap', async () => {
    const app = await appWith(24 * 3600);
    expect((await get(app, '/me', await sign({ iat: NOW_S, exp: NOW_S + 24 * 3600 }))).status).toBe(200);
  });

  it('an iat more than 60 s ahead of the service clock is refused; 60 s is clock skew', async () => {
    const app = await appWith();
    expect((await get(app, '/me', await sign({ iat: NOW_S + 60, exp: NOW_S + 600 }))).status).toBe(200);
    const ahead = await get(app, '/me', await sign({ iat: NOW_S + 61, exp: NOW_S + 600 }));
    expect(ahead.status).toBe(401);
    expect((await errorOf(ahead)).code).toBe('unauthenticated');
  });

  it('a max age that is not a whole number of seconds >= 1 is refused when the verifier is made', async () => {
    await expect(createJwtVerifier({ secret: SECRET, maxAgeSeconds: 0 })).rejects.toThrow(/--jwt-max-age/);
    await expect(createJwtVerifier({ secret: SECRET, maxAgeSeconds: 1.5 })).rejects.toThrow(/--jwt-max-age/);
  });
});

describe('the request budget is per user', () => {
  it('every credential of one user draws on one bucket: a freshly minted token gets no new budget', async () => {
    svc = await makeService();
    const minted: string[] = [];
    for (let i = 0; i < 3; i++) minted.push((await svc.call('POST', '/tokens', { name: `t${i}`, scopes: ['*'] }, 'inst')).body.token);
    let now = 0;
    const app = conforming(createApp({ ...svc.deps, rateLimiter: tokenBucketLimiter({ perSecond: 1, burst: 3 }, () => now) }, ROUTE_MODULES));
    // Burst 3: three requests with three different tokens of inst spend the whole budget.
    for (const token of minted) expect((await get(app, '/me', token)).status).toBe(200);
    const fourth = await get(app, '/me', 'tok-inst');
    expect(fourth.status).toBe(429);
    expect((await errorOf(fourth)).code).toBe('rate-limited');
    expect(fourth.headers.get('retry-after')).toBe('1');
    // Another user is unaffected; a second later inst has one request again.
    expect((await get(app, '/me', 'tok-stu1')).status).toBe(200);
    now += 1000;
    expect((await get(app, '/me', minted[0])).status).toBe(200);
    expect((await get(app, '/me', minted[1])).status).toBe(429);
  });
});

describe('failed authentications are limited per client address', () => {
  const appWithFailureLimit = async (burst: number, clock: () => number) => {
    svc = await makeService();
    return conforming(createApp({ ...svc.deps, authFailureLimiter: tokenBucketLimiter({ perSecond: 1 / 60, burst }, clock) }, ROUTE_MODULES));
  };

  it('after the budget of failures, requests from the address get 429 before any credential is tried', async () => {
    let now = 0;
    const app = await appWithFailureLimit(3, () => now);
    for (const token of ['guess-1', 'guess-2', undefined]) {
      const res = await get(app, '/me', token);
      expect(res.status).toBe(401); // no token at all is a failed authentication too
      expect((await errorOf(res)).code).toBe('unauthenticated');
    }
    const blocked = await get(app, '/me', 'guess-4');
    expect(blocked.status).toBe(429);
    expect((await errorOf(blocked)).message).toMatch(/failed authentications/);
    expect(blocked.headers.get('retry-after')).toBe('60'); // one failure refills in 60 s at 1/min
    // A right guess from that address is not even tried now: guessing stops here.
    expect((await get(app, '/me', 'tok-inst')).status).toBe(429);
    // Public routes need no authentication and are not blocked.
    expect((await get(app, '/health')).status).toBe(200);
    now += 60_000;
    expect((await get(app, '/me', 'tok-inst')).status).toBe(200);
  });

  it('successful requests spend nothing of the failure budget', async () => {
    const app = await appWithFailureLimit(1, () => 0);
    for (let i = 0; i < 5; i++) expect((await get(app, '/me', 'tok-inst')).status).toBe(200);
    expect((await get(app, '/me', 'wrong')).status).toBe(401);
    expect((await get(app, '/me', 'wrong')).status).toBe(429);
  });

  it('a revoked or expired token counts as a failure like an unknown one', async () => {
    const app = await appWithFailureLimit(2, () => 0);
    const token = (await svc.call('POST', '/tokens', { name: 'soon-gone', scopes: ['*'] }, 'inst')).body;
    await svc.call('DELETE', `/tokens/${token.id}`, undefined, 'inst');
    expect((await get(app, '/me', token.token)).status).toBe(401);
    expect((await get(app, '/me', token.token)).status).toBe(401);
    expect((await get(app, '/me', token.token)).status).toBe(429);
  });

  it('parseRateLimit names the flag it reads', () => {
    expect(() => parseRateLimit('lots', undefined, '--auth-failure-limit')).toThrow(/^--auth-failure-limit must look like/);
    expect(parseRateLimit('30/min', undefined, '--auth-failure-limit')).toEqual({ perSecond: 0.5, burst: 30 });
    expect(parseRateLimit('off', undefined, '--auth-failure-limit')).toBeNull();
  });
});
