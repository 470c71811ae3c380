/**
 * JSON for a person on a terminal: indented two spaces (the layout of JSON.stringify with
 * an indent) and, when colour is allowed, keys blue, strings green, numbers and booleans
 * yellow, null grey, as `gh api` and jq show it.
 */
import { Chalk } from 'chalk';

export function prettyJson(value: unknown, color: boolean): string {
  const ink = new Chalk({ level: color ? 1 : 0 });
  const write = (v: unknown, indent: string): string => {
    if (v === null || v === undefined) return ink.gray('null');
    if (typeof v === 'string') return ink.green(JSON.stringify(v));
    if (typeof v === 'number' || typeof v === 'boolean') return ink.yellow(JSON.stringify(v));
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((item) => inner + write(item, inner)).join(',\n')}\n${indent}]`;
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, item]) => `${inner}${ink.blue(JSON.stringify(k))}: ${write(item, inner)}`).join(',\n')}\n${indent}}`;
  };
  return `${write(value, '')}\n`;
}
