import { z } from '@hono/zod-openapi';
import { gradeCriteria, submissionProblems } from '../../domain/content/rules.js';
import { submissionForViewer } from '../../domain/content/submission-view.js';
import { nextCount } from '../../domain/counters.js';
import { AppError, invalid } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { GradeInput, Submission, SubmissionCreate } from '../../schemas/content.js';
import { getAssignmentRow } from '../../store/assignments.js';
import { getSubmission, gradedState, insertSubmission, lastAttempt, listSubmissions, writeGrade } from '../../store/submissions.js';
import { defineOperation, type RouteModule } from '../define.js';

const AssignmentParams = z.object({ assignmentId: Id });
const SubmissionParams = z.object({ submissionId: Id });

export const submissionsRoutes: RouteModule = [
  defineOperation({
    operationId: 'createSubmission',
    method: 'post',
    path: '/assignments/{assignmentId}/submissions',
    summary: "Submit work (students of the course, published assignments): exactly the field of the assignment's submission type",
    tag: 'submissions',
    params: AssignmentParams,
    body: SubmissionCreate,
    response: Submission,
    status: 201,
    handler: ({ deps, params, body, granted }) =>
      deps.store.tx(async (tx) => {
        const assignment = (await getAssignmentRow(tx, params.assignmentId))!;
        const problems = submissionProblems(assignment.submissionType, body);
        if (problems.length > 0) throw invalid(problems);
        const studentId = granted.caller.user.id;
        const created = await insertSubmission(tx, {
          id: deps.ids.next('sub'),
          assignmentId: assignment.id,
          studentId,
          attempt: nextCount(await lastAttempt(tx, assignment.id, studentId), 'The attempt number'),
          state: 'submitted',
          text: body.text ?? null,
          fileId: body.fileId ?? null,
          link: body.link ?? null,
          submittedAt: deps.clock.now(),
          grade: null,
        });
        return submissionForViewer(created, granted);
      }),
  }),
  defineOperation({
    operationId: 'listSubmissions',
    method: 'get',
    path: '/assignments/{assignmentId}/submissions',
    summary: "An assignment's submissions (instructors and admins: all; students: their own)",
    tag: 'submissions',
    params: AssignmentParams,
    response: z.array(Submission),
    handler: async ({ deps, params, granted }) => {
      if (granted.role === 'reviewer')
        throw new AppError('forbidden', "Only the course's instructors, admins and the submitting students may read submissions.");
      return (await listSubmissions(deps.store, params.assignmentId, granted.role === 'student' ? granted.caller.user.id : undefined)).map((s) =>
        submissionForViewer(s, granted),
      );
    },
  }),
  defineOperation({
    operationId: 'getSubmission',
    method: 'get',
    path: '/submissions/{submissionId}',
    summary: 'Get a submission (its student, instructors, admins)',
    tag: 'submissions',
    params: SubmissionParams,
    response: Submission,
    handler: async ({ deps, params, granted }) => submissionForViewer((await getSubmission(deps.store, params.submissionId))!, granted),
  }),
  defineOperation({
    operationId: 'gradeSubmission',
    method: 'put',
    path: '/submissions/{submissionId}/grade',
    summary: 'Grade a submission; with a rubric, criteria name its criteria and levels and the score defaults to their sum',
    tag: 'submissions',
    params: SubmissionParams,
    body: GradeInput,
    response: Submission,
    handler: ({ deps, params, body, granted }) =>
      deps.store.tx(async (tx) => {
        const sub = (await getSubmission(tx, params.submissionId))!;
        const assignment = (await getAssignmentRow(tx, sub.assignmentId))!;
        const { criteria, total, problems } = gradeCriteria(assignment.rubric, body.criteria ?? []);
        if (body.score === undefined && body.criteria === undefined) problems.push({ path: 'score', message: 'give a score, or criteria to add up' });
        if (problems.length > 0) throw invalid(problems);
        const released = sub.grade?.releasedAt ?? null;
        const grade = {
          score: body.score ?? total,
          criteria,
          feedback: body.feedback ?? '',
          feedbackOrigin: 'human' as const,
          feedbackProvenance: null,
          gradedBy: granted.caller.user.id,
          gradedAt: deps.clock.now(),
          releasedAt: released,
        };
        // A regrade of a returned submission stays returned: the student already sees its grade.
        await writeGrade(tx, sub.id, gradedState(released), grade);
        return submissionForViewer((await getSubmission(tx, sub.id))!, granted);
      }),
  }),
  defineOperation({
    operationId: 'releaseSubmission',
    method: 'post',
    path: '/submissions/{submissionId}/release',
    summary: 'Release a grade to the student (state returned); releasing again changes nothing',
    tag: 'submissions',
    params: SubmissionParams,
    response: Submission,
    handler: ({ deps, params, granted }) =>
      deps.store.tx(async (tx) => {
        const sub = (await getSubmission(tx, params.submissionId))!;
        if (!sub.grade || sub.grade.score === null) throw new AppError('conflict', `Submission ${sub.id} has no grade to release yet.`);
        if (!sub.grade.releasedAt) await writeGrade(tx, sub.id, 'returned', { ...sub.grade, releasedAt: deps.clock.now() });
        return submissionForViewer((await getSubmission(tx, sub.id))!, granted);
      }),
  }),
];
