import { z } from '@hono/zod-openapi';
import { Id, PersonName, Timestamp } from './common.js';

export const SCOPES = [
  'content:read',
  'content:write',
  'submissions:write',
  'gradebook:read',
  'gradebook:write',
  'readiness:read',
  'readiness:attest',
  'templates:read',
  'templates:write',
  'certificates:read',
  'certificates:write',
  'people:read',
  'people:write',
  '*',
] as const;
export type Scope = (typeof SCOPES)[number];
export const ScopeSchema = z.enum(SCOPES);

export const User = z.object({ id: Id, name: z.string(), email: z.string().nullable(), admin: z.boolean() }).openapi('User');

export const UserCreate = z.strictObject({
  id: Id.optional(),
  name: PersonName,
  email: z.string().email().max(320).nullable().default(null),
  admin: z.boolean().default(false),
});

export const UserUpdate = z.strictObject({
  name: PersonName.optional(),
  email: z.string().email().max(320).nullable().optional(),
  admin: z.boolean().optional(),
});

export const CourseRole = z.enum(['instructor', 'reviewer', 'student']);
export type CourseRoleValue = z.infer<typeof CourseRole>;

export const Enrollment = z.object({ courseId: Id, userId: Id, role: CourseRole }).openapi('Enrollment');
export const EnrollmentCreate = z.strictObject({ userId: Id, role: CourseRole });

export const ApiToken = z
  .object({
    id: Id,
    userId: Id,
    name: z.string(),
    scopes: z.array(ScopeSchema),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
  })
  .openapi('ApiToken');

export const ReportingLine = z.object({ managerId: Id, reportId: Id, createdBy: z.string(), createdAt: Timestamp }).openapi('ReportingLine');

export const ReportingLineCreate = z.strictObject({ managerId: Id, reportId: Id });

// --- the one type per resource, inferred from its schema -------------------------------
export type UserValue = z.infer<typeof User>;
export type EnrollmentValue = z.infer<typeof Enrollment>;
export type ApiTokenValue = z.infer<typeof ApiToken>;
export type ReportingLineValue = z.infer<typeof ReportingLine>;
