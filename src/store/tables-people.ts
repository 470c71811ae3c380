/** The people tables: users, API tokens, enrollments, certificates, reporting lines. */
import type { ApiTokenValue, EnrollmentValue, ReportingLineValue, UserValue } from '../schemas/people.js';
import type { CertificateValue } from '../schemas/templates.js';
import { json, nstr, str, table } from './table.js';

export const USERS = table<UserValue>({
  name: 'users',
  key: ['id'],
  columns: ['id', 'name', 'email', 'admin'],
  toRow: (u) => ({ id: u.id, name: u.name, email: u.email, admin: u.admin ? 1 : 0 }),
  fromRow: (r) => ({ id: str(r.id), name: str(r.name), email: nstr(r.email), admin: r.admin === 1 }),
});

/** A token row: the resource plus the SHA-256 of its secret (the secret itself is never kept). */
export type TokenRecord = ApiTokenValue & { tokenSha256: string };

export const TOKENS = table<TokenRecord>({
  name: 'tokens',
  key: ['id'],
  columns: ['id', 'user_id', 'token_sha256', 'name', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'],
  toRow: (t) => ({
    id: t.id,
    user_id: t.userId,
    token_sha256: t.tokenSha256,
    name: t.name,
    scopes: JSON.stringify(t.scopes),
    created_at: t.createdAt,
    expires_at: t.expiresAt,
    revoked_at: t.revokedAt,
    last_used_at: t.lastUsedAt,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    userId: str(r.user_id),
    name: str(r.name),
    scopes: json(r.scopes, []),
    createdAt: str(r.created_at),
    expiresAt: nstr(r.expires_at),
    revokedAt: nstr(r.revoked_at),
    lastUsedAt: nstr(r.last_used_at),
    tokenSha256: str(r.token_sha256),
  }),
});

export const ENROLLMENTS = table<EnrollmentValue>({
  name: 'enrollments',
  key: ['course_id', 'user_id'],
  columns: ['course_id', 'user_id', 'role'],
  toRow: (e) => ({ course_id: e.courseId, user_id: e.userId, role: e.role }),
  fromRow: (r) => ({ courseId: str(r.course_id), userId: str(r.user_id), role: str(r.role) }),
});

export const CERTIFICATES = table<CertificateValue>({
  name: 'certificates',
  key: ['id'],
  columns: ['id', 'code', 'user_id', 'learner_name', 'course_id', 'course_title', 'issued_at', 'basis', 'replaces', 'replaced_by', 'replace_reason'],
  toRow: (c) => ({
    id: c.id,
    code: c.code,
    user_id: c.userId,
    learner_name: c.learnerName,
    course_id: c.courseId,
    course_title: c.courseTitle,
    issued_at: c.issuedAt,
    basis: c.basis,
    replaces: c.replaces,
    replaced_by: c.replacedBy,
    replace_reason: c.replaceReason,
  }),
  fromRow: (r) => ({
    id: str(r.id),
    code: str(r.code),
    userId: str(r.user_id),
    learnerName: str(r.learner_name),
    courseId: str(r.course_id),
    courseTitle: str(r.course_title),
    issuedAt: str(r.issued_at),
    basis: str(r.basis),
    replaces: nstr(r.replaces),
    replacedBy: nstr(r.replaced_by),
    replaceReason: nstr(r.replace_reason),
  }),
});

export const REPORTING_LINES = table<ReportingLineValue>({
  name: 'reporting_lines',
  key: ['manager_id', 'report_id'],
  columns: ['manager_id', 'report_id', 'created_by', 'created_at'],
  toRow: (l) => ({ manager_id: l.managerId, report_id: l.reportId, created_by: l.createdBy, created_at: l.createdAt }),
  fromRow: (r) => ({ managerId: str(r.manager_id), reportId: str(r.report_id), createdBy: str(r.created_by), createdAt: str(r.created_at) }),
});
