import { z } from '@hono/zod-openapi';
import { AppError, notFound } from '../../errors.js';
import type { Ids } from '../../runtime/ids.js';
import { Id, orNull } from '../../schemas/common.js';
import type { CertificateValue } from '../../schemas/templates.js';
import { Certificate, CertificateIssue, CertificateReplace } from '../../schemas/templates.js';
import { codeExists, getCertificate, getCertificateByCode, insertCertificate, listReadableCertificates, markReplaced } from '../../store/certificates.js';
import { getCourse } from '../../store/courses.js';
import type { Store } from '../../store/db.js';
import { getUser } from '../../store/users.js';
import type { AppDeps } from '../context.js';
import { defineOperation, type RouteModule } from '../define.js';

/** 12 Crockford base32 characters from the id source, XXXX-XXXX-XXXX, unique in the store. */
async function newCode(store: Store, ids: Ids): Promise<string> {
  // 60 random bits: a random collision is astronomically rare. Sequential draws (under
  // --deterministic) may meet codes a seed already holds, so keep drawing for a while.
  for (let attempt = 0; attempt < 1000; attempt++) {
    const raw = ids.draw(12);
    const code = `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
    if (!(await codeExists(store, code))) return code;
  }
  throw new AppError('conflict', 'Could not draw an unused certificate code; try again.');
}

/** Crockford decoding is forgiving: case, O for 0, I and L for 1, hyphens optional. */
export function normaliseCode(input: string): string {
  const s = input.toUpperCase().replace(/[-\s]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return s.length === 12 ? `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}` : s;
}

async function issue(
  deps: AppDeps,
  userId: string,
  courseId: string,
  basis: CertificateValue['basis'],
  replaces: string | null,
  reason: string | null,
): Promise<CertificateValue> {
  const user = await getUser(deps.store, userId);
  if (!user) throw notFound('User', userId);
  const course = (await getCourse(deps.store, courseId))!;
  // learnerName and courseTitle are copied now and never change afterwards.
  return insertCertificate(deps.store, {
    id: deps.ids.next('cert'),
    code: await newCode(deps.store, deps.ids),
    userId,
    learnerName: user.name,
    courseId,
    courseTitle: course.title,
    issuedAt: deps.clock.now(),
    basis,
    replaces,
    replacedBy: null,
    replaceReason: reason,
  });
}

export const certificatesRoutes: RouteModule = [
  defineOperation({
    operationId: 'issueCertificate',
    method: 'post',
    path: '/certificates',
    summary: "Issue a certificate (the course's instructors, admins)",
    tag: 'certificates',
    body: CertificateIssue,
    response: Certificate,
    status: 201,
    handler: ({ deps, body }) => deps.store.tx((tx) => issue({ ...deps, store: tx }, body.userId, body.courseId, body.basis, null, null)),
  }),
  defineOperation({
    operationId: 'listCertificates',
    method: 'get',
    path: '/certificates',
    summary: 'Certificates the caller may read, optionally for one learner or course',
    tag: 'certificates',
    query: z.strictObject({ userId: Id.optional(), courseId: Id.optional() }),
    response: z.array(Certificate),
    handler: ({ deps, query, granted }) => listReadableCertificates(deps.store, granted.caller.user, query),
  }),
  defineOperation({
    operationId: 'verifyCertificate',
    method: 'get',
    path: '/certificate-codes/{code}',
    summary: 'Verify a certificate code: {valid, current, certificate}',
    tag: 'certificates',
    params: z.object({ code: z.string().min(1).max(40) }),
    response: z.object({ valid: z.boolean(), current: z.boolean(), certificate: orNull(Certificate) }),
    handler: async ({ deps, params }) => {
      const cert = await getCertificateByCode(deps.store, normaliseCode(params.code));
      return cert ? { valid: true, current: cert.replacedBy === null, certificate: cert } : { valid: false, current: false, certificate: null };
    },
  }),
  defineOperation({
    operationId: 'getCertificate',
    method: 'get',
    path: '/certificates/{certificateId}',
    summary: "Get a certificate (its learner, the learner's managers, the course's instructors, admins)",
    tag: 'certificates',
    params: z.object({ certificateId: Id }),
    response: Certificate,
    handler: ({ deps, params }) => getCertificate(deps.store, params.certificateId),
  }),
  defineOperation({
    operationId: 'replaceCertificate',
    method: 'post',
    path: '/certificates/{certificateId}/replace',
    summary: 'Replace a certificate: a new one that replaces it; the old one points to it; a replaced one cannot be replaced again',
    tag: 'certificates',
    params: z.object({ certificateId: Id }),
    body: CertificateReplace,
    response: Certificate,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const old = (await getCertificate(tx, params.certificateId))!;
        if (old.replacedBy !== null)
          throw new AppError('conflict', `Certificate ${old.id} was already replaced by ${old.replacedBy}.`, { replacedBy: old.replacedBy });
        const next = await issue({ ...deps, store: tx }, old.userId, old.courseId, body.basis ?? old.basis, old.id, body.reason);
        await markReplaced(tx, old.id, next.id);
        return next;
      }),
  }),
];
