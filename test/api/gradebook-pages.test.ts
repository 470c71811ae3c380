/**
 * Large gradebooks: the grades view is paged (100 students by default, at most 1000, the
 * next page in a Link header) and the export streams its CSV a slice of students at a
 * time; both answer exactly what one whole computation answers.
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inlineGrader } from '../../src/api/grader.js';
import { readsAt } from '../../src/api/read-cache.js';
import { defaultGradebookSetup } from '../../src/domain/grading/defaults.js';
import { computeCourseGrades, type GradeSubmission, renderGradebookCsv } from '../../src/domain/grading/index.js';
import { loadSubmissionRecords } from '../../src/store/grade-cells.js';
import { courseSubmissions, listFinalGrades, listFinalGradesOf, loadSetup, publishedItems, putFinalGrade } from '../../src/store/gradebook.js';
import { getStudent, listStudents, listStudentsInSlices } from '../../src/store/users.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

/** A course with `n` students (names in reverse id order, so name order is not id order) and 3 graded items. */
function bigCourse(n: number, tokensFor: string[] = []): Promise<TestService> {
  const ids = Array.from({ length: n }, (_, i) => `s${String(i).padStart(4, '0')}`);
  const items = ['a1', 'a2', 'a3'];
  return makeService({
    users: ids.map((id, i) => ({ id, name: `Student ${String(n - i).padStart(4, '0')}` })),
    tokens: tokensFor.map((userId) => ({ token: `tok-${userId}`, userId, scopes: ['*' as const] })),
    enrollments: ids.map((id) => ({ courseId: 'c1', userId: id, role: 'student' as const })),
    gradebookSetups: [defaultGradebookSetup('c1', '2026-11-01T00:00:00Z', 'inst')],
    assignments: items.map((id, k) => ({ id, moduleId: 'm1', title: `Item ${k}`, status: 'published' as const, points: 10, categoryId: 'assignments' })),
    submissions: ids.flatMap((sid, i) =>
      items.map((aid, k) => ({
        id: `${sid}-${aid}`,
        assignmentId: aid,
        studentId: sid,
        attempt: 1,
        submittedAt: '2026-11-02T10:00:00Z',
        grade: { score: (i + k) % 11 },
      })),
    ),
    finalGrades:
      n <= 7
        ? []
        : [
            {
              courseId: 'c1',
              studentId: 's0007',
              letter: 'B',
              percent: null,
              reason: 'appeal',
              version: 1,
              updatedBy: 'inst',
              updatedAt: '2026-11-03T00:00:00Z',
            },
          ],
  });
}

/** The base service's two students (stu1, stu2) are enrolled too. */
const BASE_STUDENTS = 2;

describe('the grades view is paged', () => {
  it('100 students by default, the next page in a Link header, every student once in name order', async () => {
    svc = await bigCourse(250);
    const seen: string[] = [];
    let path: string | null = '/courses/c1/gradebook/grades';
    const sizes: number[] = [];
    const overridden: string[] = [];
    while (path) {
      const res: { status: number; body: { students: { studentId: string; override: unknown }[] }; headers: Headers } = await svc.call('GET', path);
      expect(res.status).toBe(200);
      sizes.push(res.body.students.length);
      seen.push(...res.body.students.map((s) => s.studentId));
      overridden.push(...res.body.students.filter((s) => s.override !== null).map((s) => s.studentId));
      const link: string | null = res.headers.get('link');
      path = link ? /^<\/api\/v1([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    expect(sizes).toEqual([100, 100, 50 + BASE_STUDENTS]);
    const byName = (await listStudents(svc.store, 'c1')).map((s) => s.id);
    expect(seen).toEqual(byName);
    expect(seen.slice(0, 2)).toEqual(['stu1', 's0249']); // Sam Student, then Student 0001
    // s0007 (Student 0243) is on the last page: its override is shown there, and only there.
    expect(seen.indexOf('s0007')).toBeGreaterThanOrEqual(200);
    expect(overridden).toEqual(['s0007']);
  });

  it('a page answers what the whole computation answers for its students, overrides included', async () => {
    svc = await bigCourse(30);
    const page = await svc.call('GET', '/courses/c1/gradebook/grades?limit=1000');
    expect(page.headers.get('link')).toBeNull();
    const setup = await loadSetup(svc.store, 'c1');
    const items = await publishedItems(svc.store, 'c1');
    const students = await listStudents(svc.store, 'c1');
    const records = await loadSubmissionRecords(
      svc.store,
      'c1',
      items.map((i) => i.id),
      students.map((s) => s.id),
    );
    const whole = computeCourseGrades({ setup, items, students, records, now: svc.clock.now(), detail: true });
    expect(page.body.students.map((s: { percent: number | null }) => s.percent)).toEqual(whole.students.map((s) => s.percent));
    const overridden = page.body.students.find((s: { studentId: string }) => s.studentId === 's0007');
    expect(overridden).toMatchObject({ override: { letter: 'B', percent: null, version: 1 }, finalLetter: 'B' });
  });

  it('limit is 1 to 1000; a cursor it did not give out is invalid', async () => {
    svc = await bigCourse(3);
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['cursor=nonsense', 'cursor'],
    ] as const) {
      const res = await svc.call('GET', `/courses/c1/gradebook/grades?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid');
      expect(res.body.error.details[0].path).toBe(path);
    }
  });
});

describe('the roster of a large view is read in slices', () => {
  it('listStudentsInSlices answers what listStudents does, pausing between slices', async () => {
    svc = await bigCourse(30);
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    const whole = await listStudents(svc.store, 'c1');
    expect(whole).toHaveLength(30 + BASE_STUDENTS);
    expect(await listStudentsInSlices(svc.store, 'c1', pause, 7)).toEqual(whole);
    expect(pauses).toBe(4); // 32 students: slices of 7, 7, 7, 7 and 4
    pauses = 0;
    expect(await listStudentsInSlices(svc.store, 'c1', pause, 8)).toEqual(whole);
    expect(pauses).toBe(4); // 8, 8, 8, 8, then an empty slice ends it
    expect(await listStudentsInSlices(svc.store, 'no-such-course', pause)).toEqual([]);
  });
});

describe("a page's overrides are read for its students alone", () => {
  it('listFinalGradesOf answers the overrides of the given students, in IN lists of 500, and nothing for the others', async () => {
    svc = await bigCourse(1234);
    const ids = (await listStudents(svc.store, 'c1')).map((s) => s.id);
    // Every third student gets an override, s0007's included (it has one from the seed).
    await svc.store.tx(async (tx) => {
      for (const studentId of ids.filter((id, i) => i % 3 === 0 && id !== 's0007')) {
        await putFinalGrade(tx, {
          courseId: 'c1',
          studentId,
          letter: 'A',
          percent: 97.5,
          reason: 'r',
          version: 2,
          updatedBy: 'inst',
          updatedAt: '2026-11-04T00:00:00Z',
        });
      }
    });
    const all = await listFinalGrades(svc.store, 'c1');
    expect(all.length).toBeGreaterThan(400);
    const byStudent = (list: { studentId: string }[]) => [...list].sort((a, b) => (a.studentId < b.studentId ? -1 : 1));
    // All 1,236 students (three IN lists), in reverse: every override, each once.
    expect(byStudent(await listFinalGradesOf(svc.store, 'c1', [...ids].reverse()))).toEqual(all);
    // A page's worth: exactly its own overrides; a student with none and an unknown id add nothing.
    const page = ids.slice(600, 700);
    const expected = all.filter((f) => page.includes(f.studentId));
    expect(expected.length).toBeGreaterThan(0);
    expect(byStudent(await listFinalGradesOf(svc.store, 'c1', [...page, 'nobody']))).toEqual(expected);
    expect(await listFinalGradesOf(svc.store, 'c1', [])).toEqual([]);
    expect(await listFinalGradesOf(svc.store, 'other-course', page)).toEqual([]);
  });
});

describe("serve keeps a course's roster for the next page at the same revision", () => {
  it('a page keeps the roster it read; the next page is served it; a write moves the revision and the roster is read again', async () => {
    svc = await bigCourse(30);
    const cache = svc.deps.readCache!;
    const keptRoster = () => readsAt(svc.store, cache).kept(['roster', 'c1'])?.value as { id: string }[] | undefined;
    const page = async (cursor?: string) => {
      const res = await svc.call('GET', `/courses/c1/gradebook/grades?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const link = res.headers.get('link');
      return {
        ids: (res.body.students as { studentId: string }[]).map((s) => s.studentId),
        next: link ? new URL(/^<([^>]+)>/.exec(link)![1]!, 'http://x').searchParams.get('cursor')! : null,
      };
    };
    if (svc.store.revisions() === null) return; // PostgreSQL: nothing is kept (read-cache.ts)
    // The first look at the grades builds and saves the course's grade cells (a write), so the
    // roster it read is not kept; the next request's is.
    await page();
    expect(keptRoster()).toBeUndefined();
    const first = await page();
    expect(keptRoster()?.map((s) => s.id)).toEqual((await listStudents(svc.store, 'c1')).map((s) => s.id));
    // The next page misses one value alone: its answer (a page is never kept whole); the
    // roster, the token and the access decision are the first page's.
    const before = cache.stats().misses;
    const second = await page(first.next!);
    expect(cache.stats().misses - before).toBe(1);
    expect(second.ids).toHaveLength(10);
    expect(second.ids.some((id) => first.ids.includes(id))).toBe(false);
    // A new student whose name sorts first: the write moves the revision, and the roster is read again.
    expect((await svc.call('POST', '/users', { id: 'aaa', name: 'Aaron First' })).status).toBe(201);
    expect((await svc.call('POST', '/courses/c1/enrollments', { userId: 'aaa', role: 'student' })).status).toBe(201);
    expect(keptRoster()).toBeUndefined();
    expect((await page()).ids[0]).toBe('aaa');
    // That look saved the new student's grade cells (a write again); the next one keeps the roster.
    expect((await page()).ids[0]).toBe('aaa');
    expect(keptRoster()?.[0]?.id).toBe('aaa');
  });
});

describe("a student's own view reads that student alone", () => {
  it('getStudent answers the row listStudents holds for a student, and null for anyone else', async () => {
    svc = await bigCourse(30);
    const roster = await listStudents(svc.store, 'c1');
    for (const student of [roster[0]!, roster[17]!, roster[roster.length - 1]!]) expect(await getStudent(svc.store, 'c1', student.id)).toEqual(student);
    // The instructor, a user of no course, and a student of another course id.
    expect(await getStudent(svc.store, 'c1', 'inst')).toBeNull();
    expect(await getStudent(svc.store, 'c1', 'nobody')).toBeNull();
    expect(await getStudent(svc.store, 'c2', 's0003')).toBeNull();
  });

  it("/gradebook/me answers the student's row of the whole course's computation (released grades only), without the cells", async () => {
    svc = await bigCourse(30, ['s0012']);
    /** s0012's row of the whole course computed from every student's submissions. */
    const wholeRow = async () => {
      const submissions: GradeSubmission[] = [];
      await courseSubmissions(svc.store, 'c1', null, (batch) => submissions.push(...batch));
      const grading = {
        setup: await loadSetup(svc.store, 'c1'),
        items: await publishedItems(svc.store, 'c1'),
        students: await listStudents(svc.store, 'c1'),
        submissions,
        now: svc.clock.now(),
        releasedOnly: true,
        detail: true,
      };
      const { cells: _cells, ...row } = computeCourseGrades(grading).students.find((s) => s.studentId === 's0012')!;
      return { courseId: 'c1', computedAt: svc.clock.now(), ...row };
    };
    const mine = async () => {
      const res = await svc.call('GET', '/courses/c1/gradebook/me', undefined, 's0012');
      expect(res.status).toBe(200);
      return res.body;
    };
    // Nothing released yet: the row is empty.
    expect(await mine()).toEqual(await wholeRow());
    expect((await mine()).percent).toBeNull();
    // Released, the grades count (scores 1, 2 and 3 of 10 each: 20%).
    await svc.store.run("UPDATE submissions SET released_at = '2026-11-04T00:00:00Z' WHERE student_id = 's0012'");
    expect(await mine()).toEqual(await wholeRow());
    expect((await mine()).percent).toBe(20);
  });
});

describe('the export streams', () => {
  it('a course of 1,234 students (five slices) exports the same bytes as one whole rendering', async () => {
    svc = await bigCourse(1234);
    const res = await svc.app.request('http://test/api/v1/courses/c1/gradebook/export', { headers: { authorization: 'Bearer tok-admin' } });
    expect(res.status).toBe(200);
    const { csv } = (await res.json()) as { csv: string };
    const setup = await loadSetup(svc.store, 'c1');
    const items = await publishedItems(svc.store, 'c1');
    const students = await listStudents(svc.store, 'c1');
    const records = await loadSubmissionRecords(
      svc.store,
      'c1',
      items.map((i) => i.id),
      students.map((s) => s.id),
    );
    const grades = computeCourseGrades({ setup, items, students, records, now: svc.clock.now() });
    const overrides = await listFinalGrades(svc.store, 'c1');
    expect(csv).toBe(renderGradebookCsv({ setup, items, students, grades, overrides }));
    expect(csv.split('\r\n')).toHaveLength(1234 + BASE_STUDENTS + 3);
  });

  it('layout and bom hold over a stream; a course that does not exist is an ordinary 404', async () => {
    svc = await bigCourse(2);
    const registrar = await svc.call('GET', '/courses/c1/gradebook/export?layout=registrar&bom=true');
    expect(registrar.body.csv.startsWith('\uFEFFStudent ID,Student,Email,Final %,Final Letter\r\n')).toBe(true);
    const missing = await svc.call('GET', '/courses/nope/gradebook/export');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not-found');
  });
});

describe('grading off the event loop', () => {
  it("serve's worker-thread grader answers exactly what the in-thread grader answers", async () => {
    svc = await bigCourse(40);
    const setup = await loadSetup(svc.store, 'c1');
    const items = await publishedItems(svc.store, 'c1');
    const students = await listStudents(svc.store, 'c1');
    const records = await loadSubmissionRecords(
      svc.store,
      'c1',
      items.map((i) => i.id),
      students.map((s) => s.id),
    );
    const input = { setup, items, students, records, now: svc.clock.now(), detail: true };
    // The pool loads its worker from the build (npm test builds dist/ first).
    const { workerGrader } = (await import(
      resolve(import.meta.dirname, '../../dist/serve/grading-pool.js')
    )) as typeof import('../../src/serve/grading-pool.js');
    const pool = workerGrader({ maxThreads: 1 });
    try {
      const [threaded, inline] = await Promise.all([pool.grade(input), inlineGrader.grade(input)]);
      expect(threaded.students.map((s) => [s.studentId, s.percent, s.letter])).toEqual(inline.students.map((s) => [s.studentId, s.percent, s.letter]));
      expect(Array.from(threaded.students[0]!.cells)).toEqual(Array.from(inline.students[0]!.cells));
      const job = { grading: input, courseId: 'c1', overrides: [{ studentId: 's0007', letter: 'B', percent: null, version: 1 }] };
      const text = async (grader: typeof inlineGrader) => new TextDecoder().decode(await grader.gradesView(job));
      expect(await text(pool)).toBe(await text(inlineGrader));
    } finally {
      await pool.close();
    }
  });
});
