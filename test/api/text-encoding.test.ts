/**
 * #17: text with lone UTF-16 surrogates or bytes that are not UTF-8 is refused with
 * `invalid` naming each field, never stored altered (one check for every JSON body).
 * #18: so is U+0000, which PostgreSQL cannot store: in bodies, datasets, ids in paths and
 * queries, with the same answer on both stores.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJsonText } from '../../src/api/json-text.js';
import { AppError } from '../../src/errors.js';
import { malformedUtf8Offsets } from '../../src/runtime/utf8.js';
import { jsonTextMayHoldNonText, stringProblems, textProblem, textProblems } from '../../src/schemas/text.js';
import { importDataset } from '../../src/store/dataset.js';
import { makeService, type TestService, testClock } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const utf8 = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...utf8(p)] : p)));

async function post(path: string, body: RequestInit['body'], as = 'admin') {
  const res = await svc.app.request(`http://t/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer tok-${as}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error: { code: string; message: string; details: { path: string; message: string }[] } } };
}

describe('malformedUtf8Offsets (RFC 3629)', () => {
  it.each([
    ['ASCII', [0x61, 0x62], []],
    ['2, 3 and 4-byte sequences', [...utf8('é€😀')], []],
    ['a lone continuation byte', [0x61, 0x80, 0x62], [1]],
    ['0xFF', [0xff], [0]],
    ['an overlong "/" (C0 AF)', [0xc0, 0xaf], [0, 1]],
    ['an overlong 3-byte NUL (E0 80 80)', [0xe0, 0x80, 0x80], [0, 1, 2]],
    ['an encoded surrogate U+D800 (ED A0 80)', [0xed, 0xa0, 0x80], [0, 1, 2]],
    ['past U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80], [0, 1, 2, 3]],
    ['a truncated sequence at the end', [0x61, 0xe2, 0x82], [1, 2]],
  ])('%s -> %j', (_name, input, want) => {
    expect(malformedUtf8Offsets(new Uint8Array(input))).toEqual(want);
  });

  it('agrees with the platform strict decoder on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (input) => {
        let strictOk = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(input);
        } catch {
          strictOk = false;
        }
        expect(malformedUtf8Offsets(input).length === 0).toBe(strictOk);
      }),
    );
  });
});

describe('checkJsonText', () => {
  it('names each field holding bad text, keys included, with dotted and bracketed paths', () => {
    const lone = checkJsonText(utf8('{"a":"ok","b":["x","\\ud800"],"c":{"d\\udc00":"y"},"e":"😀 and \\ud83d\\ude00"}'));
    expect(lone.problems.map((p) => p.path)).toEqual(['b[1]', 'c.d\udc00']);
    const bad = checkJsonText(bytes('{"title":"caf', [0xe9], '","objectives":["fine","', [0xff, 0xfe], '"]}'));
    expect(bad.problems).toEqual([
      { path: 'title', message: 'is not valid UTF-8 text: send the text encoded as UTF-8' },
      { path: 'objectives[1]', message: 'is not valid UTF-8 text: send the text encoded as UTF-8' },
    ]);
  });

  it('a body that holds U+FFFD itself is fine; only the malformed field is named', () => {
    const mixed = checkJsonText(bytes('{"a":"\uFFFD and \uE000","b":"', [0xc3], '"}'));
    expect(mixed.problems.map((p) => p.path)).toEqual(['b']);
  });

  it('bad bytes outside any string name the body; malformed JSON is left to validation', () => {
    expect(checkJsonText(bytes('{"a":1', [0xff], '}')).problems.map((p) => p.path)).toEqual(['(body)']);
    expect(checkJsonText(utf8('{"a":')).problems).toEqual([]);
  });

  it('deep nesting neither overflows the stack nor copies paths (100,000 levels, a 200 KB body)', () => {
    const deep = `${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`;
    const { problems } = checkJsonText(utf8(deep));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe('[0]'.repeat(100_000));
  });
});

describe('the fast paths of the text check', () => {
  // Strings built from the characters that matter: NUL, high and low surrogates, text around them.
  const unit = fc.constantFrom('a', 'é', '\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '😀', '\\', 'u0000');
  const text = fc.array(unit, { maxLength: 6 }).map((units) => units.join(''));
  const doc = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(text, tie('node'), { maxKeys: 3 }),
    ),
  })).node;

  it('textProblems finds exactly what the full walk finds', () => {
    fc.assert(
      fc.property(doc, (d) => {
        expect(textProblems(d)).toEqual(stringProblems(d, textProblem));
      }),
      { numRuns: 500 },
    );
  });

  it('JSON text the quick look passes holds no string that is not text once parsed', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const json = JSON.stringify(d);
        if (!jsonTextMayHoldNonText(json)) expect(stringProblems(JSON.parse(json), textProblem)).toEqual([]);
      }),
      { numRuns: 500 },
    );
    // A false alarm costs only the walk.
    expect(jsonTextMayHoldNonText(JSON.stringify({ path: '\\u0000' }))).toBe(true);
    expect(checkJsonText(utf8(JSON.stringify({ path: '\\u0000' }))).problems).toEqual([]);
    expect(checkJsonText(utf8('{"a":"\\uD83D\\uDE00","b":"\\ud800"}')).problems.map((p) => p.path)).toEqual(['b']);
  });
});

describe('every JSON body, through the app', () => {
  it('a lone surrogate is 400 invalid naming the field, and nothing is stored', async () => {
    svc = await makeService();
    const res = await post('/courses', JSON.stringify({ id: 'c9', title: 'T' }).replace('"T"', '"T \\ud800"'));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.details).toEqual([{ path: 'title', message: 'contains a lone UTF-16 surrogate, which is not text: send well-formed Unicode' }]);
    expect((await svc.call('GET', '/courses/c9')).status).toBe(404);
  });

  it('invalid UTF-8 is 400 invalid naming the field (not turned into U+FFFD), and nothing is stored', async () => {
    svc = await makeService();
    const res = await post('/modules/m1/lessons', bytes('{"title":"Intro ', [0xc3, 0x28], '","minutes":5}'));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', details: [{ path: 'title', message: expect.stringMatching(/not valid UTF-8/) }] });
    expect((await svc.call('GET', '/modules/m1/lessons')).body).toEqual([]);
  });

  it('nested fields of a big document (a dataset import) are named with their paths', async () => {
    svc = await makeService();
    const res = await post(
      '/import',
      JSON.stringify({
        coursebook: 1,
        users: [
          { id: 'u1', name: 'Ok' },
          { id: 'u2', name: 'Bad \ud800' },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.path)).toEqual(['users[1].name']);
    expect((await svc.call('GET', '/users/u1')).status).toBe(404); // all or nothing
  });

  it('well-formed text outside the BMP is stored exactly', async () => {
    svc = await makeService();
    const title = 'Émoji 😀, CJK 漢字, and a replacement char \uFFFD';
    const res = await post('/courses', bytes(JSON.stringify({ id: 'c8', title })));
    expect(res.status).toBe(201);
    expect((await svc.call('GET', '/courses/c8')).body.title).toBe(title);
  });

  it('the check comes after access: no credential is 401, an outsider 404, before any 400', async () => {
    svc = await makeService();
    const body = JSON.stringify({ title: 'x' }).replace('"x"', '"\\udfff"');
    const none = await svc.app.request('http://t/api/v1/modules/m1/lessons', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(none.status).toBe(401);
    expect((await post('/modules/m1/lessons', body, 'out')).status).toBe(404);
    expect((await post('/modules/m1/lessons', body, 'stu1')).status).toBe(403);
    expect((await post('/modules/m1/lessons', body, 'inst')).status).toBe(400);
  });

  it('malformed JSON keeps its own answer ((body): malformed JSON)', async () => {
    svc = await makeService();
    const res = await post('/courses', '{"title":');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: '(body)', message: 'malformed JSON' }]);
  });
});

describe('union-with-null fields name their own problems (orNull)', () => {
  it('a provenance object with a bad field names provenance.model; a number is "an object or null"', async () => {
    svc = await makeService();
    const bad = await svc.call(
      'PUT',
      '/courses/c1/readiness/items/2.2/finding',
      { verdict: 'met', evidence: 'e', provenance: { model: '', task: 't', generatedAt: '2026-11-01T00:00:00Z', sources: [], summary: '' } },
      'inst',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: 'provenance.model', message: 'must not be empty' }]);
    const number = await svc.call('PUT', '/courses/c1/readiness/items/2.2/finding', { verdict: 'met', evidence: 'e', provenance: 5 }, 'inst');
    expect(number.body.error.details).toEqual([{ path: 'provenance', message: 'must be an object or null' }]);
  });
});

describe('U+0000 (NUL) is refused before either store sees it (#18)', () => {
  const NUL = 'contains U+0000 (NUL), which text may not hold: remove it';

  it('checkJsonText names each value and key holding one', () => {
    const { problems } = checkJsonText(utf8('{"title":"a\\u0000b","objectives":["ok","\\u0000"],"k\\u0000":1}'));
    expect(problems).toEqual([
      { path: 'title', message: NUL },
      { path: 'objectives[1]', message: NUL },
      { path: 'k\u0000', message: NUL },
    ]);
  });

  it('in a JSON body: 400 invalid naming the field, and nothing is stored', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses', { id: 'c9', title: 'Intro\u0000' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', details: [{ path: 'title', message: NUL }] });
    const lesson = await svc.call('POST', '/modules/m1/lessons', { title: 'L', minutes: 5, blocks: [{ type: 'paragraph', text: 'x\u0000' }] }, 'inst');
    expect(lesson.body.error.details).toEqual([{ path: 'blocks[0].text', message: NUL }]);
    expect((await svc.call('GET', '/courses/c9')).status).toBe(404);
    expect((await svc.call('GET', '/modules/m1/lessons')).body).toEqual([]);
  });

  it('in an id of the path or the query: 400 naming it, or not-found where access looks the id up first', async () => {
    svc = await makeService();
    const user = await svc.call('GET', '/users/u%00');
    expect(user.status).toBe(400);
    expect(user.body.error.details).toEqual([{ path: 'userId', message: NUL }]);
    const filter = await svc.call('GET', '/certificates?courseId=c1%00');
    expect(filter.body.error.details).toEqual([{ path: 'courseId', message: NUL }]);
    // Access resolves the course before validation: an id no record can hold is not-found, as any unknown id.
    const course = await svc.call('GET', '/courses/c1%00');
    expect(course.status).toBe(404);
    expect(course.body.error.code).toBe('not-found');
    expect((await svc.call('GET', '/certificate-codes/AAAA%00')).body).toEqual({ valid: false, current: false, certificate: null });
  });

  it('in a dataset that reaches the store without a request (serve --seed): invalid naming the field, nothing imported', async () => {
    svc = await makeService();
    const dataset = { coursebook: 1, users: [{ id: 'u1', name: 'Ok' }], courses: [{ id: 'c2', title: 'T', description: 'a\u0000' }] };
    const failure = await importDataset(svc.store, testClock(), dataset, { replace: false }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).details).toEqual([{ path: 'courses[0].description', message: NUL }]);
    expect((await svc.call('GET', '/users/u1')).status).toBe(404);
  });
});
