import { z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { defineOperation } from '../../src/api/define.js';
import { AppError, ERROR_TABLE } from '../../src/errors.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const raw = (s: TestService, path: string, init: RequestInit = {}) =>
  s.app.request(`http://test/api/v1${path}`, { ...init, headers: { authorization: 'Bearer tok-admin', ...(init.headers ?? {}) } });

async function expectEnvelope(res: Response, code: string, status: number) {
  expect(res.status).toBe(status);
  expect(ERROR_TABLE[code as keyof typeof ERROR_TABLE].status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

describe('error envelope', () => {
  it('unknown route: not-found 404', async () => {
    svc = await makeService();
    await expectEnvelope(await raw(svc, '/no/such/route'), 'not-found', 404);
    await expectEnvelope(await svc.app.request('http://test/elsewhere'), 'not-found', 404);
  });

  it('malformed JSON: invalid 400', async () => {
    svc = await makeService();
    const res = await raw(svc, '/courses', { method: 'POST', body: '{"title": ', headers: { 'content-type': 'application/json' } });
    const body = await expectEnvelope(res, 'invalid', 400);
    expect(JSON.stringify(body)).toMatch(/JSON/);
  });

  it('wrong content type: unsupported 415', async () => {
    svc = await makeService();
    const res = await raw(svc, '/courses', { method: 'POST', body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await expectEnvelope(res, 'unsupported', 415)).toEqual({
      error: {
        code: 'unsupported',
        message: 'The request body must be application/json, not "application/x-www-form-urlencoded".',
        details: { contentType: 'application/x-www-form-urlencoded' },
      },
    });
    const text = await raw(svc, '/courses', { method: 'POST', body: '{"title":"x"}', headers: { 'content-type': 'text/plain' } });
    await expectEnvelope(text, 'unsupported', 415);
  });

  it('problems: a missing enum field is "is required", one bound per number (the tightest), the same problem once', async () => {
    svc = await makeService({
      courses: [{ id: 'c1', title: 'C' }],
      users: [{ id: 's1', name: 'S' }],
      enrollments: [{ courseId: 'c1', userId: 's1', role: 'student' }],
    });
    const missing = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({
      code: 'invalid',
      message: '2 problems: code: is required; ...',
      details: [
        { path: 'code', message: 'is required' },
        { path: 'target', message: 'is required' },
      ],
    });
    const wrong = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', { code: 'nope', target: 'x' });
    expect(wrong.body.error.details[0]).toMatchObject({ path: 'code', message: expect.stringMatching(/^must be one of "/) });
    // 2^53 is past Number.isSafeInteger's bound and past the version's own, smaller one: one problem, the smaller bound.
    const huge = await svc.call('PUT', '/courses/c1/gradebook/students/s1/final', { reason: 'r', expectedVersion: 2 ** 53, percent: 1 });
    expect(huge.body.error).toEqual({
      code: 'invalid',
      message: 'expectedVersion: must be <= 4503599627370495',
      details: [{ path: 'expectedVersion', message: 'must be <= 4503599627370495' }],
    });
  });

  it('body over 1 MiB: too-large 413, before parsing', async () => {
    svc = await makeService();
    const big = JSON.stringify({ title: 'x', description: 'y'.repeat(1024 * 1024) });
    const res = await raw(svc, '/courses', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
    await expectEnvelope(res, 'too-large', 413);
    expect((await svc.call('GET', '/courses')).body).toHaveLength(1);
  });

  it('the body limit is configurable (--max-body)', async () => {
    svc = await makeService(undefined, { maxBody: 100 });
    const res = await raw(svc, '/courses', {
      method: 'POST',
      body: JSON.stringify({ title: 'x'.repeat(120) }),
      headers: { 'content-type': 'application/json' },
    });
    await expectEnvelope(res, 'too-large', 413);
  });

  it('validation: invalid 400 with one {path, message} per problem', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses', { title: '', descripton: 'typo', objectives: ['ok', 5] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    const details = res.body.error.details as { path: string; message: string }[];
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'title', message: 'must not be empty' },
        { path: 'descripton', message: 'unknown field' },
        { path: 'objectives[1]', message: 'must be a string' },
      ]),
    );
  });

  it('a missing required field names itself', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses', {});
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'title', message: 'is required' }]);
  });

  it('a missing body where one is required is invalid, not a crash', async () => {
    svc = await makeService();
    const res = await raw(svc, '/courses', { method: 'POST' });
    expect([400, 415]).toContain(res.status);
    await res.json();
  });

  it('no token: unauthenticated 401 with WWW-Authenticate', async () => {
    svc = await makeService();
    const res = await svc.call('GET', '/courses', undefined, null);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthenticated');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('an unknown token is unauthenticated and the message does not echo it', async () => {
    svc = await makeService();
    const res = await svc.app.request('http://test/api/v1/courses', { headers: { authorization: 'Bearer sekrit-value-123' } });
    const body = await expectEnvelope(res, 'unauthenticated', 401);
    expect(JSON.stringify(body)).not.toContain('sekrit-value-123');
  });

  it('an unexpected exception is a 500 envelope without a stack trace', async () => {
    svc = await makeService();
    const boom = [
      defineOperation({
        operationId: 'health',
        method: 'get',
        path: '/health',
        summary: 'x',
        tag: 't',
        response: z.object({}),
        handler: () => {
          throw new TypeError('secret internals at /src/foo.ts:12');
        },
      }),
    ];
    const lines: string[] = [];
    const app = createApp({ ...svc.deps, options: { log: (e) => void lines.push(JSON.stringify(e)) } }, [boom]);
    const res = await app.request('http://test/api/v1/health');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message).not.toMatch(/secret internals|foo\.ts/);
    expect(lines.some((l) => l.includes('secret internals'))).toBe(true);
  });
});

describe('health and openapi', () => {
  it('health needs no credential', async () => {
    svc = await makeService();
    const res = await svc.call('GET', '/health', undefined, null);
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('openapi.json is OpenAPI 3.1 and lists the routes with their security', async () => {
    svc = await makeService();
    const res = await svc.call('GET', '/openapi.json', undefined, null);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/health', '/api/v1/courses', '/api/v1/courses/{courseId}', '/api/v1/modules/{moduleId}']),
    );
    expect(res.body.paths['/api/v1/courses'].post.operationId).toBe('createCourse');
    expect(res.body.paths['/api/v1/courses'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('AppError', () => {
  it('carries no stack frames (it is an answer, not a bug) and leaves the stack limit as it was', () => {
    const before = Error.stackTraceLimit;
    const err = new AppError('conflict', 'The override is at version 2, not 1.', { currentVersion: 2 });
    expect(Error.stackTraceLimit).toBe(before);
    expect(err.stack).toBe('AppError: The override is at version 2, not 1.');
    expect(err).toBeInstanceOf(Error);
    expect([err.code, err.status, err.exitCode, err.details]).toEqual([
      'conflict',
      ERROR_TABLE.conflict.status,
      ERROR_TABLE.conflict.exit,
      { currentVersion: 2 },
    ]);
    // Any other error keeps its frames: those are the ones logged.
    expect(new Error('bug').stack).toMatch(/\n\s+at /);
  });
});
