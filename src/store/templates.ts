import type { TemplateValue } from '../schemas/templates.js';
import type { Store } from './db.js';
import { insertRecord, type Row, TEMPLATES } from './tables.js';

export function getTemplate(store: Store, id: string): TemplateValue | null {
  const row = store.stmt('SELECT * FROM templates WHERE id = ?').get(id) as Row | undefined;
  return row ? TEMPLATES.fromRow(row) : null;
}

export function listTemplates(store: Store): TemplateValue[] {
  return (store.stmt('SELECT * FROM templates ORDER BY id').all() as Row[]).map(TEMPLATES.fromRow);
}

export function putTemplate(store: Store, t: TemplateValue): TemplateValue {
  return insertRecord(store, TEMPLATES, t, 'upsert');
}
