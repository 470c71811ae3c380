/**
 * How a command's result reaches stdout. Piped: the API's bytes (--json), tab-separated rows
 * without a header, ISO timestamps, a created id alone. On a terminal: pretty coloured JSON,
 * tables fitted to the width, relative timestamps, one "Created ..." line.
 */
import { Chalk } from 'chalk';
import type { ApiResponse, Column, CommandResult } from './command.js';
import { UsageError } from './command.js';
import { prettyJson } from './json-output.js';
import { isTimestamp, relativeTime } from './relative-time.js';
import { fitColumns, truncate, visibleWidth } from './table-fit.js';

export interface RenderTarget {
  json: boolean;
  tty: boolean;
  color: boolean;
  /** The terminal's width (tables are fitted to it on a TTY). */
  width?: number | undefined;
  /** Now, for relative timestamps on a TTY. */
  now?: string | undefined;
  /** --query: the JMESPath expression, already checked, and query.ts runQuery (loaded only with --query). */
  query?: { expression: string; run: (data: unknown, expression: string) => unknown } | undefined;
}

const GAP = 2;

/** A cell's text: the value, JSON for objects, empty for null; on a terminal one line, timestamps relative. */
function cellText(value: unknown, target: RenderTarget): string {
  if (value === null || value === undefined) return '';
  if (target.tty && target.now !== undefined && isTimestamp(value)) return relativeTime(value, target.now);
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return target.tty ? oneLine(text) : text;
}

/** A table row is one line on a terminal: line breaks and tabs inside a cell become spaces. */
const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\t/g, ' ');

/** Tabs and newlines inside a TSV cell would break the row: show them as escapes. */
const tsvCell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');

function defaultColumns(rows: Record<string, unknown>[]): Column[] {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  return keys.map((k) => ({ key: k, header: k }));
}

export function renderTable(rows: Record<string, unknown>[], columns: Column[] | undefined, target: RenderTarget): string {
  const cols = columns ?? defaultColumns(rows);
  const cells = rows.map((row) =>
    cols.map((c) => (c.format ? (target.tty ? oneLine(c.format(row[c.key], row)) : c.format(row[c.key], row)) : cellText(row[c.key], target))),
  );
  if (!target.tty) return cells.map((r) => r.map(tsvCell).join('\t') + '\n').join('');
  const ink = new Chalk({ level: target.color ? 1 : 0 });
  if (rows.length === 0) return ink.dim('(none)') + '\n';
  const natural = cols.map((c, i) => Math.max(visibleWidth(c.header), ...cells.map((r) => visibleWidth(r[i]!))));
  const widths = fitColumns(
    natural,
    cols.map((c) => visibleWidth(c.header)),
    target.width,
    GAP,
  );
  const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - visibleWidth(s)));
  // The last header is not padded: trailing spaces inside the bold escape would survive trimEnd.
  const head = cols
    .map((c, i) => ink.bold(i === cols.length - 1 ? truncate(c.header, widths[i]!) : pad(truncate(c.header, widths[i]!), widths[i]!)))
    .join(' '.repeat(GAP))
    .trimEnd();
  const body = cells.map((r, ri) =>
    r
      .map((s, i) => {
        const col = cols[i]!;
        const text = pad(truncate(s, widths[i]!), widths[i]!);
        return target.color && col.color ? col.color(text, rows[ri]!) : text;
      })
      .join(' '.repeat(GAP))
      .trimEnd(),
  );
  return [head, ...body].join('\n') + '\n';
}

export function renderFields(data: Record<string, unknown>, target: RenderTarget): string {
  const keys = Object.keys(data);
  if (!target.tty) return keys.map((k) => `${k}\t${tsvCell(cellText(data[k], target))}\n`).join('');
  const ink = new Chalk({ level: target.color ? 1 : 0 });
  const w = Math.max(...keys.map((k) => k.length));
  return keys.map((k) => `${ink.bold(k.padEnd(w))}  ${cellText(data[k], target)}`).join('\n') + '\n';
}

/**
 * `/modules/m1/lessons` -> `lesson`: the last collection named in the path of a create. A
 * segment starting with `_` is a namespace, not a collection (`/_admin/faults` -> `fault`).
 */
export function createdKind(path: string): string | undefined {
  const segments = path
    .split('?')[0]!
    .split('/')
    .filter((s) => s !== '' && !s.startsWith('_'));
  // Collections sit at even positions (courses/{id}/modules); actions (import, replace) are not plural.
  for (let i = (segments.length - 1) & ~1; i >= 0; i -= 2) {
    const word = segments[i]!;
    if (/^[a-z-]+[^s]s$/.test(word)) return word.slice(0, -1).replace(/-/g, ' ');
  }
  return undefined;
}

/** A 201 answer with an id: the id alone when piped, one `Created <kind> <id> "<title>"` line on a terminal. */
function createdLine(response: ApiResponse, target: RenderTarget): string | undefined {
  const data = response.data as Record<string, unknown> | null;
  if (response.status !== 201 || !response.request || data === null || typeof data !== 'object' || typeof data.id !== 'string') return undefined;
  const kind = createdKind(response.request.path);
  if (kind === undefined) return undefined;
  if (!target.tty) return `${data.id}\n`;
  const title = typeof data.title === 'string' ? data.title : typeof data.name === 'string' ? data.name : undefined;
  return `Created ${kind} ${data.id}${title === undefined ? '' : ` ${JSON.stringify(title)}`}\n`;
}

/** --json: the API's bytes when piped, pretty (and coloured when allowed) on a terminal. */
function jsonOut(text: string, target: RenderTarget): string {
  if (!target.tty || text === '') return ensureNewline(text);
  try {
    return prettyJson(JSON.parse(text), target.color);
  } catch {
    return ensureNewline(text);
  }
}

/** The JSON value --query runs on: what --json would print. */
function jsonValue(result: CommandResult): { value: unknown } | undefined {
  if (result.kind === 'api') return { value: result.response.data };
  if (result.kind === 'text' && result.json !== undefined) return { value: result.json === '' ? null : JSON.parse(result.json) };
  return undefined;
}

/** --query's answer: JSON, except that a string prints bare (as `gh --jq` does) unless --json is given. */
function queryOut(result: CommandResult, query: NonNullable<RenderTarget['query']>, target: RenderTarget): string {
  if (result.kind === 'none') return '';
  const input = jsonValue(result);
  if (!input) throw new UsageError('--query needs JSON output, and this command has none');
  const value = query.run(input.value, query.expression);
  if (typeof value === 'string' && !target.json) return ensureNewline(value);
  const text = JSON.stringify(value ?? null);
  return target.tty ? prettyJson(value ?? null, target.color) : `${text}\n`;
}

/** What goes to stdout for a command's result. */
export function renderResult(result: CommandResult, target: RenderTarget): string {
  if (target.query !== undefined) return queryOut(result, target.query, target);
  switch (result.kind) {
    case 'none':
      return '';
    case 'text':
      return target.json && result.json !== undefined ? jsonOut(result.json, target) : result.text;
    case 'api': {
      if (target.json) return jsonOut(result.response.text, target);
      const data = result.response.data;
      if (!result.rows) {
        const created = createdLine(result.response, target);
        if (created !== undefined) return created;
      }
      if (result.rows) return renderTable(result.rows(data), result.columns, target);
      if (Array.isArray(data)) return renderTable(data as Record<string, unknown>[], result.columns, target);
      if (data && typeof data === 'object') return renderFields(data as Record<string, unknown>, target);
      return data === undefined ? '' : ensureNewline(String(data));
    }
  }
}

const ensureNewline = (s: string): string => (s === '' || s.endsWith('\n') ? s : s + '\n');
