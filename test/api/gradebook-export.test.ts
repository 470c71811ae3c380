/**
 * GET /courses/{courseId}/gradebook/export: the header-collision rule, the registrar
 * layout and the byte-order mark (issue #13). The default layout is otherwise the same
 * bytes as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultGradebookSetup } from '../../src/domain/grading/index.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const setup = {
  ...defaultGradebookSetup('c1', '2026-11-01T00:00:00.000Z', 'admin'),
  mode: 'weighted' as const,
  categories: [
    { id: 'q', courseId: 'c1', name: 'Quizzes', position: 0, weight: 50, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
    { id: 'fin', courseId: 'c1', name: 'Final', position: 1, weight: 50, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
  ],
};

const course = () =>
  makeService({
    users: [{ id: 'stu3', name: 'Élodie Ünal', email: 'elodie@example.edu' }],
    enrollments: [{ courseId: 'c1', userId: 'stu3', role: 'student' }],
    assignments: [
      { id: 'a1', moduleId: 'm1', title: 'Quiz 1', status: 'published', points: 10, categoryId: 'q' },
      { id: 'a2', moduleId: 'm1', title: 'Exam', status: 'published', points: 20, categoryId: 'fin' },
    ],
    submissions: [
      { id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-01T10:00:00Z', grade: { score: 9 } },
      { id: 's2', assignmentId: 'a2', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-01T10:00:00Z', grade: { score: 15 } },
      { id: 's3', assignmentId: 'a1', studentId: 'stu3', attempt: 1, submittedAt: '2026-11-01T10:00:00Z', grade: { score: 6 } },
    ],
    gradebookSetups: [setup],
    finalGrades: [
      { courseId: 'c1', studentId: 'stu2', letter: 'B', percent: null, reason: 'r', version: 1, updatedBy: 'inst', updatedAt: '2026-11-01T00:00:00Z' },
    ],
  });

describe('GET .../gradebook/export', () => {
  it('default layout: a category named Final is "Final (fin) %", so csv.DictReader keeps every column', async () => {
    svc = await course();
    const res = await svc.call('GET', '/courses/c1/gradebook/export', undefined, 'inst');
    expect(res.status).toBe(200);
    // stu1: q 90, fin 75 -> (50*90 + 50*75)/100 = 82.5 -> B-. stu3: q 60, fin empty -> 60.0 -> D-. stu2: nothing; override letter B.
    expect(res.body.csv).toBe(
      [
        'Student,Student ID,Quiz 1 (a1),Exam (a2),Quizzes %,Final (fin) %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter',
        'Points Possible,,10,20,,,,,,,,',
        'Sam Student,stu1,9,15,90.0,75.0,82.5,B-,,,82.5,B-',
        'Tess Student,stu2,,,,,,,,B,,B',
        'Élodie Ünal,stu3,6,,60.0,,60.0,D-,,,60.0,D-',
        '',
      ].join('\r\n'),
    );
    expect((await svc.call('GET', '/courses/c1/gradebook/export?layout=default&bom=false', undefined, 'inst')).body.csv).toBe(res.body.csv);
  });

  it('?layout=registrar: Student ID, Student, Email, Final %, Final Letter and nothing else', async () => {
    svc = await course();
    const res = await svc.call('GET', '/courses/c1/gradebook/export?layout=registrar', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body.csv).toBe(
      [
        'Student ID,Student,Email,Final %,Final Letter',
        'stu1,Sam Student,,82.5,B-',
        'stu2,Tess Student,,,B',
        'stu3,Élodie Ünal,elodie@example.edu,60.0,D-',
        '',
      ].join('\r\n'),
    );
  });

  it('?bom=true starts the CSV with U+FEFF, in either layout', async () => {
    svc = await course();
    const plain = (await svc.call('GET', '/courses/c1/gradebook/export?layout=registrar')).body.csv;
    const bom = (await svc.call('GET', '/courses/c1/gradebook/export?layout=registrar&bom=true')).body.csv;
    expect(bom).toBe(`\uFEFF${plain}`);
    expect((await svc.call('GET', '/courses/c1/gradebook/export?bom=true')).body.csv.startsWith('\uFEFFStudent,Student ID,')).toBe(true);
  });

  it('an unknown layout or bom value is invalid (400) naming the parameter', async () => {
    svc = await course();
    const res = await svc.call('GET', '/courses/c1/gradebook/export?layout=canvas');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', details: [{ path: 'layout', message: 'must be one of "default", "registrar"' }] });
    const bom = await svc.call('GET', '/courses/c1/gradebook/export?bom=yes');
    expect(bom.status).toBe(400);
    expect(bom.body.error.details).toEqual([{ path: 'bom', message: 'must be one of "true", "false"' }]);
  });

  it('a student may not export either layout (403)', async () => {
    svc = await course();
    const res = await svc.call('GET', '/courses/c1/gradebook/export?layout=registrar', undefined, 'stu1');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});
