import type { Store } from './db.js';
import { type ReportingLineValue, reportingLineFromRow, type Row } from './rows.js';

export function listReportingLines(store: Store, involving?: string): ReportingLineValue[] {
  const rows = involving
    ? (store.stmt('SELECT * FROM reporting_lines WHERE manager_id = ? OR report_id = ? ORDER BY manager_id, report_id').all(involving, involving) as Row[])
    : (store.stmt('SELECT * FROM reporting_lines ORDER BY manager_id, report_id').all() as Row[]);
  return rows.map(reportingLineFromRow);
}

export function insertReportingLine(store: Store, l: ReportingLineValue): ReportingLineValue {
  store.stmt('INSERT INTO reporting_lines (manager_id, report_id, created_by, created_at) VALUES (?, ?, ?, ?)').run(l.managerId, l.reportId, l.createdBy, l.createdAt);
  return l;
}

export function deleteReportingLine(store: Store, managerId: string, reportId: string): boolean {
  return store.stmt('DELETE FROM reporting_lines WHERE manager_id = ? AND report_id = ?').run(managerId, reportId).changes > 0;
}
