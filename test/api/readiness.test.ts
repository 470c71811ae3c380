import { afterEach, describe, expect, it } from 'vitest';
import type { ReadinessReportValue } from '../../src/schemas/readiness.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

/** The report's item `id`; a report without it fails the test here, naming it. */
function item(report: ReadinessReportValue, id: string) {
  const found = report.standards.flatMap((s) => s.items).find((i) => i.itemId === id);
  if (!found) throw new Error(`the readiness report has no item ${id}`);
  return found;
}

describe('readiness report', () => {
  it('answers the spec shape for instructors, reviewers and admins; students are forbidden; outsiders not-found', async () => {
    svc = await makeService();
    const res = await svc.call('GET', '/courses/c1/readiness', undefined, 'rev');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ courseId: 'c1', rubricId: 'course-essentials', computedAt: '2026-11-22T08:30:00.000Z' });
    for (const k of ['rubricName', 'attribution']) expect(typeof res.body[k]).toBe('string');
    expect(res.body.met).toBeLessThanOrEqual(res.body.applicable);
    expect(typeof res.body.blocksPublishing).toBe('boolean');
    expect(res.body.standards.length).toBeGreaterThan(0);
    expect((await svc.call('GET', '/courses/c1/readiness', undefined, 'stu1')).status).toBe(403);
    expect((await svc.call('GET', '/courses/c1/readiness', undefined, 'out')).status).toBe(404);
  });

  it('publishing while blocked is not-ready with the blocking item numbers', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses/c1/publish', undefined, 'inst');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not-ready');
    expect(res.body.error.details.blocking).toEqual(expect.arrayContaining(['1.1', '1.2']));
    expect((await svc.call('GET', '/courses/c1')).body.status).toBe('draft');
  });
});

describe('attestation', () => {
  it('sets {status, by, byName, note, at}, replaces an earlier one, and DELETE withdraws it', async () => {
    svc = await makeService();
    const res = await svc.call('PUT', '/courses/c1/readiness/items/1.3/attestation', { rubricId: 'course-essentials', note: 'Office hours on page 1' }, 'inst');
    expect(res.status).toBe(200);
    expect(item(res.body, '1.3')).toMatchObject({
      status: 'attested',
      attestation: { status: 'attested', by: 'inst', byName: 'Ivan Instructor', note: 'Office hours on page 1', at: '2026-11-22T08:30:00.000Z' },
    });
    const again = await svc.call('PUT', '/courses/c1/readiness/items/1.3/attestation', { rubricId: 'course-essentials', note: 'Updated' }, 'rev');
    expect(item(again.body, '1.3').attestation).toMatchObject({ by: 'rev', note: 'Updated' });
    const withdrawn = await svc.call('DELETE', '/courses/c1/readiness/items/1.3/attestation', undefined, 'inst');
    expect(withdrawn.status).toBe(200);
    expect(item(withdrawn.body, '1.3')).toMatchObject({ status: 'pending', attestation: null });
    expect((await svc.call('DELETE', '/courses/c1/readiness/items/1.3/attestation')).status).toBe(404);
  });

  it('another rubric is conflict; an unknown item is not-found; an unknown field is invalid', async () => {
    svc = await makeService();
    const wrong = await svc.call('PUT', '/courses/c1/readiness/items/1.3/attestation', { rubricId: 'other', note: 'x' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.code).toBe('conflict');
    expect((await svc.call('PUT', '/courses/c1/readiness/items/9.9/attestation', { rubricId: 'course-essentials', note: 'x' })).status).toBe(404);
    const extra = await svc.call('PUT', '/courses/c1/readiness/items/1.3/attestation', { rubricId: 'course-essentials', note: 'x', by: 'forged' });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details).toEqual([{ path: 'by', message: 'unknown field' }]);
  });

  it('a note is required for an automatic item that is not met, and is limited to 2000 chars', async () => {
    svc = await makeService();
    const noNote = await svc.call('PUT', '/courses/c1/readiness/items/1.2/attestation', { rubricId: 'course-essentials' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.error.details[0].path).toBe('note');
    const long = await svc.call('PUT', '/courses/c1/readiness/items/1.2/attestation', { rubricId: 'course-essentials', note: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    const ok = await svc.call('PUT', '/courses/c1/readiness/items/1.2/attestation', { rubricId: 'course-essentials', note: 'The syllabus PDF explains it.' });
    expect(item(ok.body, '1.2').status).toBe('attested');
    // a human item needs no note
    expect((await svc.call('PUT', '/courses/c1/readiness/items/5.1/attestation', { rubricId: 'course-essentials' })).status).toBe(200);
  });

  it('students cannot attest (forbidden)', async () => {
    svc = await makeService();
    expect((await svc.call('PUT', '/courses/c1/readiness/items/1.3/attestation', { rubricId: 'course-essentials', note: 'x' }, 'stu1')).status).toBe(403);
  });
});

describe('findings', () => {
  it('a stored finding is likely-* until reviewed; accept makes it count; reject removes it', async () => {
    svc = await makeService();
    const put = await svc.call('PUT', '/courses/c1/readiness/items/2.2/finding', { verdict: 'met', evidence: 'Objectives use measurable verbs.' }, 'inst');
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ verdict: 'met', state: 'draft', reviewedBy: null });
    let report = (await svc.call('GET', '/courses/c1/readiness')).body;
    expect(item(report, '2.2').status).toBe('likely-met');
    expect(report.needsReview).toBeGreaterThanOrEqual(1);
    const accepted = await svc.call('POST', '/courses/c1/readiness/items/2.2/finding/review', { decision: 'accept' }, 'rev');
    expect(accepted.body).toMatchObject({ state: 'accepted', reviewedBy: 'rev', reviewedByName: 'Rita Reviewer', reviewedAt: '2026-11-22T08:30:00.000Z' });
    report = (await svc.call('GET', '/courses/c1/readiness')).body;
    expect(item(report, '2.2').status).toBe('met');
    await svc.call('POST', '/courses/c1/readiness/items/2.2/finding/review', { decision: 'reject' }, 'rev');
    report = (await svc.call('GET', '/courses/c1/readiness')).body;
    expect(item(report, '2.2').status).toBe('pending');
  });

  it('findings are only for ai items; reviewing a missing finding is not-found', async () => {
    svc = await makeService();
    expect((await svc.call('PUT', '/courses/c1/readiness/items/1.3/finding', { verdict: 'met', evidence: 'x' })).status).toBe(400);
    expect((await svc.call('POST', '/courses/c1/readiness/items/2.2/finding/review', { decision: 'accept' })).status).toBe(404);
  });
});

describe('rubrics', () => {
  const rubric = {
    id: 'mini',
    name: 'Mini rubric',
    attribution: 'Ours',
    standards: [
      {
        standardId: 's1',
        number: '1',
        title: 'Basics',
        items: [
          { itemId: 'm1', number: '1.1', text: 'Description is long enough', kind: 'automatic', essential: true, check: 'description-purpose' },
          { itemId: 'm2', number: '1.2', text: 'Tone is friendly', kind: 'human', essential: false },
        ],
      },
    ],
  };

  it('admins import rubrics; a course can switch to one; unknown checks are invalid', async () => {
    svc = await makeService();
    const known = (await svc.call('GET', '/rubrics/course-essentials')).body.standards[0].items[1].check;
    const r = structuredClone(rubric);
    r.standards[0]!.items[0]!.check = known;
    expect((await svc.call('POST', '/rubrics', r, 'inst')).status).toBe(403);
    expect((await svc.call('POST', '/rubrics', r)).status).toBe(201);
    expect((await svc.call('POST', '/rubrics', r)).status).toBe(409);
    const list = await svc.call('GET', '/rubrics', undefined, 'inst');
    expect(list.body.map((x: { id: string }) => x.id)).toEqual(['course-essentials', 'mini']);
    await svc.call('PATCH', '/courses/c1', { rubricId: 'mini' });
    const report = await svc.call('GET', '/courses/c1/readiness');
    expect(report.body).toMatchObject({ rubricId: 'mini', rubricName: 'Mini rubric', applicable: 2 });
    const bad = structuredClone(rubric);
    bad.id = 'bad';
    bad.standards[0]!.items[0]!.check = 'no-such-check';
    const res = await svc.call('POST', '/rubrics', bad);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('standards[0].items[0].check');
  });

  it('the built-in rubric cannot be replaced', async () => {
    svc = await makeService();
    expect((await svc.call('POST', '/rubrics', { ...rubric, id: 'course-essentials' })).status).toBe(409);
  });
});

describe('course rubric choice', () => {
  it('a course can only use an installed rubric', async () => {
    svc = await makeService();
    const res = await svc.call('PATCH', '/courses/c1', { rubricId: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('rubricId');
  });
});
