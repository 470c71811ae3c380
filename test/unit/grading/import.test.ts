/**
 * Reading a gradebook spreadsheet and planning its import (issue #13), pure: the export's
 * layout in, item columns, student rows and problems out; then which cells change.
 */
import { describe, expect, it } from 'vitest';
import { cellPlace, columnName, itemIdOfHeader, parseScoreCell, pointsPossibleProblems, readGradesSheet } from '../../../src/domain/grading/import-csv.js';
import { type ImportFacts, planGradesImport } from '../../../src/domain/grading/import-plan.js';

describe('columnName and cellPlace', () => {
  it('numbers columns like a spreadsheet', () => {
    expect([1, 2, 26, 27, 52, 53, 702, 703].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(cellPlace(5, 4)).toBe('row 5, column D');
    expect(cellPlace(undefined, 28)).toBe('column AB');
    expect(cellPlace(7, undefined)).toBe('row 7');
  });
});

describe('parseScoreCell', () => {
  it('blank is null; plain decimals (and exponents) are numbers; anything else is not a number', () => {
    expect(parseScoreCell('')).toEqual({ score: null });
    expect(parseScoreCell('   ')).toEqual({ score: null });
    expect(parseScoreCell(' 8.50 ')).toEqual({ score: 8.5 });
    expect(parseScoreCell('0')).toEqual({ score: 0 });
    expect(parseScoreCell('.5')).toEqual({ score: 0.5 });
    expect(parseScoreCell('7.')).toEqual({ score: 7 });
    expect(parseScoreCell('-3')).toEqual({ score: -3 });
    expect(parseScoreCell('1E+3')).toEqual({ score: 1000 });
    for (const text of ['8,5', 'abc', 'EX', '-', '8 pts', '$8', "'8", '1e999', 'NaN', 'Infinity', '0x10']) {
      expect(parseScoreCell(text)).toEqual({ notANumber: text });
    }
  });
});

describe('itemIdOfHeader', () => {
  it('takes the id from the last parentheses of "<title> (<id>)"; other headers are not items', () => {
    expect(itemIdOfHeader('Quiz 1 (asg_01)')).toBe('asg_01');
    expect(itemIdOfHeader('Essay (part 1) (a3)')).toBe('a3');
    expect(itemIdOfHeader('\'=HYPERLINK("x") (=evil)')).toBe('=evil');
    expect(itemIdOfHeader('Quizzes %')).toBeNull();
    expect(itemIdOfHeader('Final (cat_final) %')).toBeNull();
    expect(itemIdOfHeader('Calculated Letter')).toBeNull();
    expect(itemIdOfHeader('Notes')).toBeNull();
  });
});

describe('readGradesSheet', () => {
  const HEADER = 'Student,Student ID,Quiz 1 (a1),"Essay, part ""one"" (a3)",Quizzes %,Notes,Calculated %,Final %,Final Letter';

  it('reads the export layout: item columns, one row per student; the Points Possible row is kept aside and other columns are ignored', () => {
    const csv = `\uFEFF${HEADER}\r\nPoints Possible,,10,50,,,,,\r\nSam,stu1,8,41.5,80.0,late,80.0,80.0,B-\r\n'=Bob,'-stu2,,7,,,,,\r\n`;
    expect(readGradesSheet(csv)).toEqual({
      items: [
        { itemId: 'a1', column: 3 },
        { itemId: 'a3', column: 4 },
      ],
      rows: [
        { studentId: 'stu1', row: 3, scores: [8, 41.5] },
        { studentId: '-stu2', row: 4, scores: [null, 7] },
      ],
      problems: [],
      pointsPossible: { row: 2, cells: ['10', '50'] },
    });
  });

  it('skips blank lines, reads short rows as blanks, keeps spreadsheet row numbers (a quoted newline is one row)', () => {
    const csv = `Student ID,"Two\nlines (a1)",Quiz (a2)\r\n\r\nstu1,5\r\nstu2\r\n`;
    expect(readGradesSheet(csv)).toEqual({
      items: [
        { itemId: 'a1', column: 2 },
        { itemId: 'a2', column: 3 },
      ],
      rows: [
        { studentId: 'stu1', row: 3, scores: [5, null] },
        { studentId: 'stu2', row: 4, scores: [null, null] },
      ],
      problems: [],
      pointsPossible: null,
    });
  });

  it('a cell that is not a number is a problem at its row and column; the cell is sent as blank', () => {
    const sheet = readGradesSheet(`${HEADER}\r\nSam,stu1,8,5,5\r\nTess,stu2,"8,5",N/A\r\n`);
    expect(sheet.rows[1]).toEqual({ studentId: 'stu2', row: 3, scores: [null, null] });
    expect(sheet.problems).toEqual([
      { path: 'rows[1].scores[0]', message: 'row 3, column C: "8,5" is not a number (leave it blank to keep the score as it is)' },
      { path: 'rows[1].scores[1]', message: 'row 3, column D: "N/A" is not a number (leave it blank to keep the score as it is)' },
    ]);
  });

  it('scores without a Student ID are a problem; a row with neither is skipped', () => {
    const sheet = readGradesSheet(`${HEADER}\r\nSam,,8,,\r\n,,,,\r\n`);
    expect(sheet.rows).toEqual([]);
    expect(sheet.problems).toEqual([{ path: '(file)', message: 'row 2 has scores but no Student ID' }]);
  });

  it('no Student ID column, or text that is not CSV, is one problem of the file', () => {
    expect(readGradesSheet('Name,Quiz (a1)\r\nSam,8\r\n').problems).toEqual([
      { path: '(file)', message: 'row 1 has no "Student ID" column: the first row must be the header of a gradebook export' },
    ]);
    expect(readGradesSheet('').problems[0]!.path).toBe('(file)');
    const broken = readGradesSheet('Student ID,Quiz (a1)\r\nstu1,"8\r\n');
    expect(broken.problems).toHaveLength(1);
    expect(broken.problems[0]!.message).toMatch(/^not readable as CSV: Quote Not Closed/);
  });
});

describe('planGradesImport', () => {
  /** Two published items of c1, a draft, one elsewhere; stu1 and stu2 are students; the export prints stu1 a1 = 7 (after a late deduction). */
  const facts: ImportFacts = {
    courseId: 'c1',
    assignment: (id) => ({ a1: { courseId: 'c1', status: 'published' }, a2: { courseId: 'c1', status: 'published' } })[id] ?? null,
    person: (id) => (id === 'stu1' || id === 'stu2' ? 'student' : 'none'),
    printed: (s, i) => (s === 'stu1' && i === 'a1' ? 7 : s === 'stu2' && i === 'a1' ? 0 : null),
  };
  const items = [
    { itemId: 'a1', column: 3 },
    { itemId: 'a2', column: 4 },
  ];

  it('a cell equal to what the export prints is unchanged (7 stays 7 whatever the score behind it); blank cells are left alone', () => {
    const plan = planGradesImport({ items, rows: [{ studentId: 'stu1', row: 3, scores: [7, null] }] }, facts);
    expect(plan).toEqual({ problems: [], changes: [], unchanged: 1, blank: 1 });
  });

  it('a cell that differs is a change from the printed value to the score as entered; an empty printed cell is from null', () => {
    const plan = planGradesImport(
      {
        items,
        rows: [
          { studentId: 'stu1', row: 3, scores: [8, 0] },
          { studentId: 'stu2', row: 4, scores: [0, 9.25] },
        ],
      },
      facts,
    );
    expect(plan.changes).toEqual([
      { studentId: 'stu1', itemId: 'a1', row: 3, column: 3, from: 7, to: 8 },
      { studentId: 'stu1', itemId: 'a2', row: 3, column: 4, from: null, to: 0 },
      { studentId: 'stu2', itemId: 'a2', row: 4, column: 4, from: null, to: 9.25 },
    ]);
    expect([plan.unchanged, plan.blank]).toEqual([1, 0]);
  });

  it('without row and column numbers, problems point into the body', () => {
    const plan = planGradesImport({ items: [{ itemId: 'a1' }], rows: [{ studentId: 'stu1', scores: [-0.5] }] }, facts);
    expect(plan.problems).toEqual([{ path: 'rows[0].scores[0]', message: 'rows[0].scores[0]: -0.5 is negative; a score is 0 or more' }]);
  });

  it('a score is at most 1,000,000,000, the bound of every score: exactly that passes, anything over is refused at its cell', () => {
    const at = planGradesImport({ items, rows: [{ studentId: 'stu1', row: 3, scores: [1_000_000_000, null] }] }, facts);
    expect(at.problems).toEqual([]);
    const over = planGradesImport({ items, rows: [{ studentId: 'stu1', row: 3, scores: [1_000_000_000.000001, 2e9] }] }, facts);
    expect(over.problems).toEqual([
      { path: 'rows[0].scores[0]', message: 'row 3, column C: 1000000000.000001 is over the largest score, 1000000000' },
      { path: 'rows[0].scores[1]', message: 'row 3, column D: 2000000000 is over the largest score, 1000000000' },
    ]);
  });
});

describe('pointsPossibleProblems', () => {
  const HEADER = 'Student,Student ID,Quiz 1 (a1),Essay (a3),Bonus (a9),Final %';
  const sheetWith = (pointsRow: string) => readGradesSheet(`${HEADER}\r\n${pointsRow}\r\nSam,stu1,8,41.5,,80.0\r\n`);
  const POINTS = new Map([
    ['a1', 10],
    ['a3', 2.5],
    ['a9', 0],
  ]);

  it("a row that says each item's points (written any way a spreadsheet writes a number), or leaves a cell blank, is no problem", () => {
    expect(pointsPossibleProblems(sheetWith('Points Possible,,10.00,2.50,,'), POINTS)).toEqual([]);
    expect(pointsPossibleProblems(sheetWith('Points Possible,,10,2.5,0,'), POINTS)).toEqual([]);
    // No such row at all: nothing to check.
    expect(pointsPossibleProblems(readGradesSheet(`${HEADER}\r\nSam,stu1,8,41.5,,80.0\r\n`), POINTS)).toEqual([]);
  });

  it('a changed or unreadable cell is a problem at its row and column that names the item, its points and the fix', () => {
    expect(pointsPossibleProblems(sheetWith('Points Possible,,11,2.5,five,'), POINTS)).toEqual([
      {
        path: 'items[0]',
        message:
          'row 2, column C: Points Possible says 11, but a1 is worth 10; the import changes scores, not points. Put 10 back, or change the points first (coursebook assignments update a1 --points N) and export again',
      },
      {
        path: 'items[2]',
        message:
          'row 2, column E: Points Possible says "five", but a9 is worth 0; the import changes scores, not points. Put 0 back, or change the points first (coursebook assignments update a9 --points N) and export again',
      },
    ]);
  });

  it("an item the course does not have is left to the API's check", () => {
    expect(pointsPossibleProblems(sheetWith('Points Possible,,10,99,0,'), new Map([['a1', 10]]))).toEqual([]);
  });
});
