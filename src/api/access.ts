import { AppError } from '../errors.js';
import type { Store } from '../store/db.js';
import { type CourseVia, certificateSubject, courseRole, isManagerOf, resolveScope, templateOwner, tokenOwner } from '../store/scope.js';
import type { Caller, Granted } from './context.js';
import type { Policy, Rule } from './policies.js';

const KIND_NAMES: Record<string, string> = {
  courseId: 'Course',
  moduleId: 'Module',
  lessonId: 'Lesson',
  assignmentId: 'Assignment',
  blockId: 'Block',
  submissionId: 'Submission',
  certificateId: 'Certificate',
  templateId: 'Template',
  userId: 'User',
  tokenId: 'Token',
};

export const hasScope = (caller: Caller, scope: string | null): boolean => scope === null || caller.scopes.has('*') || caller.scopes.has(scope);

const notFound = (via: string, id: string) => new AppError('not-found', `${KIND_NAMES[via] ?? 'Resource'} ${JSON.stringify(id)} was not found.`);

function requireScope(caller: Caller, policy: Policy): void {
  if (!hasScope(caller, policy.scope)) {
    throw new AppError('forbidden', `This credential lacks the scope ${policy.scope}.`, { requiredScope: policy.scope });
  }
}

const COURSE_ROLES: Partial<Record<Rule, ReadonlyArray<string>>> = {
  'course:read': ['admin', 'instructor', 'reviewer', 'student'],
  'course:staff': ['admin', 'instructor', 'reviewer'],
  'course:write': ['admin', 'instructor'],
  'course:author': ['admin', 'instructor'],
  'course:grade': ['admin', 'instructor'],
  'course:submit': ['student'],
};

const ROLE_WORDS: Partial<Record<Rule, string>> = {
  'course:staff': "the course's instructors, reviewers and admins",
  'course:write': "the course's instructors and admins",
  'course:author': "the course's instructors and admins",
  'course:grade': "the course's instructors and admins",
  'course:submit': 'students enrolled in the course',
};

/**
 * Decide a request against its policy. Order matters and is the same everywhere:
 * existence and visibility first (not-found, so ids cannot be probed), then the token's
 * scope, then the role (forbidden: the caller can see the thing but not do this).
 */
export async function authorize(store: Store, caller: Caller, policy: Policy, id: string | undefined): Promise<Granted> {
  const { rule } = policy;
  const admin = caller.user.admin;
  const via = (policy.via ?? '').replace(/^body\./, '');

  const courseRoles = COURSE_ROLES[rule];
  if (courseRoles) {
    if (id === undefined) throw new AppError('invalid', `${via} is required`, [{ path: via, message: 'is required' }]);
    const scope = await resolveScope(store, via as CourseVia, id, admin ? undefined : caller.user.id);
    // Writing a course that does not exist creates it: only those who may create courses
    // may; to anyone else it is not-found, as an existing course they may not see would be.
    if (!scope && rule === 'course:author' && admin) {
      requireScope(caller, policy);
      return { caller, courseId: id, role: 'admin' };
    }
    if (!scope) throw notFound(via, id);
    const role = admin ? 'admin' : scope.role;
    if (!role) throw notFound(via, id);
    if (role === 'student' && !scope.visibleToStudents) throw notFound(via, id);
    requireScope(caller, policy);
    if (!courseRoles.includes(role)) {
      throw new AppError('forbidden', `Only ${ROLE_WORDS[rule]} may do this.`);
    }
    return { caller, courseId: scope.courseId, role };
  }

  switch (rule) {
    case 'public':
      return { caller };
    case 'authenticated':
      requireScope(caller, policy);
      return { caller };
    case 'admin':
      requireScope(caller, policy);
      if (!admin) throw new AppError('forbidden', 'Only admins may do this.');
      return { caller };
    case 'submission:read': {
      const scope = await resolveScope(store, 'submissionId', id!, admin ? undefined : caller.user.id);
      if (!scope) throw notFound(via, id!);
      const role = admin ? 'admin' : scope.role;
      const own = scope.ownerId === caller.user.id;
      if (!role || (role === 'student' && !own)) throw notFound(via, id!);
      requireScope(caller, policy);
      if (role === 'reviewer') throw new AppError('forbidden', "Only the student, the course's instructors and admins may read a submission.");
      return { caller, courseId: scope.courseId, role };
    }
    case 'certificate:read':
    case 'certificate:replace': {
      const subject = await certificateSubject(store, id!);
      if (!subject) throw notFound(via, id!);
      const instructor = (await courseRole(store, subject.courseId, caller.user.id)) === 'instructor';
      const readable = admin || instructor || subject.userId === caller.user.id || (await isManagerOf(store, caller.user.id, subject.userId));
      if (!readable) throw notFound(via, id!);
      requireScope(caller, policy);
      if (rule === 'certificate:replace' && !admin && !instructor) {
        throw new AppError('forbidden', "Only the course's instructors and admins may replace a certificate.");
      }
      return { caller, courseId: subject.courseId };
    }
    case 'template:write': {
      const owner = await templateOwner(store, id!);
      if (!owner) throw notFound(via, id!);
      requireScope(caller, policy);
      if (!admin && !(owner.kind === 'user' && owner.userId === caller.user.id)) {
        throw new AppError('forbidden', 'Only admins or the owner of a user-owned template may change it.');
      }
      return { caller };
    }
    case 'self':
      if (!admin && id !== caller.user.id) throw notFound(via, id ?? '');
      requireScope(caller, policy);
      return { caller };
    case 'token:owner': {
      const owner = await tokenOwner(store, id!);
      if (!owner || (!admin && owner !== caller.user.id)) throw notFound(via, id ?? '');
      requireScope(caller, policy);
      return { caller };
    }
    default:
      throw new Error(`no access rule ${rule}`);
  }
}
