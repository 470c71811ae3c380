import type { CertificateValue } from '../schemas/templates.js';
import type { Store } from './db.js';
import { CERTIFICATES, insertRecord, type Row } from './tables.js';

export function getCertificate(store: Store, id: string): CertificateValue | null {
  const row = store.stmt('SELECT * FROM certificates WHERE id = ?').get(id) as Row | undefined;
  return row ? CERTIFICATES.fromRow(row) : null;
}

export function getCertificateByCode(store: Store, code: string): CertificateValue | null {
  const row = store.stmt('SELECT * FROM certificates WHERE code = ?').get(code) as Row | undefined;
  return row ? CERTIFICATES.fromRow(row) : null;
}

export function codeExists(store: Store, code: string): boolean {
  return store.stmt('SELECT 1 AS x FROM certificates WHERE code = ?').get(code) !== undefined;
}

export function insertCertificate(store: Store, c: CertificateValue): CertificateValue {
  return insertRecord(store, CERTIFICATES, c);
}

export function markReplaced(store: Store, id: string, replacedBy: string): void {
  store.stmt('UPDATE certificates SET replaced_by = ? WHERE id = ?').run(replacedBy, id);
}

/**
 * Certificates a user may read: their own, their reports' (direct or indirect), those of
 * courses they teach; all for admins. Optional filters by learner and course.
 */
export function listReadableCertificates(
  store: Store,
  viewer: { id: string; admin: boolean },
  filter: { userId?: string | undefined; courseId?: string | undefined },
): CertificateValue[] {
  const rows = store
    .stmt(
      `WITH RECURSIVE reports(id) AS (
         SELECT report_id FROM reporting_lines WHERE manager_id = :viewer
         UNION SELECT r.report_id FROM reporting_lines r JOIN reports ON r.manager_id = reports.id
       )
       SELECT c.* FROM certificates c
       WHERE (:admin = 1 OR c.user_id = :viewer OR c.user_id IN (SELECT id FROM reports)
              OR c.course_id IN (SELECT course_id FROM enrollments WHERE user_id = :viewer AND role = 'instructor'))
         AND (:userId IS NULL OR c.user_id = :userId) AND (:courseId IS NULL OR c.course_id = :courseId)
       ORDER BY c.id`,
    )
    .all({ viewer: viewer.id, admin: viewer.admin ? 1 : 0, userId: filter.userId ?? null, courseId: filter.courseId ?? null }) as Row[];
  return rows.map(CERTIFICATES.fromRow);
}
