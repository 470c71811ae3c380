import chalk, { Chalk } from 'chalk';
import type { Column, CommandResult } from './command.js';

export interface RenderTarget {
  json: boolean;
  tty: boolean;
  color: boolean;
}

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** Tabs and newlines inside a TSV cell would break the row: show them as escapes. */
const tsvCell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');

function defaultColumns(rows: Record<string, unknown>[]): Column[] {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  return keys.map((k) => ({ key: k, header: k }));
}

const width = (s: string): number => [...s.replace(/\x1b\[[0-9;]*m/g, '')].length;

export function renderTable(rows: Record<string, unknown>[], columns: Column[] | undefined, target: RenderTarget): string {
  const cols = columns ?? defaultColumns(rows);
  const cells = rows.map((row) => cols.map((c) => (c.format ? c.format(row[c.key], row) : cellText(row[c.key]))));
  if (!target.tty) return cells.map((r) => r.map(tsvCell).join('\t') + '\n').join('');
  const ink = target.color ? chalk : new Chalk({ level: 0 });
  const widths = cols.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i]!))));
  const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - width(s)));
  const head = cols
    .map((c, i) => ink.bold(pad(c.header, widths[i]!)))
    .join('  ')
    .trimEnd();
  const body = cells.map((r, ri) =>
    r
      .map((s, i) => {
        const col = cols[i]!;
        const text = pad(s, widths[i]!);
        return target.color && col.color ? col.color(text, rows[ri]!) : text;
      })
      .join('  ')
      .trimEnd(),
  );
  if (rows.length === 0) return ink.dim('(none)') + '\n';
  return [head, ...body].join('\n') + '\n';
}

export function renderFields(data: Record<string, unknown>, target: RenderTarget): string {
  const keys = Object.keys(data);
  if (!target.tty) return keys.map((k) => `${k}\t${tsvCell(cellText(data[k]))}\n`).join('');
  const ink = target.color ? chalk : new Chalk({ level: 0 });
  const w = Math.max(...keys.map((k) => k.length));
  return keys.map((k) => `${ink.bold(k.padEnd(w))}  ${cellText(data[k])}`).join('\n') + '\n';
}

/** What goes to stdout for a command's result. */
export function renderResult(result: CommandResult, target: RenderTarget): string {
  switch (result.kind) {
    case 'none':
      return '';
    case 'text':
      return target.json && result.json !== undefined ? ensureNewline(result.json) : result.text;
    case 'api': {
      if (target.json) return ensureNewline(result.response.text);
      const data = result.response.data;
      if (result.rows) return renderTable(result.rows(data), result.columns, target);
      if (Array.isArray(data)) return renderTable(data as Record<string, unknown>[], result.columns, target);
      if (data && typeof data === 'object') return renderFields(data as Record<string, unknown>, target);
      return data === undefined ? '' : ensureNewline(String(data));
    }
  }
}

const ensureNewline = (s: string): string => (s === '' || s.endsWith('\n') ? s : s + '\n');
