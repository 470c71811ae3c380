import { describe, expect, it } from 'vitest';
import { percentText } from '../../../src/domain/grading/export-csv.js';
import { computeCourseGrades, plainNumber, renderGradebookCsv, textCell } from '../../../src/domain/grading/index.js';
import { item, NOW, setupWith, sub } from './fixtures.js';

describe('CSV cells', () => {
  it('prefixes text cells a spreadsheet would run as a formula', () => {
    expect(textCell('=SUM(1)')).toBe("'=SUM(1)");
    expect(textCell('+x')).toBe("'+x");
    expect(textCell('-x')).toBe("'-x");
    expect(textCell('@x')).toBe("'@x");
    expect(textCell('\tx')).toBe("'\tx");
    expect(textCell('\rx')).toBe(`"'\rx"`);
    expect(textCell('B-')).toBe('B-');
  });

  it('quotes commas, quotes and newlines', () => {
    expect(textCell('Essay, part "one"')).toBe('"Essay, part ""one"""');
    expect(textCell('two\nlines')).toBe('"two\nlines"');
  });

  it('writes numbers plainly: no trailing zeros, never exponents', () => {
    expect(plainNumber(87.5)).toBe('87.5');
    expect(plainNumber(10)).toBe('10');
    expect(plainNumber(0.25)).toBe('0.25');
    expect(plainNumber(1e21)).toBe('1000000000000000000000');
    expect(plainNumber(1e-7)).toBe('0.0000001');
  });

  it('writes percent cells with 1 decimal and never an exponent, even for an override of 1e21 (#17)', () => {
    expect(percentText(86.25)).toBe('86.3'); // toFixed's own rounding of the stored (already rounded) value
    expect(percentText(100)).toBe('100.0');
    expect(percentText(1e21)).toBe('1000000000000000000000.0'); // toFixed: '1e+21'
    expect(percentText(2.5e22)).toBe('25000000000000000000000.0');
    const setup = setupWith({ cats: [['a', 100]] });
    const items = [item('a1', 10, 'a')];
    const students = [{ id: 's1', name: 'Ann' }];
    const grades = computeCourseGrades({ setup, items, students, submissions: [sub('a1', 5)], now: NOW });
    const csv = renderGradebookCsv({ setup, items, students, grades, overrides: [{ studentId: 's1', percent: 1e21, letter: null }] });
    expect(csv.split('\r\n')[2]).toBe('Ann,s1,5,50.0,50.0,F,1000000000000000000000.0,,1000000000000000000000.0,A');
    expect(csv).not.toMatch(/e\+/);
  });
});

describe('CSV layout', () => {
  it('orders item columns by category, then course order; students by name then id; overrides in the last columns', () => {
    const setup = setupWith({
      cats: [
        ['b', 50],
        ['a', 50],
      ],
    });
    setup.categories[0]!.position = 1;
    setup.categories[1]!.position = 0; // category a comes first
    const items = [item('x1', 10, 'b'), item('y1', 4, 'a'), { ...item('=evil', 2.5, 'a'), title: '=HYPERLINK("x")' }, item('loose', 5, null)];
    const students = [
      { id: 's2', name: 'Zed' },
      { id: 's1', name: '=Bob' },
      { id: 's0', name: 'Zed' },
    ];
    const subs = [
      { ...sub('x1', 7.25), studentId: 's1' },
      { ...sub('y1', 4), studentId: 's1' },
      { ...sub('=evil', 2.5), studentId: 's1' },
      { ...sub('x1', 10), studentId: 's2' },
    ];
    const grades = computeCourseGrades({ setup, items, students, submissions: subs, now: NOW });
    const csv = renderGradebookCsv({ setup, items, students, grades, overrides: [{ studentId: 's2', percent: 95.25, letter: null }] });
    // =Bob: a = 6.5/6.5 = 100%, b = 7.25/10 = 72.5%: (50*100 + 50*72.5)/100 = 86.25 -> 86.3 B
    // Zed s0: nothing graded; y1 and =evil are missing after due but missing work is excluded by default
    // Zed s2: b = 100%, a empty -> 100.0; override 95.25 -> 95.3 -> A
    expect(csv).toBe(
      [
        'Student,Student ID,Item y1 (y1),"\'=HYPERLINK(""x"") (=evil)",Item x1 (x1),' +
          'A %,B %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter',
        'Points Possible,,4,2.5,10,,,,,,,,',
        "'=Bob,s1,4,2.5,7.25,100.0,72.5,86.3,B,,,86.3,B",
        'Zed,s0,,,,,,,,,,,',
        'Zed,s2,,,10,,100.0,100.0,A,95.3,,95.3,A',
        '',
      ].join('\r\n'),
    );
  });
});
