import type { Store } from './db.js';
import { type Row, templateFromRow, type TemplateValue } from './rows.js';

export function getTemplate(store: Store, id: string): TemplateValue | null {
  const row = store.stmt('SELECT * FROM templates WHERE id = ?').get(id) as Row | undefined;
  return row ? templateFromRow(row) : null;
}

export function listTemplates(store: Store): TemplateValue[] {
  return (store.stmt('SELECT * FROM templates ORDER BY id').all() as Row[]).map(templateFromRow);
}

export function putTemplate(store: Store, t: TemplateValue): TemplateValue {
  store
    .stmt(
      `INSERT INTO templates (id, name, description, owner, modules, tutor_lesson, tutor_assignment, access_floor, updated_by, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, owner = excluded.owner, modules = excluded.modules,
         tutor_lesson = excluded.tutor_lesson, tutor_assignment = excluded.tutor_assignment, access_floor = excluded.access_floor,
         updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .run(t.id, t.name, t.description, JSON.stringify(t.owner), JSON.stringify(t.modules), t.tutorDefaults.lesson, t.tutorDefaults.assignment, t.accessFloor, t.updatedBy, t.updatedAt);
  return t;
}
