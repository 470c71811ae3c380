/**
 * The export's header rule (every header unique) and its two layouts (issue #13), with
 * hand-worked grades.
 */
import { describe, expect, it } from 'vitest';
import { computeCourseGrades, type GradebookSetup, renderGradebookCsv } from '../../../src/domain/grading/index.js';
import { item, NOW, setupWith, sub } from './fixtures.js';

const named = (setup: GradebookSetup, names: Record<string, string>): GradebookSetup => ({
  ...setup,
  categories: setup.categories.map((c) => ({ ...c, name: names[c.id] ?? c.name })),
});

function csvOf(setup: GradebookSetup, items = [item('x1', 10, setup.categories[0]!.id)], layout?: 'default' | 'registrar') {
  const students = [{ id: 's1', name: 'Sam', email: 'sam@example.edu' }];
  const grades = computeCourseGrades({ setup, items, students, submissions: [sub(items[0]!.id, 8)], now: NOW });
  return renderGradebookCsv({ setup, items, students, grades, overrides: [], ...(layout ? { layout } : {}) });
}

const header = (csv: string) => csv.split('\r\n')[0]!.split(',');

describe('export headers are unique', () => {
  it('a category named Final is written "Final (<id>) %": it would collide with the fixed Final % column', () => {
    const setup = named(
      setupWith({
        cats: [
          ['quiz', 40],
          ['fin', 60],
        ],
      }),
      { quiz: 'Quizzes', fin: 'Final' },
    );
    expect(header(csvOf(setup))).toEqual([
      'Student',
      'Student ID',
      'Item x1 (x1)',
      'Quizzes %',
      'Final (fin) %',
      'Calculated %',
      'Calculated Letter',
      'Override %',
      'Override Letter',
      'Final %',
      'Final Letter',
    ]);
  });

  it('two categories with the same name both carry their ids; the others keep their plain header', () => {
    const setup = named(
      setupWith({
        cats: [
          ['a', 30],
          ['b', 30],
          ['c', 40],
        ],
      }),
      { a: 'Labs', b: 'Labs', c: 'Essays' },
    );
    expect(header(csvOf(setup)).slice(3, 6)).toEqual(['Labs (a) %', 'Labs (b) %', 'Essays %']);
  });

  it('names that collide with Calculated % and Override % are renamed too', () => {
    const setup = named(
      setupWith({
        cats: [
          ['a', 50],
          ['b', 50],
        ],
      }),
      { a: 'Calculated', b: 'Override' },
    );
    expect(header(csvOf(setup)).slice(3, 5)).toEqual(['Calculated (a) %', 'Override (b) %']);
  });

  it('a renamed header that collides again renames the other category as well', () => {
    // fin -> "Final (fin) %", which is exactly the plain header of the category named "Final (fin)".
    const setup = named(
      setupWith({
        cats: [
          ['fin', 50],
          ['other', 50],
        ],
      }),
      { fin: 'Final', other: 'Final (fin)' },
    );
    const cats = header(csvOf(setup)).slice(3, 5);
    expect(cats).toEqual(['Final (fin) %', 'Final (fin) (other) %']);
  });

  it('ids that imitate another renamed header get a number as a last resort, so headers stay unique', () => {
    // Z/"a) (b" and Z/c collide, so do "Z (a)"/b and "Z (a)"/d; renamed, the first and third are both "Z (a) (b) %".
    const setup = named(
      setupWith({
        cats: [
          ['a) (b', 25],
          ['c', 25],
          ['b', 25],
          ['d', 25],
        ],
      }),
      { 'a) (b': 'Z', c: 'Z', b: 'Z (a)', d: 'Z (a)' },
    );
    const all = header(csvOf(setup));
    expect(all.slice(3, 7)).toEqual(['Z (a) (b) 2 %', 'Z (c) %', 'Z (a) (b) 3 %', 'Z (a) (d) %']);
    expect(new Set(all).size).toBe(all.length);
  });

  it('without a collision the default layout is unchanged (the plain "<name> %")', () => {
    const setup = setupWith({ cats: [['q', 100]] });
    expect(csvOf(setup)).toBe(
      [
        'Student,Student ID,Item x1 (x1),Q %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter',
        'Points Possible,,10,,,,,,,',
        'Sam,s1,8,80.0,80.0,B-,,,80.0,B-',
        '',
      ].join('\r\n'),
    );
  });
});

describe('registrar layout', () => {
  it('Student ID, Student, Email, Final %, Final Letter: one row per student, no points row, overrides applied', () => {
    const setup = setupWith({ cats: [['q', 100]] });
    const items = [item('x1', 10, 'q'), item('x2', 10, 'q')];
    const students = [
      { id: 's2', name: 'Zoe', email: null },
      { id: 's1', name: 'Sam', email: 'sam@example.edu' },
      { id: 's3', name: '=Eve', email: '+eve@example.edu' },
    ];
    const subs = [sub('x1', 8), sub('x2', 9.5), { ...sub('x1', 10), studentId: 's2' }];
    const grades = computeCourseGrades({ setup, items, students, submissions: subs, now: NOW });
    // Sam: 17.5 / 20 = 87.5 -> B+. Zoe: 10/10 = 100, overridden to 89.96 -> 90.0 -> A-. Eve: nothing graded: empty.
    const csv = renderGradebookCsv({ setup, items, students, grades, overrides: [{ studentId: 's2', percent: 89.96, letter: null }], layout: 'registrar' });
    expect(csv).toBe(
      ['Student ID,Student,Email,Final %,Final Letter', "s3,'=Eve,'+eve@example.edu,,", 's1,Sam,sam@example.edu,87.5,B+', 's2,Zoe,,90.0,A-', ''].join('\r\n'),
    );
  });
});
