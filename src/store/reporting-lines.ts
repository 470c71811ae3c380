import type { ReportingLineValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { insertRecord, REPORTING_LINES, type Row } from './tables.js';

export function listReportingLines(store: Store, involving?: string): ReportingLineValue[] {
  const rows = involving
    ? (store.stmt('SELECT * FROM reporting_lines WHERE manager_id = ? OR report_id = ? ORDER BY manager_id, report_id').all(involving, involving) as Row[])
    : (store.stmt('SELECT * FROM reporting_lines ORDER BY manager_id, report_id').all() as Row[]);
  return rows.map(REPORTING_LINES.fromRow);
}

export function insertReportingLine(store: Store, l: ReportingLineValue): ReportingLineValue {
  return insertRecord(store, REPORTING_LINES, l);
}

export function deleteReportingLine(store: Store, managerId: string, reportId: string): boolean {
  return store.stmt('DELETE FROM reporting_lines WHERE manager_id = ? AND report_id = ?').run(managerId, reportId).changes > 0;
}
