import type { ReportingLineValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { insertRecord, REPORTING_LINES, type Row } from './tables.js';

export async function listReportingLines(store: Store, involving?: string): Promise<ReportingLineValue[]> {
  const rows = involving
    ? ((await store.all('SELECT * FROM reporting_lines WHERE manager_id = ? OR report_id = ? ORDER BY manager_id, report_id', involving, involving)) as Row[])
    : ((await store.all('SELECT * FROM reporting_lines ORDER BY manager_id, report_id')) as Row[]);
  return rows.map(REPORTING_LINES.fromRow);
}

export function insertReportingLine(store: Store, l: ReportingLineValue): Promise<ReportingLineValue> {
  return insertRecord(store, REPORTING_LINES, l);
}

export async function deleteReportingLine(store: Store, managerId: string, reportId: string): Promise<boolean> {
  return (await store.run('DELETE FROM reporting_lines WHERE manager_id = ? AND report_id = ?', managerId, reportId)).changes > 0;
}
