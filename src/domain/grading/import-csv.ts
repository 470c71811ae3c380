/**
 * Reading grades back from a spreadsheet (issue #13): the export's own layout. Header
 * `<title> (<id>)` columns are items, `Student ID` keys the rows, and every other column
 * (names, the computed percents and letters) is ignored. The `Points Possible` row is not
 * imported, but it is kept: an item's points edited there would otherwise be dropped
 * without a word (pointsPossibleProblems). The result is the body of POST
 * .../gradebook/import: item columns, one row per student, each cell a number or null
 * (blank), with problems the file alone shows (a cell that is not a number, a row with
 * scores but no student id). Pure: text in, data out.
 */
import { parse } from 'csv-parse/sync';
import type { Problem } from '../../errors.js';

export interface GradesSheet {
  /** Item columns, left to right: the assignment id from the header, its 1-based column. */
  items: { itemId: string; column: number }[];
  /** One per student row: its 1-based row in the file, a score or null per item column. */
  rows: { studentId: string; row: number; scores: (number | null)[] }[];
  /** Problems of the file itself, with paths into `items`/`rows` (or `(file)`). */
  problems: Problem[];
  /** The `Points Possible` row, when the file has one: its 1-based row, and its cell under each item column. */
  pointsPossible: { row: number; cells: string[] } | null;
}

/** Spreadsheet column letters: 1 -> A, 26 -> Z, 27 -> AA. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Where a cell is, as a person finds it in a spreadsheet: `row 5, column D`. */
export function cellPlace(row: number | undefined, column: number | undefined): string {
  const parts = [row !== undefined ? `row ${row}` : null, column !== undefined ? `column ${columnName(column)}` : null].filter(Boolean);
  return parts.join(', ');
}

/** The export writes text a spreadsheet would run as a formula with a leading `'`; read it back without. */
export function unescapeText(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A score cell: blank (null), a plain decimal number, or not a number. */
export function parseScoreCell(text: string): { score: number | null } | { notANumber: string } {
  const t = text.trim();
  if (t === '') return { score: null };
  if (!NUMBER.test(t)) return { notANumber: t };
  const score = Number(t);
  return Number.isFinite(score) ? { score } : { notANumber: t };
}

const ITEM_HEADER = /^(.*) \((.+)\)$/s;

/** The assignment id of an item column header `<title> (<id>)`, else null. */
export function itemIdOfHeader(header: string): string | null {
  const m = ITEM_HEADER.exec(unescapeText(header));
  return m ? m[2]! : null;
}

export function readGradesSheet(text: string): GradesSheet {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true }) as string[][];
  } catch (err) {
    return { items: [], rows: [], problems: [{ path: '(file)', message: `not readable as CSV: ${(err as Error).message}` }], pointsPossible: null };
  }
  const problems: Problem[] = [];
  const header = (records[0] ?? []).map(unescapeText);
  const idColumn = header.indexOf('Student ID');
  const nameColumn = header.indexOf('Student');
  if (idColumn < 0) {
    return {
      items: [],
      rows: [],
      problems: [{ path: '(file)', message: 'row 1 has no "Student ID" column: the first row must be the header of a gradebook export' }],
      pointsPossible: null,
    };
  }
  const itemCols: number[] = [];
  const items: GradesSheet['items'] = [];
  header.forEach((h, c) => {
    const itemId = c === idColumn || c === nameColumn ? null : itemIdOfHeader(h);
    if (itemId === null) return;
    itemCols.push(c);
    items.push({ itemId, column: c + 1 });
  });
  const rows: GradesSheet['rows'] = [];
  let pointsPossible: GradesSheet['pointsPossible'] = null;
  for (let r = 1; r < records.length; r++) {
    const cells = records[r]!;
    const cell = (c: number) => cells[c] ?? '';
    const studentId = unescapeText(cell(idColumn)).trim();
    if (studentId === '' && nameColumn >= 0 && unescapeText(cell(nameColumn)).trim() === 'Points Possible') {
      pointsPossible ??= { row: r + 1, cells: itemCols.map(cell) };
      continue;
    }
    const raw = itemCols.map(cell);
    if (studentId === '') {
      if (raw.some((v) => v.trim() !== '')) problems.push({ path: '(file)', message: `row ${r + 1} has scores but no Student ID` });
      continue;
    }
    const index = rows.length;
    const scores = raw.map((text, j) => {
      const parsed = parseScoreCell(text);
      if ('score' in parsed) return parsed.score;
      problems.push({
        path: `rows[${index}].scores[${j}]`,
        message: `${cellPlace(r + 1, items[j]!.column)}: ${JSON.stringify(parsed.notANumber)} is not a number (leave it blank to keep the score as it is)`,
      });
      return null;
    });
    rows.push({ studentId, row: r + 1, scores });
  }
  return { items, rows, problems, pointsPossible };
}

/**
 * The import takes scores, never an item's points: a `Points Possible` cell that no longer
 * says the item's points (edited in the spreadsheet, expecting the points to change) is a
 * problem of the file, so nothing is imported on a wrong assumption. A blank cell claims
 * nothing; an item the course does not have is the API's to refuse.
 */
export function pointsPossibleProblems(sheet: GradesSheet, pointsOf: ReadonlyMap<string, number>): Problem[] {
  const row = sheet.pointsPossible;
  if (row === null) return [];
  const problems: Problem[] = [];
  sheet.items.forEach(({ itemId, column }, j) => {
    const points = pointsOf.get(itemId);
    const parsed = parseScoreCell(row.cells[j] ?? '');
    if (points === undefined || ('score' in parsed && (parsed.score === null || parsed.score === points))) return;
    const said = 'score' in parsed ? String(parsed.score) : JSON.stringify(parsed.notANumber);
    problems.push({
      path: `items[${j}]`,
      message:
        `${cellPlace(row.row, column)}: Points Possible says ${said}, but ${itemId} is worth ${points}; the import changes scores, not points. ` +
        `Put ${points} back, or change the points first (coursebook assignments update ${itemId} --points N) and export again`,
    });
  });
  return problems;
}
