/** The gradebook export of gradebook-operations.md: RFC 4180, CRLF after every row, formula-safe text. */
import { compareStrings } from '../compare.js';
import { plainNumber } from './exact.js';
import { finalGrade } from './final-grade.js';
import { compareCategoriesInOrder, compareItemsInCourseOrder } from './order.js';
import type { CourseGrades, FinalOverride, GradebookSetup, GradeItem, GradeStudent } from './types.js';

/** Text cells that a spreadsheet would run as a formula get a leading apostrophe. */
export function textCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return quote(safe);
}

const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** A percentage with 1 decimal, never in exponent notation (toFixed writes one from 1e21 on, where every double is whole). */
export const percentText = (v: number): string => (Math.abs(v) >= 1e21 ? `${plainNumber(v)}.0` : v.toFixed(1));
const percentCell = (v: number | null | undefined) => (v === null || v === undefined ? '' : percentText(v));

/** `default`: the full gradebook; `registrar`: `Student ID, Student, Email, Final %, Final Letter` per student, nothing else. */
export type ExportLayout = 'default' | 'registrar';

export interface CsvParts {
  setup: GradebookSetup;
  items: GradeItem[];
  layout?: ExportLayout;
}

/** The whole export at once: the header lines, then every student's row. */
export function renderGradebookCsv(input: CsvParts & { students: GradeStudent[]; grades: CourseGrades; overrides: FinalOverride[] }): string {
  const writer = gradebookCsvWriter(input);
  return writer.head + writer.rows(input.students, input.grades, input.overrides);
}

/**
 * The export in parts, so a large gradebook can be written a slice of students at a time:
 * `head` is the header line(s); `rows` the CRLF-ended rows of the students given (sorted
 * by name, then id), graded in `grades` (their `cells` in the order of `items`).
 */
export function gradebookCsvWriter(input: CsvParts): {
  head: string;
  rows(students: GradeStudent[], grades: CourseGrades, overrides: FinalOverride[]): string;
} {
  const { setup } = input;
  const cats = [...setup.categories].sort(compareCategoriesInOrder);
  const catRank = new Map(cats.map((c, i) => [c.id, i]));
  const inputIndex = new Map(input.items.map((it, i) => [it.id, i]));
  const columns = input.items
    .filter((it) => it.categoryId !== null && catRank.has(it.categoryId))
    .sort((a, b) => catRank.get(a.categoryId!)! - catRank.get(b.categoryId!)! || compareItemsInCourseOrder(a, b));
  const columnCell = columns.map((it) => inputIndex.get(it.id)!);
  const tail = ['Calculated %', 'Calculated Letter', 'Override %', 'Override Letter', 'Final %', 'Final Letter'];
  const numberCell = cachedNumberCell();
  const registrar = input.layout === 'registrar';

  const head: string[] = [];
  if (registrar) head.push(REGISTRAR_HEADER.map(textCell).join(','));
  else {
    const itemHeaders = columns.map((it) => `${it.title} (${it.id})`);
    const fixed = ['Student', 'Student ID', ...itemHeaders, ...tail];
    head.push(['Student', 'Student ID', ...itemHeaders, ...categoryHeaders(cats, fixed), ...tail].map(textCell).join(','));
    head.push([textCell('Points Possible'), '', ...columns.map((it) => plainNumber(it.points)), ...cats.map(() => ''), ...tail.map(() => '')].join(','));
  }

  const rows = (studentsGiven: GradeStudent[], grades: CourseGrades, overrideList: FinalOverride[]): string => {
    const byStudent = new Map(grades.students.map((s) => [s.studentId, s]));
    const overrides = new Map(overrideList.map((o) => [o.studentId, o]));
    const lines: string[] = [];
    const students = [...studentsGiven].sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.id, b.id));
    for (const student of students) {
      const g = byStudent.get(student.id);
      const o = overrides.get(student.id);
      const calculated = g?.percent ?? null;
      const overrideLetter = o?.letter ?? null;
      const { overridePercent, finalPercent, finalLetter } = finalGrade({ calculatedPercent: calculated, override: o ?? null, scheme: setup.scheme });
      if (registrar) {
        const cells = [textCell(student.id), textCell(student.name), textCell(student.email ?? ''), percentCell(finalPercent), textCell(finalLetter ?? '')];
        lines.push(cells.join(','));
        continue;
      }
      // One array per row joined once: concatenating 200 cells into a string is 4x slower.
      const row: string[] = new Array(columnCell.length + cats.length + 8);
      let j = 0;
      row[j++] = textCell(student.name);
      row[j++] = textCell(student.id);
      for (const cell of columnCell) row[j++] = g ? numberCell(g.cells[cell]!) : '';
      for (const c of cats) row[j++] = percentCell(g?.categories.find((r) => r.categoryId === c.id)?.percent);
      row[j++] = percentCell(calculated);
      row[j++] = textCell(g?.letter ?? '');
      row[j++] = percentCell(overridePercent);
      row[j++] = textCell(overrideLetter ?? '');
      row[j++] = percentCell(finalPercent);
      row[j++] = textCell(finalLetter ?? '');
      lines.push(row.join(','));
    }
    return lines.length === 0 ? '' : lines.join('\r\n') + '\r\n';
  };
  return { head: head.join('\r\n') + '\r\n', rows };
}

/**
 * numberCell with a memo: grades repeat (quarter points of a few totals), and number to
 * text is the costliest step of a large export. Bounded, so distinct values cannot grow it
 * without limit.
 */
function cachedNumberCell(): (v: number) => string {
  const memo = new Map<number, string>();
  return (v) => {
    if (Number.isNaN(v)) return '';
    let text = memo.get(v);
    if (text === undefined) {
      text = plainNumber(v);
      if (memo.size < 65_536) memo.set(v, text);
    }
    return text;
  };
}

const REGISTRAR_HEADER = ['Student ID', 'Student', 'Email', 'Final %', 'Final Letter'];

/**
 * One `<name> %` header per category, every one unique (a spreadsheet or csv.DictReader
 * keeps one of two equal headers): a category whose `<name> %` equals another header (a
 * fixed column, an item column, or another category's) is written `<name> (<id>) %`.
 * Renaming can make a new collision (a category named `Final (x)`), so it repeats until
 * nothing collides; ids that imitate another header get a number as a last resort.
 */
function categoryHeaders(cats: GradebookSetup['categories'], others: string[]): string[] {
  const headers = cats.map((c) => `${c.name} %`);
  const renamed = cats.map(() => false);
  const repeated = () => {
    const count = new Map<string, number>();
    for (const h of [...others, ...headers]) count.set(h, (count.get(h) ?? 0) + 1);
    return (h: string) => count.get(h)! > 1;
  };
  for (let changed = true; changed; ) {
    changed = false;
    const isRepeated = repeated();
    headers.forEach((h, i) => {
      if (renamed[i] || !isRepeated(h)) return;
      headers[i] = `${cats[i]!.name} (${cats[i]!.id}) %`;
      renamed[i] = true;
      changed = true;
    });
  }
  const isRepeated = repeated();
  const taken = new Set([...others, ...headers]);
  headers.forEach((h, i) => {
    if (!isRepeated(h)) return;
    let n = 2;
    while (taken.has(`${h.slice(0, -2)} ${n} %`)) n++;
    headers[i] = `${h.slice(0, -2)} ${n} %`;
    taken.add(headers[i]!);
  });
  return headers;
}
