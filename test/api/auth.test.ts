import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { bearerAuthenticator } from '../../src/api/auth.js';
import { createJwtVerifier } from '../../src/api/jwt.js';
import { tokenBucketLimiter } from '../../src/api/rate-limit.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import { makeService, type TestService } from '../helpers/app.js';
import { conforming } from '../helpers/openapi-conformance.js';

let svc: TestService;
afterEach(() => svc?.close());

const get = (app: ReturnType<typeof createApp>, path: string, token?: string) =>
  app.request(`http://t/api/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('API tokens', () => {
  it('are shown once, stored as SHA-256 only, and work at once', async () => {
    svc = await makeService();
    const created = await svc.call('POST', '/tokens', { name: 'ci', scopes: ['gradebook:read', 'content:read'] }, 'inst');
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
    const rows = JSON.stringify(await svc.store.all('SELECT * FROM tokens'));
    expect(rows).not.toContain(created.body.token);
    const listed = await svc.call('GET', '/tokens', undefined, 'inst');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    expect(listed.body.map((t: { name: string }) => t.name)).toContain('ci');
    const res = await get(svc.app, '/courses/c1/gradebook/setup', created.body.token);
    expect(res.status).toBe(200);
  });

  it('carry only their scopes: a missing scope is forbidden, and no token grants more than its maker has', async () => {
    svc = await makeService();
    const readOnly = (await svc.call('POST', '/tokens', { name: 'ro', scopes: ['gradebook:read'] }, 'inst')).body.token;
    const denied = await svc.app.request('http://t/api/v1/courses/c1/gradebook/setup/dismiss', {
      method: 'POST',
      headers: { authorization: `Bearer ${readOnly}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'late-no-cap', target: 'late' }),
    });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    const escalate = await svc.app.request('http://t/api/v1/tokens', {
      method: 'POST',
      headers: { authorization: `Bearer ${readOnly}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'more', scopes: ['*'] }),
    });
    expect(escalate.status).toBe(403);
    expect((await svc.call('POST', '/tokens', { name: 'x', scopes: ['*'], userId: 'stu1' }, 'inst')).status).toBe(403);
    expect((await svc.call('POST', '/tokens', { name: 'x', scopes: ['*'], userId: 'stu1' }, 'admin')).status).toBe(201);
  });

  it('expire by the service clock and revoke effective at once', async () => {
    svc = await makeService();
    const t = (await svc.call('POST', '/tokens', { name: 'short', scopes: ['*'], expiresAt: '2026-11-22T09:00:00Z' }, 'inst')).body;
    expect((await get(svc.app, '/courses', t.token)).status).toBe(200);
    svc.clock.set('2026-11-22T09:00:00Z');
    const expired = await get(svc.app, '/courses', t.token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer/);
    svc.clock.set('2026-11-22T08:30:00Z');
    const t2 = (await svc.call('POST', '/tokens', { name: 'r', scopes: ['*'] }, 'inst')).body;
    expect((await svc.call('DELETE', `/tokens/${t2.id}`, undefined, 'inst')).body.revokedAt).toBe('2026-11-22T08:30:00.000Z');
    expect((await get(svc.app, '/courses', t2.token)).status).toBe(401);
    expect((await svc.call('POST', '/tokens', { name: 'past', scopes: ['*'], expiresAt: '2020-01-01T00:00:00Z' }, 'inst')).status).toBe(400);
  });

  it("another user's token is not-found to revoke; admins may", async () => {
    svc = await makeService();
    const t = (await svc.call('POST', '/tokens', { name: 'mine', scopes: ['*'] }, 'inst')).body;
    expect((await svc.call('DELETE', `/tokens/${t.id}`, undefined, 'stu1')).status).toBe(404);
    expect((await svc.call('DELETE', `/tokens/${t.id}`, undefined, 'admin')).status).toBe(200);
  });

  it('fixture tokens given in plain text are hashed on import and authenticate', async () => {
    svc = await makeService();
    expect((await svc.call('GET', '/me', undefined, 'stu2')).body.user.id).toBe('stu2');
    expect(JSON.stringify(await svc.store.all('SELECT * FROM tokens'))).not.toContain('tok-stu2');
  });
});

describe('access JWTs', () => {
  const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
  const key = new TextEncoder().encode(SECRET);
  const sign = (claims: Record<string, unknown>, opts: { alg?: string; exp?: number; iss?: string; aud?: string; secret?: Uint8Array } = {}) => {
    let jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
      .setSubject(String(claims.sub ?? 'inst'))
      .setIssuedAt(Date.parse('2026-11-22T08:00:00Z') / 1000);
    if (opts.exp !== undefined) jwt = jwt.setExpirationTime(opts.exp);
    if (opts.iss) jwt = jwt.setIssuer(opts.iss);
    if (opts.aud) jwt = jwt.setAudience(opts.aud);
    return jwt.sign(opts.secret ?? key);
  };
  const appWith = async (o: Parameters<typeof createJwtVerifier>[0]) => {
    svc = await makeService();
    return conforming(createApp({ ...svc.deps, auth: bearerAuthenticator({ jwt: await createJwtVerifier(o) }) }, ROUTE_MODULES));
  };
  const NOW_S = Date.parse('2026-11-22T08:30:00Z') / 1000;

  it('HS256 with the configured secret authenticates; sub is the user and scope the scopes', async () => {
    const app = await appWith({ secret: SECRET });
    const jwt = await sign({ sub: 'inst', scope: 'content:read gradebook:read' }, { exp: NOW_S + 60 });
    const me = (await (await get(app, '/me', jwt)).json()) as { user: { id: string }; scopes: string[]; credential: string };
    expect(me).toMatchObject({ user: { id: 'inst' }, scopes: ['content:read', 'gradebook:read'], credential: 'jwt' });
    expect((await get(app, '/courses/c1/readiness', jwt)).status).toBe(403);
  });

  it.each([
    ['alg none', async () => new UnsecuredJWT({ sub: 'inst', scope: '*' }).setSubject('inst').encode()],
    ['a bad signature', async () => sign({ sub: 'inst', scope: '*' }, { secret: new TextEncoder().encode('another-secret-another-secret-another') })],
    ['a wrong algorithm (HS512)', async () => sign({ sub: 'inst', scope: '*' }, { alg: 'HS512' })],
    ['expiry by the service clock', async () => sign({ sub: 'inst', scope: '*' }, { exp: NOW_S - 1 })],
    ['an unknown subject', async () => sign({ sub: 'ghost', scope: '*' }, { exp: NOW_S + 60 })],
    ['a wrong issuer', async () => sign({ sub: 'inst', scope: '*' }, { exp: NOW_S + 60, iss: 'evil', aud: 'coursebook' })],
    ['a wrong audience', async () => sign({ sub: 'inst', scope: '*' }, { exp: NOW_S + 60, iss: 'idp', aud: 'other' })],
  ])('%s is unauthenticated', async (_name, make) => {
    const app = await appWith({ secret: SECRET, issuer: 'idp', audience: 'coursebook' });
    const res = await get(app, '/courses', await make());
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('RS256 and ES256 with a JWKS file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-jwks-'));
    try {
      const rs = await generateKeyPair('RS256');
      const es = await generateKeyPair('ES256');
      const jwks = {
        keys: [
          { ...(await exportJWK(rs.publicKey)), kid: 'rs', alg: 'RS256' },
          { ...(await exportJWK(es.publicKey)), kid: 'es', alg: 'ES256' },
        ],
      };
      writeFileSync(join(dir, 'jwks.json'), JSON.stringify(jwks));
      const app = await appWith({ jwks: join(dir, 'jwks.json') });
      for (const [alg, kid, k] of [
        ['RS256', 'rs', rs.privateKey],
        ['ES256', 'es', es.privateKey],
      ] as const) {
        const jwt = await new SignJWT({ scope: '*' })
          .setProtectedHeader({ alg, kid })
          .setSubject('rev')
          .setExpirationTime(NOW_S + 60)
          .sign(k);
        expect((await get(app, '/me', jwt)).status).toBe(200);
      }
      const hs = await sign({ sub: 'rev', scope: '*' }, { exp: NOW_S + 60 });
      expect((await get(app, '/me', hs)).status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a service without a JWT key refuses JWTs', async () => {
    svc = await makeService();
    expect((await get(svc.app, '/me', await sign({ sub: 'inst' }, { exp: NOW_S + 60 }))).status).toBe(401);
  });
});

describe('rate limiting and logs', () => {
  it('a token bucket per user: 429 with Retry-After in whole seconds, refilled over time', async () => {
    svc = await makeService();
    let now = 0;
    const app = conforming(createApp({ ...svc.deps, rateLimiter: tokenBucketLimiter({ perSecond: 1, burst: 3 }, () => now) }, ROUTE_MODULES));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(app, '/me', 'tok-inst')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get(app, '/me', 'tok-inst');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate-limited');
    expect((await get(app, '/me', 'tok-stu1')).status).toBe(200); // another user has their own bucket
    now += 1000;
    expect((await get(app, '/me', 'tok-inst')).status).toBe(200);
    expect((await get(app, '/health')).status).toBe(200); // no credential, no bucket
  });

  it('no token or secret appears in any log line or error message', async () => {
    svc = await makeService();
    const lines: string[] = [];
    const app = conforming(createApp({ ...svc.deps, options: { log: (e) => void lines.push(JSON.stringify(e)) } }, ROUTE_MODULES));
    await get(app, '/me', 'tok-inst');
    await get(app, '/me', 'not-a-real-token-secret');
    const bad = await get(app, '/courses/nope', 'tok-inst');
    const body = await bad.text();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const text of [...lines, body]) {
      expect(text).not.toContain('tok-inst');
      expect(text).not.toContain('not-a-real-token-secret');
    }
  });
});

describe('CORS and remote JWKS', () => {
  it('--cors allows the configured origin only', async () => {
    svc = await makeService(undefined, { cors: 'https://app.example' });
    const pre = await svc.app.request('http://t/api/v1/courses', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await svc.app.request('http://t/api/v1/health', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    const none = await makeService();
    expect(
      (await none.app.request('http://t/api/v1/health', { headers: { origin: 'https://app.example' } })).headers.get('access-control-allow-origin'),
    ).toBeNull();
    none.close();
  });

  it('a JWKS URL (served on 127.0.0.1) verifies RS256 tokens', async () => {
    const { createServer } = await import('node:http');
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] });
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      svc = await makeService();
      const app = conforming(
        createApp({ ...svc.deps, auth: bearerAuthenticator({ jwt: await createJwtVerifier({ jwks: `http://127.0.0.1:${port}/jwks.json` }) }) }, ROUTE_MODULES),
      );
      const jwt = await new SignJWT({ scope: '*' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('inst')
        .setExpirationTime(Date.parse('2026-11-22T09:00:00Z') / 1000)
        .sign(privateKey);
      expect((await get(app, '/me', jwt)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
