import type { CertificateValue } from '../schemas/templates.js';
import { withoutNul } from '../schemas/text.js';
import type { Store } from './db.js';
import { CERTIFICATES, insertRecord, type Row } from './tables.js';

export async function getCertificate(store: Store, id: string): Promise<CertificateValue | null> {
  const row = (await store.get('SELECT * FROM certificates WHERE id = ?', id)) as Row | undefined;
  return row ? CERTIFICATES.fromRow(row) : null;
}

/** A code as a caller typed it (the public verify route): one holding U+0000 names no certificate, on either store. */
export async function getCertificateByCode(store: Store, code: string): Promise<CertificateValue | null> {
  if (!withoutNul(code)) return null;
  const row = (await store.get('SELECT * FROM certificates WHERE code = ?', code)) as Row | undefined;
  return row ? CERTIFICATES.fromRow(row) : null;
}

export async function codeExists(store: Store, code: string): Promise<boolean> {
  return (await store.get('SELECT 1 AS x FROM certificates WHERE code = ?', code)) !== undefined;
}

export function insertCertificate(store: Store, c: CertificateValue): Promise<CertificateValue> {
  return insertRecord(store, CERTIFICATES, c);
}

export async function markReplaced(store: Store, id: string, replacedBy: string): Promise<void> {
  await store.run('UPDATE certificates SET replaced_by = ? WHERE id = ?', replacedBy, id);
}

/**
 * Certificates a user may read: their own, their reports' (direct or indirect), those of
 * courses they teach; all for admins. Optional filters by learner and course.
 */
export async function listReadableCertificates(
  store: Store,
  viewer: { id: string; admin: boolean },
  filter: { userId?: string | undefined; courseId?: string | undefined },
): Promise<CertificateValue[]> {
  // Filters are added only when given: a `? IS NULL` test would leave PostgreSQL unable to
  // tell the parameter's type.
  const where: string[] = [];
  const params: unknown[] = [viewer.id];
  if (!viewer.admin) {
    where.push(
      "(c.user_id = ? OR c.user_id IN (SELECT id FROM reports) OR c.course_id IN (SELECT course_id FROM enrollments WHERE user_id = ? AND role = 'instructor'))",
    );
    params.push(viewer.id, viewer.id);
  }
  if (filter.userId !== undefined) {
    where.push('c.user_id = ?');
    params.push(filter.userId);
  }
  if (filter.courseId !== undefined) {
    where.push('c.course_id = ?');
    params.push(filter.courseId);
  }
  const rows = await store.all<Row>(
    `WITH RECURSIVE reports(id) AS (
       SELECT report_id FROM reporting_lines WHERE manager_id = ?
       UNION SELECT r.report_id FROM reporting_lines r JOIN reports ON r.manager_id = reports.id
     )
     SELECT c.* FROM certificates c ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY c.id`,
    ...params,
  );
  return rows.map(CERTIFICATES.fromRow);
}
