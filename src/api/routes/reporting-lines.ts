import { z } from '@hono/zod-openapi';
import { loopIfAdded } from '../../domain/people/reporting-lines.js';
import { AppError, notFound } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { ReportingLine, ReportingLineCreate } from '../../schemas/people.js';
import { deleteReportingLine, insertReportingLine, listReportingLines } from '../../store/reporting-lines.js';
import { getUser } from '../../store/users.js';
import { defineOperation, type RouteModule } from '../define.js';

export const reportingLinesRoutes: RouteModule = [
  defineOperation({
    operationId: 'listReportingLines',
    method: 'get',
    path: '/reporting-lines',
    summary: 'Reporting lines ordered by managerId, reportId (admins: all; others: the lines they are in)',
    tag: 'people',
    response: z.array(ReportingLine),
    handler: ({ deps, granted }) => listReportingLines(deps.store, granted.caller.user.admin ? undefined : granted.caller.user.id),
  }),
  defineOperation({
    operationId: 'addReportingLine',
    method: 'post',
    path: '/reporting-lines',
    summary: 'Add a manager -> report line; self-lines, duplicates and loops are conflict',
    tag: 'people',
    body: ReportingLineCreate,
    response: ReportingLine,
    status: 201,
    handler: ({ deps, body, granted }) =>
      // One IMMEDIATE transaction: two concurrent adds cannot each miss the other's line.
      deps.store.tx(async (tx) => {
        for (const id of [body.managerId, body.reportId]) if (!(await getUser(tx, id))) throw notFound('User', id);
        if (body.managerId === body.reportId) throw new AppError('conflict', `${body.managerId} cannot report to themself.`);
        const lines = await listReportingLines(tx);
        if (lines.some((l) => l.managerId === body.managerId && l.reportId === body.reportId)) {
          throw new AppError('conflict', `${body.reportId} already reports to ${body.managerId}.`);
        }
        const loop = loopIfAdded(lines, body.managerId, body.reportId);
        if (loop) throw new AppError('conflict', `This line would make a loop: ${loop.join(' -> ')}.`, { loop });
        return insertReportingLine(tx, {
          managerId: body.managerId,
          reportId: body.reportId,
          createdBy: granted.caller.user.id,
          createdAt: deps.clock.now(),
        });
      }),
  }),
  defineOperation({
    operationId: 'removeReportingLine',
    method: 'delete',
    path: '/reporting-lines/{managerId}/{reportId}',
    summary: 'Remove a reporting line',
    tag: 'people',
    params: z.object({ managerId: Id, reportId: Id }),
    response: z.object({ ok: z.boolean() }),
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        if (!(await deleteReportingLine(tx, params.managerId, params.reportId)))
          throw new AppError('not-found', `${params.reportId} does not report to ${params.managerId}.`);
        return { ok: true };
      }),
  }),
];
