/**
 * The pure pieces behind the CLI's conventions, with hand-worked numbers: relative times,
 * fitting columns, JSON for a terminal, what a create is called, Link and Retry-After
 * headers, backoff, limits, the edit loop's comments, prompt validators.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VALIDATE } from '../../../src/cli/answer-checks.js';
import { backoffMs, nextPageFromLink, retryAfterMs, serviceRoot, unreachableReason } from '../../../src/cli/client.js';
import { UsageError } from '../../../src/cli/command.js';
import { errorComments, stripLeadingComments } from '../../../src/cli/edit-loop.js';
import { prettyJson } from '../../../src/cli/json-output.js';
import { parseLimit, withQueryParam } from '../../../src/cli/paginate.js';
import { isTimestamp, relativeTime } from '../../../src/cli/relative-time.js';
import { createdKind } from '../../../src/cli/render.js';
import { fitColumns, truncate } from '../../../src/cli/table-fit.js';
import { AppError } from '../../../src/errors.js';
import { forEachConcurrently } from '../../../src/runtime/pool.js';

const NOW = '2026-11-22T08:30:00.000Z';

describe('relativeTime', () => {
  it.each([
    ['2026-11-22T08:29:31.000Z', 'just now'], // 29 s ago
    ['2026-11-22T08:30:59.999Z', 'just now'], // 59.999 s ahead
    ['2026-11-22T08:29:00.000Z', '1 minute ago'], // exactly 60 s
    ['2026-11-22T07:31:00.000Z', '59 minutes ago'],
    ['2026-11-22T06:30:00.000Z', '2 hours ago'],
    ['2026-11-23T08:29:00.000Z', 'in 23 hours'], // 23 h 59 min: whole hours, rounded down
    ['2026-11-25T08:30:00.000Z', 'in 3 days'],
    ['2026-10-24T08:30:00.000Z', '29 days ago'],
    ['2026-10-23T08:30:00.000Z', '1 month ago'], // exactly 30 days: a month of 30 days
    ['2026-08-01T09:00:00.000Z', '3 months ago'], // 112 days 23.5 h / 30 = 3.76
    ['2025-11-23T08:30:00.000Z', '12 months ago'], // 364 days: 12 months of 30 days
    ['2025-11-22T08:30:00.000Z', '1 year ago'], // exactly 365 days
    ['2024-11-22T08:30:00.000Z', '2 years ago'], // 730 days
    ['2026-11-22T09:30:00.000+01:00', 'just now'], // the same instant in another zone
  ])('%s is %s', (at, expected) => {
    expect(relativeTime(at, NOW)).toBe(expected);
  });

  it('only RFC 3339 timestamps with a time and a zone count as timestamps', () => {
    expect(isTimestamp('2026-11-22T08:30:00.000Z')).toBe(true);
    expect(isTimestamp('2026-11-22T08:30Z')).toBe(true);
    expect(isTimestamp('2026-11-22')).toBe(false);
    expect(isTimestamp('2026-13-40T00:00:00Z')).toBe(false);
    expect(isTimestamp('crs_2026-11-22T08:30:00Z')).toBe(false);
    expect(isTimestamp(20261122)).toBe(false);
  });
});

describe('fitColumns and truncate', () => {
  it('hand-worked: 11, 17, 6, 12 with gaps of 2 into 40: the title and the time give way, the id keeps 11', () => {
    // 46 + 6 = 52; 12 to give: title 17 -> 12 (5), then title and time in turn down to 8 and 9.
    expect(fitColumns([11, 17, 6, 12], [2, 5, 6, 7], 40, 2)).toEqual([11, 8, 6, 9]);
  });

  it('nothing changes when the table fits, or when there is no terminal width', () => {
    expect(fitColumns([11, 17, 6, 12], [2, 5, 6, 7], 52, 2)).toEqual([11, 17, 6, 12]);
    expect(fitColumns([11, 17], [2, 5], undefined, 2)).toEqual([11, 17]);
  });

  it('a column never gets narrower than its header or 8; the first column gives way last; too narrow a terminal keeps the floors', () => {
    expect(fitColumns([30, 30], [2, 12], 10, 2)).toEqual([8, 12]);
    expect(fitColumns([20, 9], [2, 3], 20, 2)).toEqual([10, 8]);
  });

  it('property: the widths fit whenever the floors fit, and never grow', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 10, max: 200 }), (natural, available) => {
        const headers = natural.map((w) => Math.min(w, 4));
        const widths = fitColumns(natural, headers, available, 2);
        const floors = natural.map((w, i) => Math.min(w, Math.max(headers[i]!, 8)));
        const total = (ws: number[]) => ws.reduce((a, b) => a + b, 0) + 2 * (ws.length - 1);
        widths.forEach((w, i) => expect(w).toBeLessThanOrEqual(natural[i]!));
        widths.forEach((w, i) => expect(w).toBeGreaterThanOrEqual(floors[i]!));
        if (total(floors) <= available) expect(total(widths)).toBeLessThanOrEqual(available);
      }),
    );
  });

  it('truncate cuts to the width with an ellipsis as the last character', () => {
    expect(truncate('Data Literacy 101', 8)).toBe('Data Li…');
    expect(truncate('Data', 4)).toBe('Data');
    expect(truncate('Ünïcödé', 5)).toBe('Ünïc…');
    expect(truncate('abc', 0)).toBe('');
  });
});

describe('prettyJson', () => {
  it('is JSON.stringify with two spaces, plus colours when asked', () => {
    const value = { a: [1, 'x', null, true], b: {}, c: [] };
    expect(prettyJson(value, false)).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(prettyJson('s', true)).toBe('\x1b[32m"s"\x1b[39m\n');
    expect(prettyJson({ k: 1 }, true)).toBe('{\n  \x1b[34m"k"\x1b[39m: \x1b[33m1\x1b[39m\n}\n');
  });
});

describe('createdKind', () => {
  it.each([
    ['/courses', 'course'],
    ['/modules/m1/lessons', 'lesson'],
    ['/courses/c1/modules', 'module'],
    ['/templates/t1/courses', 'course'],
    ['/certificates/cert_1/replace', 'certificate'],
    ['/courses/import', 'course'],
    ['/reporting-lines', 'reporting line'],
    ['/submissions/s1/grade', 'submission'],
    ['/health', undefined],
    ['/tokens?all=true', 'token'],
    ['/_admin/faults', 'fault'],
    ['/_reset', undefined],
  ])('%s creates a %s', (path, kind) => {
    expect(createdKind(path)).toBe(kind);
  });
});

describe('Link and Retry-After', () => {
  const req = 'http://host:8080/api/v1/courses?limit=2';
  it('the next link, relative or absolute on the same origin, as a path under /api/v1', () => {
    expect(nextPageFromLink('</api/v1/courses?limit=2&cursor=abc>; rel="next"', req)).toBe('/courses?limit=2&cursor=abc');
    expect(nextPageFromLink('<http://host:8080/api/v1/courses?cursor=x>; rel=next', req)).toBe('/courses?cursor=x');
    expect(nextPageFromLink('</api/v1/a>; rel="prev", </api/v1/b>; rel="next last"', req)).toBe('/b');
    expect(nextPageFromLink('<https://elsewhere.example/api/v1/courses>; rel="next"', req)).toBeUndefined();
    expect(nextPageFromLink('</api/v1/a>; rel="prev"', req)).toBeUndefined();
    expect(nextPageFromLink(undefined, req)).toBeUndefined();
  });

  it('Retry-After: seconds, or an HTTP date against now; unreadable is undefined', () => {
    expect(retryAfterMs('7', NOW)).toBe(7000);
    expect(retryAfterMs(['0'], NOW)).toBe(0);
    expect(retryAfterMs('Sun, 22 Nov 2026 08:30:05 GMT', NOW)).toBe(5000);
    expect(retryAfterMs('Sun, 22 Nov 2026 08:29:05 GMT', NOW)).toBe(0);
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
  });

  it('backoff doubles from half a second', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([500, 1000, 2000, 4000]);
  });
});

describe('serviceRoot: a service URL in its one form', () => {
  it('the root and the API, with or without slashes, are one URL: lower-case scheme and host, no default port, no credentials, query or fragment', () => {
    for (const given of ['http://host:8080', 'http://host:8080/', 'http://host:8080/api/v1', 'http://host:8080/api/v1/', 'HTTP://Host:8080/api/v1//'])
      expect(serviceRoot(given)).toBe('http://host:8080');
    expect(serviceRoot('https://bob:pw@Courses.Example.edu:443/api/v1?x=1#top')).toBe('https://courses.example.edu');
    expect(serviceRoot('https://example.edu/lms/api/v1/')).toBe('https://example.edu/lms');
    // The path is the service's: its case is kept, and /api/v1 is taken off once.
    expect(serviceRoot('https://example.edu/LMS/API/V1')).toBe('https://example.edu/LMS/API/V1');
    expect(serviceRoot('http://[::1]:8080/api/v1/api/v1')).toBe('http://[::1]:8080/api/v1');
  });

  it('anything but an http(s) URL is a usage error, without credentials in the message', () => {
    expect(() => serviceRoot('ftp://host/x')).toThrow(new UsageError('--base-url is not an http(s) URL: "ftp://host/x"'));
    expect(() => serviceRoot('bob:pw@host')).toThrow(new UsageError('--base-url is not an http(s) URL: "host"'));
    expect(() => serviceRoot('http://bob:pw@')).toThrow(new UsageError('--base-url is not an http(s) URL: "http://"'));
  });
});

describe('unreachableReason', () => {
  it("undici's codes as a reason with the code after it; the system's codes as they are", () => {
    expect(unreachableReason('UND_ERR_SOCKET')).toBe('the connection was closed before a complete answer (UND_ERR_SOCKET)');
    expect(unreachableReason('UND_ERR_HEADERS_TIMEOUT')).toBe('no answer came in time (UND_ERR_HEADERS_TIMEOUT)');
    expect(unreachableReason('UND_ERR_SOMETHING_NEW')).toBe('the connection failed (UND_ERR_SOMETHING_NEW)');
    expect(unreachableReason('ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(unreachableReason('getaddrinfo ENOTFOUND x')).toBe('getaddrinfo ENOTFOUND x');
  });
});

describe('--limit and query parameters', () => {
  it('parseLimit takes whole numbers from 1', () => {
    expect(parseLimit('25')).toBe(25);
    expect(parseLimit(undefined)).toBeUndefined();
    for (const bad of ['0', '-3', '1.5', 'x', '', '1e3']) expect(() => parseLimit(bad)).toThrow(UsageError);
  });

  it('withQueryParam keeps the other parameters', () => {
    expect(withQueryParam('/tokens?all=true', 'limit', '5')).toBe('/tokens?all=true&limit=5');
    expect(withQueryParam('/courses', 'limit', '5')).toBe('/courses?limit=5');
    expect(withQueryParam('/courses?limit=1', 'limit', '5')).toBe('/courses?limit=5');
  });
});

describe('forEachConcurrently', () => {
  it('runs at most N at once, every item once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      await Promise.resolve();
      done.push(n);
      running--;
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('after a failure no new item starts; the failure is thrown', async () => {
    const started: number[] = [];
    await expect(
      forEachConcurrently([1, 2, 3, 4, 5], 2, async (n) => {
        started.push(n);
        if (n === 2) throw new Error('boom');
        await Promise.resolve();
      }),
    ).rejects.toThrow('boom');
    // Item 1 was running when 2 failed: it finishes, and 3 never starts.
    expect(started).toEqual([1, 2]);
  });
});

describe('the edit loop comments', () => {
  it('strips every leading // line, and only those', () => {
    expect(stripLeadingComments('// a\n  // b\n{\n  "x": "// not a comment"\n}\n')).toBe('{\n  "x": "// not a comment"\n}\n');
    expect(stripLeadingComments('{}\n')).toBe('{}\n');
  });

  it('writes the error as the CLI prints it, and what a conflict needs', () => {
    const text = errorComments(new AppError('conflict', 'The setup is at version 4, not 3.', { currentVersion: 4 }));
    expect(text).toBe(
      [
        '// error (conflict): The setup is at version 4, not 3.',
        '// Someone saved version 4 meanwhile: set "version" to it to replace their change with yours.',
        '// Saving failed. Fix the document below and save to try again; save it unchanged, or empty it, to give up.',
        '// These comment lines are removed before saving.',
        '',
      ].join('\n'),
    );
    expect(
      errorComments(
        new AppError('invalid', '2 problems', [
          { path: 'a', message: 'x' },
          { path: 'b', message: 'y' },
        ]),
      ).split('\n')[1],
    ).toBe('//   a: x');
  });
});

describe('prompt validators', () => {
  it('minutes: a whole number from 1 to 240, with the API own words', () => {
    expect(['1', '240', ' 30 '].map(VALIDATE.minutes)).toEqual([true, true, true]);
    expect(['0', '241', '2.5', 'ten', ''].map(VALIDATE.minutes)).toEqual([
      'must be >= 1',
      'must be <= 240',
      'must be an integer',
      'must be a number',
      'a value is required',
    ]);
  });

  it('a URL must be http(s); a letter must be one of the scheme', () => {
    expect(VALIDATE.url('https://example.org/x')).toBe(true);
    expect(VALIDATE.url('ftp://example.org')).not.toBe(true);
    const letter = VALIDATE.letter(['A', 'B', 'C']);
    expect(letter('B')).toBe(true);
    expect(letter('E')).toBe("must be one of the scheme's letters: A, B, C");
  });
});
