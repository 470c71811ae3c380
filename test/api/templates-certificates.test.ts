import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { lastInstructorsTaken } from '../../src/domain/people/last-instructor.js';
import { loopIfAdded } from '../../src/domain/people/reporting-lines.js';
import { type DatasetRecord, makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const TEMPLATE = {
  id: 'tpl1',
  name: 'Standard',
  modules: [
    {
      key: 'welcome',
      title: 'Start here',
      objective: 'Orientation',
      lessons: [{ key: 'w', title: 'Welcome', minutes: 10, blocks: [{ key: 'h', label: 'Title', content: { type: 'heading', level: 1, text: 'Welcome' } }] }],
    },
    { key: 'wrap', title: 'Wrap-up', lessons: [] },
  ],
  accessFloor: 60,
} satisfies DatasetRecord<'templates'>;

describe('templates', () => {
  it('create gives new modules start placement; owners default by role', async () => {
    svc = await makeService();
    const t = await svc.call('POST', '/templates', TEMPLATE);
    expect(t.status).toBe(201);
    expect(t.body).toMatchObject({ owner: { kind: 'institution' }, accessFloor: 60, updatedBy: 'admin', tutorDefaults: { lesson: 'off', assignment: 'off' } });
    expect(t.body.modules.map((m: { placement: string }) => m.placement)).toEqual(['start', 'start']);
    const mine = await svc.call('POST', '/templates', { name: 'Mine' }, 'inst');
    expect(mine.body.owner).toEqual({ kind: 'user', userId: 'inst' });
    expect((await svc.call('POST', '/templates', { name: 'Inst', owner: { kind: 'institution' } }, 'inst')).status).toBe(403);
  });

  it('PATCH: given fields replace; modules replace the list keeping placement by key, new keys start', async () => {
    svc = await makeService({
      templates: [
        {
          ...TEMPLATE,
          modules: [
            { ...TEMPLATE.modules[0]!, placement: 'start' },
            { ...TEMPLATE.modules[1]!, placement: 'end' },
          ],
        },
      ],
    });
    const res = await svc.call('PATCH', '/templates/tpl1', {
      accessFloor: 75,
      modules: [
        { key: 'wrap', title: 'Wrap-up 2' },
        { key: 'new', title: 'New' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Standard', accessFloor: 75, updatedAt: '2026-11-22T08:30:00.000Z' });
    expect(res.body.modules.map((m: { key: string; placement: string }) => `${m.key}:${m.placement}`)).toEqual(['wrap:end', 'new:start']);
  });

  it.each([
    [{ modules: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, title: 'M' })) }, 'modules'],
    [
      {
        modules: [
          { key: 'a', title: 'A' },
          { key: 'a', title: 'B' },
        ],
      },
      'modules[1].key',
    ],
    [{ modules: [{ key: 'a', title: 'A', placement: 'end' }] }, 'modules[0].placement'],
    [{ accessFloor: 101 }, 'accessFloor'],
    [{ name: '' }, 'name'],
    [{ owner: { kind: 'user' } }, 'owner.userId'],
  ])('invalid PATCH %j names %s', async (body, path) => {
    svc = await makeService({ templates: [TEMPLATE] });
    const res = await svc.call('PATCH', '/templates/tpl1', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('only admins or the owner of a user-owned template change it', async () => {
    svc = await makeService({ templates: [{ id: 'own', name: 'Own', owner: { kind: 'user', userId: 'inst' } }, TEMPLATE] });
    expect((await svc.call('PATCH', '/templates/own', { name: 'X' }, 'inst')).status).toBe(200);
    expect((await svc.call('PATCH', '/templates/own', { name: 'X' }, 'rev')).status).toBe(403);
    expect((await svc.call('PATCH', '/templates/tpl1', { name: 'X' }, 'inst')).status).toBe(403);
    expect((await svc.call('PATCH', '/templates/own', { owner: { kind: 'institution' } }, 'inst')).status).toBe(403);
    expect((await svc.call('GET', '/templates/tpl1', undefined, 'stu1')).status).toBe(200);
    expect((await svc.call('PATCH', '/templates/nope', { name: 'X' })).status).toBe(404);
  });

  it('a course made from a template copies modules (start before end), lessons, blocks, tutorDefaults and accessFloor', async () => {
    svc = await makeService({
      templates: [
        {
          ...TEMPLATE,
          tutorDefaults: { lesson: 'on', assignment: 'off' },
          modules: [
            { ...TEMPLATE.modules[1]!, placement: 'end' },
            { ...TEMPLATE.modules[0]!, placement: 'start' },
          ],
        },
      ],
    });
    const course = await svc.call('POST', '/templates/tpl1/courses', { title: 'From template' });
    expect(course.status).toBe(201);
    expect(course.body).toMatchObject({ templateId: 'tpl1', accessFloor: 60, tutorDefaults: { lesson: 'on', assignment: 'off' } });
    const modules = (await svc.call('GET', `/courses/${course.body.id}/modules`)).body;
    expect(modules.map((m: { title: string }) => m.title)).toEqual(['Start here', 'Wrap-up']);
    const lessons = (await svc.call('GET', `/modules/${modules[0].id}/lessons`)).body;
    expect((await svc.call('GET', `/lessons/${lessons[0].id}/blocks`)).body[0]).toMatchObject({ type: 'heading', text: 'Welcome' });
    await svc.call('PATCH', '/templates/tpl1', { accessFloor: 90 });
    expect((await svc.call('GET', `/courses/${course.body.id}`)).body.accessFloor).toBe(60);
    // readiness: the template's floor blocks publishing while percent is below it
    expect((await svc.call('GET', `/courses/${course.body.id}/readiness`)).body.blocksPublishing).toBe(true);
  });

  it('bulk update applies all or nothing; every update is tried and each failure named', async () => {
    svc = await makeService({ templates: [TEMPLATE, { id: 'tpl2', name: 'Two' }] });
    const bad = await svc.call('POST', '/templates/bulk-update', {
      updates: [
        { id: 'tpl1', patch: { accessFloor: 80 } },
        { id: 'nope', patch: { accessFloor: 80 } },
        { id: 'tpl2', patch: { owner: { kind: 'user', userId: 'ghost' } } },
      ],
    });
    expect(bad.status).toBe(404);
    expect(bad.body).toEqual({
      error: {
        code: 'not-found',
        message: '2 of 3 template updates failed; nothing was changed.',
        details: [
          { path: 'updates[1]', id: 'nope', code: 'not-found', message: 'Template "nope" was not found.' },
          { path: 'updates[2]', id: 'tpl2', code: 'not-found', message: 'User "ghost" was not found.' },
        ],
      },
    });
    expect((await svc.call('GET', '/templates/tpl1')).body.accessFloor).toBe(60);
    const ok = await svc.call('POST', '/templates/bulk-update', {
      updates: [
        { id: 'tpl1', patch: { accessFloor: 80 } },
        { id: 'tpl2', patch: { accessFloor: 80 } },
      ],
    });
    expect(ok.body).toEqual({ updated: ['tpl1', 'tpl2'], dryRun: false });
    expect((await svc.call('GET', '/templates/tpl2')).body).toMatchObject({ accessFloor: 80, updatedBy: 'admin' });
  });

  it("bulk update checks each template as PATCH does: an owner may change their own, not the institution's", async () => {
    svc = await makeService({ templates: [TEMPLATE, { id: 'mine', name: 'Mine', owner: { kind: 'user', userId: 'inst' } }] });
    const own = await svc.call('POST', '/templates/bulk-update', { updates: [{ id: 'mine', patch: { accessFloor: 70 } }] }, 'inst');
    expect(own.body).toEqual({ updated: ['mine'], dryRun: false });
    expect((await svc.call('PATCH', '/templates/tpl1', { accessFloor: 70 }, 'inst')).body.error.message).toBe(
      'Only admins or the owner of a user-owned template may change it.',
    );
    const mixed = await svc.call(
      'POST',
      '/templates/bulk-update',
      {
        updates: [
          { id: 'mine', patch: { accessFloor: 71 } },
          { id: 'tpl1', patch: { accessFloor: 71 } },
          { id: 'mine', patch: { owner: { kind: 'institution' } } },
        ],
      },
      'inst',
    );
    expect(mixed.status).toBe(403);
    expect(mixed.body.error).toEqual({
      code: 'forbidden',
      message: '2 of 3 template updates failed; nothing was changed.',
      details: [
        { path: 'updates[1]', id: 'tpl1', code: 'forbidden', message: 'Only admins or the owner of a user-owned template may change it.' },
        { path: 'updates[2]', id: 'mine', code: 'forbidden', message: 'Only admins may change the owner of a template.' },
      ],
    });
    expect((await svc.call('GET', '/templates/mine')).body.accessFloor).toBe(70);
    // A student owns nothing: forbidden for each, as each PATCH would be.
    expect((await svc.call('POST', '/templates/bulk-update', { updates: [{ id: 'tpl1', patch: {} }] }, 'stu1')).status).toBe(403);
  });

  it('bulk update dryRun: the same checks and the same answer, and nothing changes', async () => {
    svc = await makeService({ templates: [TEMPLATE, { id: 'tpl2', name: 'Two' }] });
    const body = (patch: Record<string, unknown>) => ({ updates: ['tpl1', 'tpl2'].map((id) => ({ id, patch })), dryRun: true });
    const ok = await svc.call('POST', '/templates/bulk-update', body({ accessFloor: 90 }));
    expect(ok).toMatchObject({ status: 200, body: { updated: ['tpl1', 'tpl2'], dryRun: true } });
    const bad = await svc.call('POST', '/templates/bulk-update', body({ owner: { kind: 'user', userId: 'ghost' } }));
    expect(bad.status).toBe(404);
    expect(bad.body.error.message).toBe('2 of 2 template updates would fail.');
    expect(bad.body.error.details.map((d: { id: string; code: string }) => `${d.id}:${d.code}`)).toEqual(['tpl1:not-found', 'tpl2:not-found']);
    expect((await svc.call('GET', '/templates')).body.map((t: { accessFloor: number }) => t.accessFloor)).toEqual([60, 0]);
  });
});

describe('certificates', () => {
  const issue = (as = 'inst') => svc.call('POST', '/certificates', { userId: 'stu1', courseId: 'c1', basis: 'completed' }, as);

  it('issue: a grouped Crockford code; learner name and course title copied and kept', async () => {
    svc = await makeService();
    const c = await issue();
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      userId: 'stu1',
      learnerName: 'Sam Student',
      courseId: 'c1',
      courseTitle: 'Course One',
      basis: 'completed',
      replaces: null,
      replacedBy: null,
      issuedAt: '2026-11-22T08:30:00.000Z',
    });
    expect(c.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    await svc.call('PATCH', '/users/stu1', { name: 'Samantha Student' });
    await svc.call('PATCH', '/courses/c1', { title: 'Renamed' });
    expect((await svc.call('GET', `/certificates/${c.body.id}`)).body).toMatchObject({ learnerName: 'Sam Student', courseTitle: 'Course One' });
    expect((await issue('rev')).status).toBe(403);
    expect((await issue('stu1')).status).toBe(403);
    expect((await issue('out')).status).toBe(404);
  });

  it('replace links both ways; a replaced one cannot be replaced again; verify tells current', async () => {
    svc = await makeService();
    const old = (await issue()).body;
    const next = await svc.call('POST', `/certificates/${old.id}/replace`, { reason: 'Name corrected', basis: 'tested-out' }, 'inst');
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ replaces: old.id, basis: 'tested-out', replaceReason: 'Name corrected' });
    expect((await svc.call('GET', `/certificates/${old.id}`)).body.replacedBy).toBe(next.body.id);
    const again = await svc.call('POST', `/certificates/${old.id}/replace`, { reason: 'x' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await svc.call('GET', `/certificate-codes/${old.code}`, undefined, 'out')).body).toMatchObject({ valid: true, current: false });
    const loose = next.body.code.toLowerCase().replace(/-/g, '');
    expect((await svc.call('GET', `/certificate-codes/${loose}`, undefined, 'out')).body).toMatchObject({ valid: true, current: true });
    expect((await svc.call('GET', '/certificate-codes/AAAA-BBBB-CCCC', undefined, 'out')).body).toEqual({ valid: false, current: false, certificate: null });
  });

  it("read access: learner, the learner's managers (indirect too), the course's instructors, admins; not-found for others", async () => {
    svc = await makeService({
      users: [
        { id: 'boss', name: 'Boss' },
        { id: 'bigboss', name: 'Big Boss' },
      ],
      tokens: [
        { token: 'tok-boss', userId: 'boss', scopes: ['*'] },
        { token: 'tok-bigboss', userId: 'bigboss', scopes: ['*'] },
      ],
      reportingLines: [
        { managerId: 'boss', reportId: 'stu1' },
        { managerId: 'bigboss', reportId: 'boss' },
      ],
    });
    const c = (await issue()).body;
    for (const who of ['stu1', 'boss', 'bigboss', 'inst', 'admin'])
      expect((await svc.call('GET', `/certificates/${c.id}`, undefined, who)).status, who).toBe(200);
    for (const who of ['stu2', 'rev', 'out']) expect((await svc.call('GET', `/certificates/${c.id}`, undefined, who)).status, who).toBe(404);
    expect((await svc.call('GET', '/certificates', undefined, 'bigboss')).body.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect((await svc.call('GET', '/certificates', undefined, 'stu2')).body).toEqual([]);
    expect((await svc.call('POST', `/certificates/${c.id}/replace`, { reason: 'x' }, 'stu1')).status).toBe(403);
  });
});

describe('reporting lines', () => {
  it('add, list (admins all; others theirs), remove', async () => {
    svc = await makeService();
    expect((await svc.call('POST', '/reporting-lines', { managerId: 'inst', reportId: 'stu1' })).status).toBe(201);
    await svc.call('POST', '/reporting-lines', { managerId: 'admin', reportId: 'inst' });
    expect((await svc.call('GET', '/reporting-lines')).body.map((l: { managerId: string; reportId: string }) => `${l.managerId}>${l.reportId}`)).toEqual([
      'admin>inst',
      'inst>stu1',
    ]);
    expect((await svc.call('GET', '/reporting-lines', undefined, 'stu1')).body.map((l: { managerId: string }) => l.managerId)).toEqual(['inst']);
    expect((await svc.call('GET', '/reporting-lines', undefined, 'out')).body).toEqual([]);
    expect((await svc.call('DELETE', '/reporting-lines/inst/stu1')).status).toBe(200);
    expect((await svc.call('DELETE', '/reporting-lines/inst/stu1')).status).toBe(404);
    expect((await svc.call('POST', '/reporting-lines', { managerId: 'inst', reportId: 'stu1' }, 'inst')).status).toBe(403);
  });

  it('self-lines, duplicates and loops are conflict; the loop is named; unknown users not-found', async () => {
    svc = await makeService();
    await svc.call('POST', '/reporting-lines', { managerId: 'admin', reportId: 'inst' });
    await svc.call('POST', '/reporting-lines', { managerId: 'inst', reportId: 'rev' });
    const self = await svc.call('POST', '/reporting-lines', { managerId: 'rev', reportId: 'rev' });
    expect(self.status).toBe(409);
    expect((await svc.call('POST', '/reporting-lines', { managerId: 'inst', reportId: 'rev' })).status).toBe(409);
    const loop = await svc.call('POST', '/reporting-lines', { managerId: 'rev', reportId: 'admin' });
    expect(loop.status).toBe(409);
    expect(loop.body.error.message).toContain('rev -> admin -> inst -> rev');
    expect((await svc.call('POST', '/reporting-lines', { managerId: 'ghost', reportId: 'rev' })).status).toBe(404);
  });

  it('concurrent adds cannot make a loop together', async () => {
    svc = await makeService();
    const [a, b] = await Promise.all([
      svc.call('POST', '/reporting-lines', { managerId: 'inst', reportId: 'rev' }),
      svc.call('POST', '/reporting-lines', { managerId: 'rev', reportId: 'inst' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
  });

  it('property: no sequence of accepted adds ever contains a loop', () => {
    const users = ['a', 'b', 'c', 'd', 'e'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...users), fc.constantFrom(...users)), { maxLength: 30 }), (adds) => {
        const lines: { managerId: string; reportId: string }[] = [];
        for (const [m, r] of adds) {
          if (m === r || lines.some((l) => l.managerId === m && l.reportId === r)) continue;
          if (loopIfAdded(lines, m, r)) continue;
          lines.push({ managerId: m, reportId: r });
        }
        // no user reaches themself
        for (const u of users) {
          const seen = new Set<string>();
          const stack = lines.filter((l) => l.managerId === u).map((l) => l.reportId);
          while (stack.length) {
            const x = stack.pop()!;
            expect(x).not.toBe(u);
            if (seen.has(x)) continue;
            seen.add(x);
            stack.push(...lines.filter((l) => l.managerId === x).map((l) => l.reportId));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('owners and queries', () => {
  it('a user owner must exist; an unknown query parameter is invalid', async () => {
    svc = await makeService({ templates: [TEMPLATE] });
    expect((await svc.call('POST', '/templates', { name: 'X', owner: { kind: 'user', userId: 'ghost' } })).status).toBe(404);
    expect((await svc.call('PATCH', '/templates/tpl1', { owner: { kind: 'user', userId: 'ghost' } })).status).toBe(404);
    const res = await svc.call('GET', '/certificates?user=stu1');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'user', message: 'unknown field' }]);
  });
});

// A course keeps its last instructor (domain/people/last-instructor.ts): demoting or removing
// it is a conflict naming the fix, for the instructor themself and for admins, through the
// enrollment routes and a dataset import with replace alike.
const MESSAGE =
  'Course "c1" would be left without an instructor: "inst" is the last instructor. Enroll another instructor first (coursebook enrollments create --course c1 --user USER --role instructor), then change or remove this enrollment.';

describe('the last instructor', () => {
  it('is not demoted or removed, by themself or an admin; another instructor enrolled first lets it happen', async () => {
    svc = await makeService();
    const refused = { error: { code: 'conflict', message: MESSAGE, details: { courseId: 'c1', instructors: ['inst'] } } };
    for (const as of ['inst', 'admin']) {
      expect(await svc.call('POST', '/courses/c1/enrollments', { userId: 'inst', role: 'student' }, as)).toMatchObject({ status: 409, body: refused });
      expect(await svc.call('DELETE', '/courses/c1/enrollments/inst', undefined, as)).toMatchObject({ status: 409, body: refused });
    }
    // Enrolling again as instructor changes nothing and is no loss; nor is removing someone else.
    expect((await svc.call('POST', '/courses/c1/enrollments', { userId: 'inst', role: 'instructor' }, 'inst')).status).toBe(201);
    expect((await svc.call('DELETE', '/courses/c1/enrollments/stu2', undefined, 'inst')).status).toBe(200);
    expect((await svc.call('POST', '/courses/c1/enrollments', { userId: 'rev', role: 'instructor' }, 'inst')).status).toBe(201);
    expect((await svc.call('POST', '/courses/c1/enrollments', { userId: 'inst', role: 'reviewer' }, 'inst')).status).toBe(201);
    // Now rev is the last one.
    expect((await svc.call('DELETE', '/courses/c1/enrollments/rev', undefined, 'rev')).body.error.message).toContain('"rev" is the last instructor');
  });

  it('a dataset import with replace that demotes it is a conflict at the path in the file; nothing is written', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/import?replace=true', {
      coursebook: 1,
      users: [{ id: 'new', name: 'New Person' }],
      enrollments: [
        { courseId: 'c1', userId: 'stu1', role: 'reviewer' },
        { courseId: 'c1', userId: 'inst', role: 'student' },
      ],
    });
    expect(res).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict', message: MESSAGE, details: [{ path: 'enrollments[1].role', message: MESSAGE }] } },
    });
    expect((await svc.call('GET', '/users/new')).status).toBe(404);
    // The same file with another instructor in it is fine.
    const withOther = await svc.call('POST', '/import?replace=true', {
      coursebook: 1,
      enrollments: [
        { courseId: 'c1', userId: 'inst', role: 'student' },
        { courseId: 'c1', userId: 'rev', role: 'instructor' },
      ],
    });
    expect(withOther.status).toBe(200);
  });

  it('a course that never had an instructor loses nothing', () => {
    expect(lastInstructorsTaken([], [{ userId: 'a', role: 'student' }])).toEqual([]);
    expect(lastInstructorsTaken(['a', 'b'], [{ userId: 'a', role: null }])).toEqual([]);
    expect(
      lastInstructorsTaken(
        ['a', 'b'],
        [
          { userId: 'a', role: null },
          { userId: 'b', role: 'student' },
        ],
      ),
    ).toEqual(['a', 'b']);
  });
});
