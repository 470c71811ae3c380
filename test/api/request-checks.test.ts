// One step of request checks (request-checks.ts) answers what the middleware layers it
// replaced answered (the body's text, @hono/zod-openapi's media-type gate and validators):
// these cases passed before the change and after it, unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const post = (s: TestService, body: RequestInit['body'], headers: Record<string, string>) =>
  s.app.request('http://test/api/v1/courses', { method: 'POST', body, headers: { authorization: 'Bearer tok-admin', ...headers } });

async function answer(res: Response): Promise<{ status: number; body: unknown }> {
  return { status: res.status, body: await res.json() };
}

describe('request checks', () => {
  it('takes application/json with parameters and any +json type', async () => {
    svc = await makeService();
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'application/vnd.coursebook+json']) {
      const res = await post(svc, JSON.stringify({ title: `Course ${type}` }), { 'content-type': type });
      expect([type, res.status]).toEqual([type, 201]);
    }
  });

  it('refuses a media type that is not JSON, or JSON with a parameter that has no value: 415 naming it', async () => {
    svc = await makeService();
    expect(await answer(await post(svc, '{"title":"x"}', { 'content-type': 'application/json; utf8' }))).toEqual({
      status: 415,
      body: {
        error: {
          code: 'unsupported',
          message: 'The request body must be application/json, not "application/json; utf8".',
          details: { contentType: 'application/json; utf8' },
        },
      },
    });
    expect((await post(svc, '{"title":"x"}', { 'content-type': 'text/json' })).status).toBe(415);
  });

  it('a body without a Content-Type is 415; no body and no Content-Type is checked as {} (the schema names what is missing)', async () => {
    svc = await makeService();
    // Bytes: a string body would carry Fetch's default text/plain.
    expect(await answer(await post(svc, new TextEncoder().encode('{"title":"x"}'), {}))).toEqual({
      status: 415,
      body: {
        error: {
          code: 'unsupported',
          message: 'The request body must be application/json (the request named no Content-Type).',
          details: { contentType: null },
        },
      },
    });
    const empty = await answer(await post(svc, undefined, {}));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: { code: 'invalid', details: [{ path: 'title', message: 'is required' }] } });
  });

  it('malformed JSON under a +json type is the body’s own problem, after its text was found to be UTF-8', async () => {
    svc = await makeService();
    expect(await answer(await post(svc, '{"title": ', { 'content-type': 'application/vnd.coursebook+json' }))).toEqual({
      status: 400,
      body: { error: { code: 'invalid', message: 'The request body is not valid JSON.', details: [{ path: '(body)', message: 'malformed JSON' }] } },
    });
    const badBytes = await answer(
      await post(svc, new Uint8Array([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22]), { 'content-type': 'application/json' }),
    );
    expect(badBytes.status).toBe(400);
    expect(badBytes.body).toMatchObject({ error: { code: 'invalid', details: [{ path: '(body)' }] } });
  });

  it('access comes first: no credential with a malformed body or a wrong media type is 401', async () => {
    svc = await makeService();
    for (const [body, type] of [
      ['{"title": ', 'application/json'],
      ['title=x', 'application/x-www-form-urlencoded'],
    ]) {
      const res = await svc.app.request('http://test/api/v1/courses', { method: 'POST', body, headers: { 'content-type': type! } });
      expect([type, res.status]).toEqual([type, 401]);
    }
  });

  it('a query that its schema refuses is invalid naming the parameter', async () => {
    svc = await makeService();
    const res = await svc.app.request('http://test/api/v1/courses?limit=many', { headers: { authorization: 'Bearer tok-admin' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid', details: [{ path: 'limit' }] } });
  });
});
