/**
 * Every list operation takes optional `limit` and `cursor` and answers a `Link rel="next"`
 * header while more rows follow; without them a list answers every row, as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pageOf } from '../../src/api/pagination.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

/** Five courses c1 (the base one), ca, cb, cc, cd: ids in list order. */
function fiveCourses(): Promise<TestService> {
  return makeService({
    courses: [
      { id: 'c1', title: 'Course One', description: 'A test course.' },
      ...['ca', 'cb', 'cc', 'cd'].map((id) => ({ id, title: `Course ${id}`, description: '' })),
    ],
  });
}

const nextPath = (link: string | null): string => {
  const m = /^<\/api\/v1(\/[^>]+)>; rel="next"$/.exec(link ?? '');
  if (!m) throw new Error(`not a next link: ${link}`);
  return m[1]!;
};

describe('list pagination (limit, cursor, Link rel="next")', () => {
  it('without limit a list answers every row and no Link header', async () => {
    svc = await fiveCourses();
    const all = await svc.call('GET', '/courses');
    expect(all.status).toBe(200);
    expect(all.body.map((c: { id: string }) => c.id)).toEqual(['c1', 'ca', 'cb', 'cc', 'cd']);
    expect(all.headers.get('link')).toBeNull();
  });

  it('limit=2 walks 5 rows in pages of 2, 2 and 1; the last page has no Link', async () => {
    svc = await fiveCourses();
    const first = await svc.call('GET', '/courses?limit=2');
    expect(first.body.map((c: { id: string }) => c.id)).toEqual(['c1', 'ca']);
    const second = await svc.call('GET', nextPath(first.headers.get('link')));
    expect(nextPath(first.headers.get('link'))).toMatch(/^\/courses\?limit=2&cursor=[A-Za-z0-9_-]+$/);
    expect(second.body.map((c: { id: string }) => c.id)).toEqual(['cb', 'cc']);
    const third = await svc.call('GET', nextPath(second.headers.get('link')));
    expect(third.body.map((c: { id: string }) => c.id)).toEqual(['cd']);
    expect(third.headers.get('link')).toBeNull();
  });

  it('a limit of exactly the row count answers every row and no Link', async () => {
    svc = await fiveCourses();
    const res = await svc.call('GET', '/courses?limit=5');
    expect(res.body).toHaveLength(5);
    expect(res.headers.get('link')).toBeNull();
  });

  it('other query parameters are kept in the next link (tokens ?all=true)', async () => {
    svc = await makeService();
    const res = await svc.call('GET', '/tokens?all=true&limit=4');
    expect(res.body).toHaveLength(4);
    expect(nextPath(res.headers.get('link'))).toMatch(/^\/tokens\?all=true&limit=4&cursor=/);
    const rest = await svc.call('GET', nextPath(res.headers.get('link')));
    expect(rest.body).toHaveLength(2);
  });

  it('a cursor resumes after the row it names even when an earlier row went away', async () => {
    svc = await fiveCourses();
    const first = await svc.call('GET', '/modules/m1/lessons?limit=1');
    expect(first.body).toEqual([]);
    const page = await svc.call('GET', '/courses?limit=2');
    const next = nextPath(page.headers.get('link'));
    // A new course that sorts first shifts every row down by one; the page still starts after "ca".
    await svc.call('POST', '/courses', { id: 'c0', title: 'Earlier' });
    const second = await svc.call('GET', next);
    expect(second.body.map((c: { id: string }) => c.id)).toEqual(['cb', 'cc']);
  });

  it('limit 0, 1001 or text, and a cursor the list never gave out, are invalid (400) naming the parameter', async () => {
    svc = await fiveCourses();
    for (const [query, message] of [
      ['limit=0', 'limit: must be >= 1'],
      ['limit=1001', 'limit: must be <= 1000'],
      ['limit=ten', 'limit: must be a number'],
      ['cursor=bogus', 'cursor: is not a cursor this list gave out; start again without it'],
    ]) {
      const res = await svc.call('GET', `/courses?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid', message });
    }
  });

  it('authorization still comes first: an outsider gets 404 for a course list page, not a validation error', async () => {
    svc = await fiveCourses();
    const res = await svc.call('GET', '/courses/c1/enrollments?limit=0', undefined, 'out');
    expect(res.status).toBe(404);
  });

  it('the OpenAPI document lists limit and cursor and the Link header on list operations only', async () => {
    svc = await makeService();
    const doc = (await svc.call('GET', '/openapi.json', undefined, null)).body;
    const list = doc.paths['/api/v1/courses'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'cursor']);
    expect(list.responses['200'].headers.Link).toBeDefined();
    const one = doc.paths['/api/v1/courses/{courseId}'].get;
    expect((one.parameters ?? []).map((p: { name: string }) => p.name)).toEqual(['courseId']);
  });
});

describe('pageOf', () => {
  const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  it('cuts pages and resumes at the offset when the named row is gone', () => {
    const first = pageOf(rows, { limit: 2 });
    expect(first.rows).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(pageOf(rows, { cursor: first.next! }).rows).toEqual([{ id: 'c' }]);
    // "b" deleted: resume at offset 2, which is now past the end.
    expect(pageOf([{ id: 'a' }, { id: 'c' }], { cursor: first.next!, limit: 2 })).toEqual({ rows: [], next: null });
    // rows without ids page by offset
    const plain = pageOf([1, 2, 3], { limit: 1 });
    expect(pageOf([1, 2, 3], { cursor: plain.next!, limit: 1 }).rows).toEqual([2]);
  });
});
