import type { TemplateValue } from '../schemas/templates.js';
import type { Store } from './db.js';
import { insertRecord, type Row, TEMPLATES } from './tables.js';

export async function getTemplate(store: Store, id: string): Promise<TemplateValue | null> {
  const row = (await store.get('SELECT * FROM templates WHERE id = ?', id)) as Row | undefined;
  return row ? TEMPLATES.fromRow(row) : null;
}

export async function listTemplates(store: Store): Promise<TemplateValue[]> {
  return ((await store.all('SELECT * FROM templates ORDER BY id')) as Row[]).map(TEMPLATES.fromRow);
}

export function putTemplate(store: Store, t: TemplateValue): Promise<TemplateValue> {
  return insertRecord(store, TEMPLATES, t, 'upsert');
}
