/**
 * Every operation x caller x scope, against the designed answer (errors-and-auth.md).
 * Callers: admin, the course's instructor, reviewer and student, an outsider, no token.
 * Scope: a token with only the operation's scope must behave like `*`; a token with every
 * scope but it is forbidden wherever the caller could otherwise act.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { type OperationId, POLICIES } from '../../src/api/policies.js';
import { FIXTURE_CONTROL_ROUTES, ROUTE_MODULES } from '../../src/api/routes/index.js';
import { defaultGradebookSetup } from '../../src/domain/grading/index.js';
import { SCOPES, type Scope } from '../../src/schemas/people.js';
import type { Store } from '../../src/store/db.js';
import { makeService, type TestService } from '../helpers/app.js';
import { testFixtureTools } from '../helpers/fixture.js';

type Role = 'admin' | 'inst' | 'rev' | 'stu1' | 'out' | 'none';
const ROLES: Role[] = ['admin', 'inst', 'rev', 'stu1', 'out', 'none'];
type Expect = 'ok' | 401 | 403 | 404;

const BY_RULE: Record<string, Expect[]> = {
  public: ['ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  authenticated: ['ok', 'ok', 'ok', 'ok', 'ok', 401],
  admin: ['ok', 403, 403, 403, 403, 401],
  'course:read': ['ok', 'ok', 'ok', 'ok', 404, 401],
  'course:staff': ['ok', 'ok', 'ok', 403, 404, 401],
  'course:write': ['ok', 'ok', 403, 403, 404, 401],
  'course:author': ['ok', 'ok', 403, 403, 404, 401],
  'course:grade': ['ok', 'ok', 403, 403, 404, 401],
  'course:submit': [403, 403, 403, 'ok', 404, 401],
  'submission:read': ['ok', 'ok', 403, 'ok', 404, 401],
  self: ['ok', 'ok', 404, 404, 404, 401],
  'template:write': ['ok', 'ok', 403, 403, 403, 401],
  'certificate:read': ['ok', 'ok', 404, 'ok', 404, 401],
  'certificate:replace': ['ok', 'ok', 404, 403, 404, 401],
  'token:owner': ['ok', 'ok', 404, 404, 404, 401],
};

const setup = {
  ...defaultGradebookSetup('c1', '2026-11-01T00:00:00.000Z', 'admin'),
  dismissedChecks: [{ code: 'item-no-category' as const, target: 'a1', by: 'inst', at: '2026-11-01T00:00:00.000Z' }],
};
const RUBRIC = {
  id: 'mini',
  name: 'Mini',
  attribution: 'x',
  standards: [{ standardId: 's', number: '1', title: 'T', items: [{ itemId: 'i', number: '1.1', text: 'T', kind: 'human', essential: false }] }],
};

/** Course c1 of the matrix's service as a course file (#14): writing it back changes nothing. */
const C1_CONTENT = {
  coursebookCourse: 1,
  course: { title: 'Course One', description: 'A test course.' },
  modules: [
    {
      id: 'm1',
      title: 'Module One',
      objective: 'Learn the basics.',
      status: 'published',
      lessons: [
        { id: 'l1', title: 'L', minutes: 5, status: 'published', blocks: [{ id: 'b1', type: 'paragraph', text: 'AI', origin: 'ai', aiState: 'draft' }] },
      ],
      assignments: [{ id: 'a1', title: 'A', points: 10, status: 'published' }],
    },
  ],
};

/** A request that succeeds for a caller the rules allow. */
const REQUESTS: Partial<
  Record<OperationId, { method: string; path: string; body?: unknown; conflictOk?: boolean; overrides?: Partial<Record<Role, Expect>> }>
> = {
  health: { method: 'GET', path: '/health' },
  openapi: { method: 'GET', path: '/openapi.json' },
  // Without serve --allow-reset the route answers not-found even to admins.
  reset: { method: 'POST', path: '/_reset', overrides: { admin: 404 } },
  whoAmI: { method: 'GET', path: '/me' },
  importDataset: { method: 'POST', path: '/import', body: { coursebook: 1 } },
  dumpDataset: { method: 'GET', path: '/dump' },
  listUsers: { method: 'GET', path: '/users' },
  createUser: { method: 'POST', path: '/users', body: { name: 'New' } },
  getUser: { method: 'GET', path: '/users/inst' },
  updateUser: { method: 'PATCH', path: '/users/stu2', body: { name: 'Renamed' } },
  listEnrollments: { method: 'GET', path: '/courses/c1/enrollments' },
  createEnrollment: { method: 'POST', path: '/courses/c1/enrollments', body: { userId: 'out', role: 'student' } },
  deleteEnrollment: { method: 'DELETE', path: '/courses/c1/enrollments/stu2' },
  listTokens: { method: 'GET', path: '/tokens' },
  createToken: { method: 'POST', path: '/tokens', body: { name: 't', scopes: ['content:read'] }, overrides: {} },
  revokeToken: { method: 'DELETE', path: '/tokens/tk_inst' },
  listCourses: { method: 'GET', path: '/courses' },
  createCourse: { method: 'POST', path: '/courses', body: { title: 'C2' } },
  getCourse: { method: 'GET', path: '/courses/c1' },
  updateCourse: { method: 'PATCH', path: '/courses/c1', body: { title: 'Renamed' } },
  publishCourse: { method: 'POST', path: '/courses/c1/publish', conflictOk: true },
  exportCourse: { method: 'GET', path: '/courses/c1/export' },
  importCourse: { method: 'POST', path: '/courses/import', body: { coursebookCourse: 1, course: { title: 'Imported' } } },
  listModules: { method: 'GET', path: '/courses/c1/modules' },
  createModule: { method: 'POST', path: '/courses/c1/modules', body: { title: 'M' } },
  getModule: { method: 'GET', path: '/modules/m1' },
  updateModule: { method: 'PATCH', path: '/modules/m1', body: { title: 'M' } },
  createLesson: { method: 'POST', path: '/modules/m1/lessons', body: { title: 'L', minutes: 5 } },
  listLessons: { method: 'GET', path: '/modules/m1/lessons' },
  getLesson: { method: 'GET', path: '/lessons/l1' },
  updateLesson: { method: 'PATCH', path: '/lessons/l1', body: { title: 'L' } },
  publishLesson: { method: 'POST', path: '/lessons/l1/publish' },
  listBlocks: { method: 'GET', path: '/lessons/l1/blocks' },
  addBlock: { method: 'POST', path: '/lessons/l1/blocks', body: { type: 'divider' } },
  getBlock: { method: 'GET', path: '/blocks/b1' },
  updateBlock: { method: 'PATCH', path: '/blocks/b1', body: { type: 'paragraph', text: 'x' } },
  moveBlock: { method: 'POST', path: '/blocks/b1/move', body: { position: 0 } },
  deleteBlock: { method: 'DELETE', path: '/blocks/b1' },
  reviewBlock: { method: 'POST', path: '/blocks/b1/review', body: { decision: 'accept' } },
  listCourseAssignments: { method: 'GET', path: '/courses/c1/assignments' },
  createAssignment: { method: 'POST', path: '/modules/m1/assignments', body: { title: 'A', points: 5 } },
  getAssignment: { method: 'GET', path: '/assignments/a1' },
  updateAssignment: { method: 'PATCH', path: '/assignments/a1', body: { title: 'A' } },
  publishAssignment: { method: 'POST', path: '/assignments/a1/publish' },
  unpublishAssignment: { method: 'POST', path: '/assignments/a1/unpublish', conflictOk: true },
  createSubmission: { method: 'POST', path: '/assignments/a1/submissions', body: { text: 'x' } },
  listSubmissions: { method: 'GET', path: '/assignments/a1/submissions', overrides: { rev: 403 } },
  getSubmission: { method: 'GET', path: '/submissions/s1' },
  gradeSubmission: { method: 'PUT', path: '/submissions/s1/grade', body: { score: 5 } },
  releaseSubmission: { method: 'POST', path: '/submissions/s1/release' },
  getGradebookSetup: { method: 'GET', path: '/courses/c1/gradebook/setup' },
  replaceGradebookSetup: { method: 'PUT', path: '/courses/c1/gradebook/setup', body: setup },
  listSetupChecks: { method: 'GET', path: '/courses/c1/gradebook/setup/checks' },
  dismissSetupCheck: { method: 'POST', path: '/courses/c1/gradebook/setup/dismiss', body: { code: 'item-no-category', target: 'a1' } },
  undismissSetupCheck: { method: 'DELETE', path: '/courses/c1/gradebook/setup/dismiss/item-no-category/a1' },
  getCourseGrades: { method: 'GET', path: '/courses/c1/gradebook/grades' },
  setFinalGrade: { method: 'PUT', path: '/courses/c1/gradebook/students/stu1/final', body: { reason: 'r', expectedVersion: 0, letter: 'A' } },
  getFinalGradeHistory: { method: 'GET', path: '/courses/c1/gradebook/students/stu1/final/history' },
  exportGradebook: { method: 'GET', path: '/courses/c1/gradebook/export' },
  getMyGrades: { method: 'GET', path: '/courses/c1/gradebook/me' },
  getReadiness: { method: 'GET', path: '/courses/c1/readiness' },
  setAttestation: { method: 'PUT', path: '/courses/c1/readiness/items/1.3/attestation', body: { rubricId: 'course-essentials' } },
  withdrawAttestation: { method: 'DELETE', path: '/courses/c1/readiness/items/5.1/attestation' },
  listFindings: { method: 'GET', path: '/courses/c1/readiness/findings' },
  putFinding: { method: 'PUT', path: '/courses/c1/readiness/items/2.2/finding', body: { verdict: 'met', evidence: 'e' } },
  reviewFinding: { method: 'POST', path: '/courses/c1/readiness/items/2.2/finding/review', body: { decision: 'accept' } },
  listRubrics: { method: 'GET', path: '/rubrics' },
  getRubric: { method: 'GET', path: '/rubrics/course-essentials' },
  importRubric: { method: 'POST', path: '/rubrics', body: RUBRIC },
  listTemplates: { method: 'GET', path: '/templates' },
  getTemplate: { method: 'GET', path: '/templates/tpl1' },
  createTemplate: { method: 'POST', path: '/templates', body: { name: 'Mine' } },
  updateTemplate: { method: 'PATCH', path: '/templates/own', body: { name: 'Renamed' } },
  // Anyone with the scope may call it; each update is then checked as updateTemplate is (template:write).
  bulkUpdateTemplates: {
    method: 'POST',
    path: '/templates/bulk-update',
    body: { updates: [{ id: 'own', patch: { accessFloor: 70 } }] },
    overrides: { rev: 403, stu1: 403, out: 403 },
  },
  createCourseFromTemplate: { method: 'POST', path: '/templates/tpl1/courses', body: { title: 'From T' } },
  listCertificates: { method: 'GET', path: '/certificates' },
  issueCertificate: { method: 'POST', path: '/certificates', body: { userId: 'stu1', courseId: 'c1', basis: 'completed' } },
  getCertificate: { method: 'GET', path: '/certificates/cert1' },
  replaceCertificate: { method: 'POST', path: '/certificates/cert1/replace', body: { reason: 'typo' } },
  verifyCertificate: { method: 'GET', path: '/certificate-codes/AAAA-BBBB-CCCC' },
  listReportingLines: { method: 'GET', path: '/reporting-lines' },
  addReportingLine: { method: 'POST', path: '/reporting-lines', body: { managerId: 'rev', reportId: 'stu2' } },
  removeReportingLine: { method: 'DELETE', path: '/reporting-lines/inst/stu1' },
  // fixture control (#16): the matrix service has them (serve --allow-admin), and one fault rule flt_1
  listRequests: { method: 'GET', path: '/_admin/requests' },
  countRequests: { method: 'GET', path: '/_admin/requests/count?status=2xx' },
  clearRequests: { method: 'DELETE', path: '/_admin/requests' },
  listFaults: { method: 'GET', path: '/_admin/faults' },
  addFault: { method: 'POST', path: '/_admin/faults', body: { path: '/nowhere', status: 503 } },
  clearFaults: { method: 'DELETE', path: '/_admin/faults' },
  deleteFault: { method: 'DELETE', path: '/_admin/faults/flt_1' },
  getClock: { method: 'GET', path: '/_admin/clock' },
  setClock: { method: 'PUT', path: '/_admin/clock', body: { now: '2027-01-01T00:00:00Z' } },
  advanceClock: { method: 'POST', path: '/_admin/clock/advance', body: { seconds: 60 } },

  // #14 offline authoring round trip and the content lifecycle
  getCourseContent: { method: 'GET', path: '/courses/c1/content' },
  putCourseContent: { method: 'PUT', path: '/courses/c1/content', body: { ...C1_CONTENT, dryRun: true } },
  getSyncMark: { method: 'GET', path: '/courses/c1/sync-mark?remote=https%3A%2F%2Fremote.example' },
  putSyncMark: {
    method: 'PUT',
    path: '/courses/c1/sync-mark',
    body: { remote: 'https://remote.example', remoteRevision: 3, localRevision: 5, base: C1_CONTENT },
  },
  unpublishCourse: { method: 'POST', path: '/courses/c1/unpublish' },
  publishModule: { method: 'POST', path: '/modules/m1/publish' },
  // a1 has a submission: hiding or deleting it is a conflict, after access is granted.
  unpublishModule: { method: 'POST', path: '/modules/m1/unpublish', conflictOk: true },
  deleteModule: { method: 'DELETE', path: '/modules/m1', conflictOk: true },
  unpublishLesson: { method: 'POST', path: '/lessons/l1/unpublish' },
  deleteLesson: { method: 'DELETE', path: '/lessons/l1' },
  deleteAssignment: { method: 'DELETE', path: '/assignments/a1', conflictOk: true },
  // issue #13
  removeGradebookCategory: { method: 'DELETE', path: '/courses/c1/gradebook/categories/assignments?expectedVersion=1' },
  setAssignmentsCategory: { method: 'POST', path: '/courses/c1/assignments/category', body: { categoryId: 'assignments', assignmentIds: ['a1'] } },
  importGrades: { method: 'POST', path: '/courses/c1/gradebook/import', body: { items: [{ itemId: 'a1' }], rows: [{ studentId: 'stu1', scores: [8] }] } },
};

/**
 * The matrix's app over a service: with the fixture control routes (serve --allow-admin) and
 * one fault rule, on a store that `send` points at each request's rehearsal.
 */
interface MatrixService {
  base: TestService;
  app: ReturnType<typeof createApp>;
  /** Where the app's statements go: a rehearsal's handle, or (null) the service's store. */
  route(store: Store | null): void;
}

function withFixtureControl(base: TestService): MatrixService {
  const fixture = testFixtureTools();
  fixture.control!.faults.add({ path: '/nowhere', status: 503 });
  let current = base.store;
  const store = new Proxy(base.store, { get: (_target, key) => Reflect.get(current, key) });
  const app = createApp({ ...base.deps, store, options: { ...base.deps.options, allowAdmin: true }, fixture }, ROUTE_MODULES, FIXTURE_CONTROL_ROUTES);
  return {
    base,
    app,
    route: (to) => {
      current = to ?? base.store;
    },
  };
}

/** Operations whose routes are registered elsewhere or not yet built; reported as todo. */
const NOT_IN_MATRIX = new Set<string>(['openapi', 'reset']);

/**
 * A service for a scope holds every caller's tokens: each role's own `tok-<role>` (the
 * base dataset), the instructor's `inst-own`, and per role a token with only that scope and
 * one with every other scope. Each request then runs in a rehearsal (rolled back),
 * so every caller meets the same starting state without a new store per request.
 */
function service(scope: Scope | null) {
  const scoped = ROLES.filter((r) => r !== 'none').flatMap((role) =>
    scope
      ? [
          { token: `only-${role}`, userId: role, scopes: [scope] },
          { token: `without-${role}`, userId: role, scopes: SCOPES.filter((s) => s !== scope && s !== '*') },
        ]
      : [],
  );
  return makeService({
    tokens: [{ id: 'tk_inst', token: 'inst-own', userId: 'inst', scopes: ['*'] }, ...scoped],
    lessons: [{ id: 'l1', moduleId: 'm1', title: 'L', minutes: 5, status: 'published' }],
    // An AI rewrite awaiting review: a student reads the paragraph it replaced (block-view.ts).
    blocks: [{ id: 'b1', lessonId: 'l1', type: 'paragraph', text: 'AI', origin: 'ai', aiState: 'draft', previous: { type: 'paragraph', text: 'Before' } }],
    assignments: [{ id: 'a1', moduleId: 'm1', title: 'A', points: 10, status: 'published' }],
    submissions: [{ id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-20T00:00:00Z', grade: { score: 7 } }],
    gradebookSetups: [setup],
    findings: [{ courseId: 'c1', itemId: '2.2', verdict: 'met', evidence: 'e' }],
    attestations: [{ courseId: 'c1', itemId: '5.1', rubricId: 'course-essentials', by: 'inst', byName: 'I', note: '', at: '2026-11-01T00:00:00Z' }],
    templates: [
      { id: 'tpl1', name: 'T' },
      { id: 'own', name: 'Own', owner: { kind: 'user', userId: 'inst' } },
    ],
    certificates: [
      {
        id: 'cert1',
        code: 'AAAA-BBBB-CCCC',
        userId: 'stu1',
        learnerName: 'S',
        courseId: 'c1',
        courseTitle: 'C',
        issuedAt: '2026-11-01T00:00:00Z',
        basis: 'completed',
      },
    ],
    reportingLines: [{ managerId: 'inst', reportId: 'stu1' }],
  });
}

/**
 * One request against the operation's service, rolled back afterwards. Fixture control keeps
 * its state (faults, clock, journal) in memory, not in the store: its requests get a new app.
 */
async function send(matrix: MatrixService, token: string | null, req: { method: string; path: string; body?: unknown }) {
  const svc = req.path.startsWith('/_admin') ? withFixtureControl(matrix.base) : matrix;
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  return svc.base.store.rehearse(async (tx) => {
    svc.route(tx);
    try {
      const res = await svc.app.request(`http://t/api/v1${req.path}`, {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      });
      return { status: res.status, text: await res.text() };
    } finally {
      svc.route(null);
    }
  });
}

describe('access matrix', () => {
  const ops = Object.keys(POLICIES) as OperationId[];
  // One service per scope, shared by the operations that need it: every request is rolled
  // back, so each operation still meets the dataset as loaded (a service per operation
  // loaded it a hundred times, most of this file's time on PostgreSQL).
  const services = new Map<Scope | null, Promise<TestService>>();
  const serviceFor = (scope: Scope | null) => {
    let svc = services.get(scope);
    if (!svc) services.set(scope, (svc = service(scope)));
    return svc;
  };
  afterAll(async () => {
    for (const svc of services.values()) await (await svc).close();
  });

  it('every registered route has a POLICIES row, and every row a route', async () => {
    const svc = withFixtureControl(await makeService());
    const doc = svc.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const registered = new Set(
      Object.values(doc.paths ?? {}).flatMap((p) => Object.values(p as Record<string, { operationId?: string }>).map((o) => o.operationId)),
    );
    for (const id of registered) expect(ops).toContain(id);
    const missing = ops.filter((id) => !registered.has(id) && !NOT_IN_MATRIX.has(id));
    expect(missing).toEqual([]);
    await svc.base.close();
  });

  for (const op of ops) {
    const req = REQUESTS[op];
    if (!req) {
      it.todo(`${op}: no route yet`);
      continue;
    }
    const policy = POLICIES[op];
    const designed = BY_RULE[policy.rule]!;
    it(`${op} (${policy.rule}, scope ${policy.scope ?? 'none'})`, async () => {
      const svc = withFixtureControl(await serviceFor(policy.scope ?? null));
      for (let i = 0; i < ROLES.length; i++) {
        const role = ROLES[i]!;
        const want = req.overrides?.[role] ?? designed[i]!;
        const token = role === 'none' ? null : role === 'inst' && op === 'revokeToken' ? 'inst-own' : `tok-${role}`;
        const got = await send(svc, token, req);
        const label = `${op} as ${role}: ${got.status} ${got.text.slice(0, 160)}`;
        if (want === 'ok') expect([200, 201, ...(req.conflictOk ? [409] : [])], label).toContain(got.status);
        else expect(got.status, label).toBe(want);

        if (policy.scope && role !== 'none') {
          const only = await send(svc, `only-${role}`, req);
          const without = await send(svc, `without-${role}`, req);
          if (want === 'ok') {
            expect([200, 201, ...(req.conflictOk ? [409] : [])], `${label} [only ${policy.scope}] ${only.status} ${only.text.slice(0, 120)}`).toContain(
              only.status,
            );
            expect(without.status, `${label} [without ${policy.scope}]`).toBe(403);
          } else {
            // A 404 from visibility comes before the scope check; reset's 404 comes from its handler, after it.
            expect(without.status, `${label} [without ${policy.scope}]`).toBe(want === 404 && op !== 'reset' ? 404 : 403);
          }
        }
      }
    });
  }
});

describe('access matrix: the submitting student sees a grade only once released (#17)', () => {
  /** Operations whose success answer holds a Submission, read from the served document so a new one cannot be missed. */
  async function operationsAnsweringSubmissions(): Promise<string[]> {
    const svc = await makeService();
    const doc = svc.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    svc.close();
    const found: string[] = [];
    for (const item of Object.values(doc.paths ?? {}))
      for (const op of Object.values(item as Record<string, { operationId?: string; responses?: Record<string, unknown> }>)) {
        const success = JSON.stringify([op.responses?.['200'], op.responses?.['201']]);
        if (op.operationId && success.includes('#/components/schemas/Submission"')) found.push(op.operationId);
      }
    return found.sort();
  }
  const SUBMISSION_ANSWERS: OperationId[] = ['createSubmission', 'getSubmission', 'gradeSubmission', 'listSubmissions', 'releaseSubmission'];

  it('covers every operation that answers a submission', async () => {
    expect(await operationsAnsweringSubmissions()).toEqual(SUBMISSION_ANSWERS);
  });

  const grades = (body: unknown): unknown[] =>
    (Array.isArray(body) ? body : [body]).filter((s): s is { grade: unknown } => typeof s === 'object' && s !== null && 'grade' in s).map((s) => s.grade);

  for (const op of SUBMISSION_ANSWERS) {
    it(`${op} as the student: no grade before release (s1 is graded 7, unreleased), the grade after`, async () => {
      const req = REQUESTS[op]!;
      const svc = await service(null);
      try {
        const ask = () => svc.call(req.method, req.path, req.body, 'stu1');
        const before = await ask();
        const allowed = BY_RULE[POLICIES[op].rule]![ROLES.indexOf('stu1')] === 'ok';
        if (!allowed) {
          expect(before.status).toBe(403);
          expect(JSON.stringify(before.body)).not.toContain('"score"');
          return;
        }
        expect([200, 201]).toContain(before.status);
        expect(grades(before.body).length).toBeGreaterThan(0);
        for (const grade of grades(before.body)) expect(grade).toBeNull();
        expect(JSON.stringify(before.body)).not.toMatch(/"state":"graded"/);
        expect((await svc.call('POST', '/submissions/s1/release', undefined, 'inst')).status).toBe(200);
        const after = await ask();
        if (op !== 'createSubmission') expect(grades(after.body)).toContainEqual(expect.objectContaining({ score: 7, releasedAt: expect.any(String) }));
      } finally {
        svc.close();
      }
    });
  }
});
