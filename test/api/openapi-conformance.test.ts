/**
 * #17: the served OpenAPI document describes what the routes really send. Every answer the
 * API tests receive through makeService is validated against it (test/helpers/
 * openapi-conformance.ts); these tests check that checker, the document's own soundness
 * (servers, no ambiguous paths, no untyped answers) and how it is served (once, with an ETag).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';
import { ConformanceChecker, type OpenApiDocument } from '../helpers/openapi-conformance.js';

let svc: TestService;
afterEach(() => svc?.close());

async function servedDocument(): Promise<{ doc: OpenApiDocument; etag: string; text: string }> {
  svc = await makeService();
  const res = await svc.app.request('http://t/api/v1/openapi.json');
  expect(res.status).toBe(200);
  const text = await res.text();
  return { doc: JSON.parse(text) as OpenApiDocument, etag: res.headers.get('etag') ?? '', text };
}

/** redocly's no-ambiguous-paths: two templates one URL can match, each more literal in some segment. */
function ambiguousPairs(paths: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  const isParam = (s: string) => s.startsWith('{');
  for (let i = 0; i < paths.length; i++)
    for (let j = i + 1; j < paths.length; j++) {
      const a = paths[i]!.split('/');
      const b = paths[j]!.split('/');
      if (a.length !== b.length) continue;
      let aMore = false;
      let bMore = false;
      let disjoint = false;
      a.forEach((seg, k) => {
        const other = b[k]!;
        if (!isParam(seg) && !isParam(other) && seg !== other) disjoint = true;
        if (!isParam(seg) && isParam(other)) aMore = true;
        if (isParam(seg) && !isParam(other)) bMore = true;
      });
      if (!disjoint && aMore === bMore) pairs.push([paths[i]!, paths[j]!]);
    }
  return pairs;
}

describe('the served document', () => {
  it('has a servers entry, a license and no ambiguous paths (certificate codes moved to /certificate-codes/{code})', async () => {
    const { doc } = await servedDocument();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '{scheme}://{host}', variables: expect.any(Object) })]);
    expect((doc.info as { license?: unknown }).license).toMatchObject({ name: 'MIT' });
    const paths = Object.keys(doc.paths);
    expect(ambiguousPairs(paths)).toEqual([]);
    expect(paths).toContain('/api/v1/certificate-codes/{code}');
    expect(paths).not.toContain('/api/v1/certificates/verify/{code}');
    // The rule itself: the old pair was ambiguous (/certificates/verify/replace matches both).
    expect(ambiguousPairs(['/certificates/verify/{code}', '/certificates/{certificateId}/replace'])).toHaveLength(1);
    expect(ambiguousPairs(['/templates/bulk-update', '/templates/{templateId}'])).toEqual([]);
  });

  it('types every success answer: no operation answers an untyped (empty) schema', async () => {
    const { doc } = await servedDocument();
    const untyped: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          if (!status.startsWith('2')) continue;
          const schema = response.content?.['application/json']?.schema;
          if (schema === undefined || JSON.stringify(schema) === '{}') untyped.push(`${method.toUpperCase()} ${path} ${status}`);
        }
      }
    expect(untyped).toEqual([]);
    const components = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['ReadinessReport', 'CourseGrades', 'StudentGrades', 'Block']) expect(JSON.stringify(components[name]), name).not.toBe('{}');
  });

  it('named schemas used as "or null" stay non-null themselves (anyOf [$ref, null] where null is allowed)', async () => {
    const { doc } = await servedDocument();
    const schemas = (doc.components as { schemas: Record<string, { type?: unknown }> }).schemas;
    for (const name of ['Grade', 'Provenance', 'Certificate']) expect(schemas[name]?.type, name).toBe('object');
    const submission = schemas.Submission as { properties: { grade: unknown } };
    expect(submission.properties.grade).toEqual({ anyOf: [{ $ref: '#/components/schemas/Grade' }, { type: 'null' }] });
  });

  it('describes a named union or a course file part once and refers to it (a union or null, the three course file schemas)', async () => {
    const { doc } = await servedDocument();
    type Schema = { properties?: Record<string, unknown>; oneOf?: Schema[]; items?: unknown };
    const schemas = (doc.components as { schemas: Record<string, Schema> }).schemas;
    // The content a block replaced: the BlockContent union or null, not a copy of its variants.
    const previousBlockContent = { anyOf: [{ $ref: '#/components/schemas/BlockContent' }, { type: 'null' }] };
    for (const variant of schemas.Block!.oneOf!) expect(variant.properties!.previous).toMatchObject(previousBlockContent);
    for (const name of ['CourseFile', 'CourseContent', 'CourseContentWrite'])
      expect((schemas[name]!.properties!.modules as Schema).items, name).toEqual({ $ref: '#/components/schemas/CourseFileModule' });
    expect(schemas.CourseFileModule!.properties!.lessons).toMatchObject({ items: { $ref: '#/components/schemas/CourseFileLesson' } });
    expect(schemas.CourseFileLesson!.properties!.blocks).toMatchObject({ items: { $ref: '#/components/schemas/CourseFileBlock' } });
    // The whole document was 553 KB with those copies.
    expect(JSON.stringify(doc).length).toBeLessThan(350_000);
  });
});

describe('the conformance checker (what makeService runs on every answer)', () => {
  it('accepts a documented answer and names what is wrong with one that is not', async () => {
    const { doc } = await servedDocument();
    const checker = new ConformanceChecker(doc);
    const course = (await svc.call('GET', '/courses/c1')).body;
    expect(checker.check('GET', '/api/v1/courses/c1', 200, 'application/json', JSON.stringify(course))).toEqual([]);
    const { title: _title, ...withoutTitle } = course;
    expect(checker.check('GET', '/api/v1/courses/c1', 200, 'application/json', JSON.stringify(withoutTitle)).join()).toMatch(/title/);
    expect(checker.check('GET', '/api/v1/courses/c1', 200, 'application/json', JSON.stringify({ ...course, createdAt: 5 })).join()).toMatch(/createdAt/);
    // An undocumented status (a 500 is never documented), and an error that is not the envelope.
    expect(checker.check('GET', '/api/v1/courses/c1', 500, 'application/json', '{"error":{"code":"internal","message":"x"}}').join()).toMatch(
      /500 is not documented/,
    );
    expect(checker.check('GET', '/api/v1/courses/c1', 404, 'application/json', '{"message":"Not Found"}').join()).toMatch(/error/);
    // A route the document does not describe may only answer the not-found envelope.
    expect(checker.check('GET', '/api/v1/nope', 404, 'application/json', '{"error":{"code":"not-found","message":"x"}}')).toEqual([]);
    expect(checker.check('GET', '/api/v1/nope', 200, 'application/json', '{}').join()).toMatch(/does not describe/);
  });

  it('matches the most literal template: /templates/bulk-update is not /templates/{templateId}', async () => {
    const { doc } = await servedDocument();
    const checker = new ConformanceChecker(doc);
    expect(checker.route('POST', '/api/v1/templates/bulk-update')?.operation.operationId).toBe('bulkUpdateTemplates');
    expect(checker.route('GET', '/api/v1/templates/tpl1')?.operation.operationId).toBe('getTemplate');
    expect(checker.route('GET', '/api/v1/certificate-codes/AAAA-BBBB-CCCC')?.operation.operationId).toBe('verifyCertificate');
  });

  it('a response that breaks the document fails the request it answers', async () => {
    svc = await makeService();
    // A student's grade view through the checked app conforms; a forged document mismatch would throw.
    const mine = await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1');
    expect(mine.status).toBe(200);
    await expect(svc.app.request('http://t/api/v1/health')).resolves.toBeInstanceOf(Response);
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('is served with a strong ETag; If-None-Match with it (or W/ it, or *) answers 304 with no body', async () => {
    const first = await servedDocument();
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await svc.app.request('http://t/api/v1/openapi.json');
    expect(again.headers.get('etag')).toBe(first.etag);
    expect(await again.text()).toBe(first.text); // the same bytes: built once, then served from memory
    for (const tag of [first.etag, `W/${first.etag}`, `"other", ${first.etag}`, '*']) {
      const cached = await svc.app.request('http://t/api/v1/openapi.json', { headers: { 'if-none-match': tag } });
      expect(cached.status, tag).toBe(304);
      expect(await cached.text()).toBe('');
      expect(cached.headers.get('etag')).toBe(first.etag);
    }
    const stale = await svc.app.request('http://t/api/v1/openapi.json', { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('needs no credential, and the document is the same for every app built from the same routes', async () => {
    const { etag } = await servedDocument();
    const other = await makeService();
    try {
      const res = await other.app.request('http://t/api/v1/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe(etag);
    } finally {
      other.close();
    }
  });
});
