/**
 * Fixture control (`serve --allow-admin`, docs/fixtures.md): the request journal, fault
 * rules and the service clock, for CI suites that use `serve` as a stateful fixture.
 * createApp registers these only when the flag is given; every one needs an admin credential.
 */
import { z } from '@hono/zod-openapi';
import { notFound } from '../../errors.js';
import {
  Cleared,
  ClockAdvance,
  ClockSet,
  ClockState,
  FaultIdParams,
  FaultRule,
  FaultRuleInput,
  JournalCount,
  JournalCountQuery,
  JournalEntry,
  JournalQuery,
} from '../../schemas/fixture.js';
import type { AppDeps } from '../context.js';
import { defineOperation, type RouteModule } from '../define.js';

const TAG = 'fixture-control';

/** The tools behind the routes; createApp registers the routes only when they exist. */
function control(deps: AppDeps) {
  const tools = deps.fixture?.control;
  if (!tools) throw new Error('fixture control routes registered without fixture tools');
  return tools;
}

export const fixtureControlRoutes: RouteModule = [
  defineOperation({
    operationId: 'listRequests',
    method: 'get',
    path: '/_admin/requests',
    summary: 'The requests served, oldest first (filter by method, path pattern, status; limit keeps the newest N)',
    tag: TAG,
    query: JournalQuery,
    response: z.array(JournalEntry),
    handler: ({ deps, query }) => control(deps).journal.list(query),
  }),
  defineOperation({
    operationId: 'countRequests',
    method: 'get',
    path: '/_admin/requests/count',
    summary: 'How many journaled requests match (for verify-style assertions)',
    tag: TAG,
    query: JournalCountQuery,
    response: JournalCount,
    handler: ({ deps, query }) => ({ count: control(deps).journal.count(query) }),
  }),
  defineOperation({
    operationId: 'clearRequests',
    method: 'delete',
    path: '/_admin/requests',
    summary: 'Empty the request journal',
    tag: TAG,
    response: Cleared,
    handler: ({ deps }) => ({ ok: true, cleared: control(deps).journal.clear() }),
  }),
  defineOperation({
    operationId: 'listFaults',
    method: 'get',
    path: '/_admin/faults',
    summary: 'The fault rules, oldest first, with how often each matched',
    tag: TAG,
    response: z.array(FaultRule),
    handler: ({ deps }) => control(deps).faults.list(),
  }),
  defineOperation({
    operationId: 'addFault',
    method: 'post',
    path: '/_admin/faults',
    summary: 'Add a fault rule: matching requests are delayed, answered with an error, or dropped (newest rule wins)',
    tag: TAG,
    body: FaultRuleInput,
    response: FaultRule,
    status: 201,
    handler: ({ deps, body }) => control(deps).faults.add(body),
  }),
  defineOperation({
    operationId: 'clearFaults',
    method: 'delete',
    path: '/_admin/faults',
    summary: 'Remove every fault rule',
    tag: TAG,
    response: Cleared,
    handler: ({ deps }) => ({ ok: true, cleared: control(deps).faults.clear() }),
  }),
  defineOperation({
    operationId: 'deleteFault',
    method: 'delete',
    path: '/_admin/faults/{faultId}',
    summary: 'Remove one fault rule',
    tag: TAG,
    params: FaultIdParams,
    response: z.object({ ok: z.boolean() }),
    handler: ({ deps, params }) => {
      if (!control(deps).faults.remove(params.faultId)) throw notFound('Fault rule', params.faultId);
      return { ok: true };
    },
  }),
  defineOperation({
    operationId: 'getClock',
    method: 'get',
    path: '/_admin/clock',
    summary: 'The service clock: its time and whether it stands still',
    tag: TAG,
    response: ClockState,
    handler: ({ deps }) => control(deps).clock.read(),
  }),
  defineOperation({
    operationId: 'setClock',
    method: 'put',
    path: '/_admin/clock',
    summary: 'Set the service clock (frozen: stand still there, or run on from there)',
    tag: TAG,
    body: ClockSet,
    response: ClockState,
    handler: ({ deps, body }) => control(deps).clock.set(body.now, body.frozen),
  }),
  defineOperation({
    operationId: 'advanceClock',
    method: 'post',
    path: '/_admin/clock/advance',
    summary: 'Move the service clock by a number of seconds',
    tag: TAG,
    body: ClockAdvance,
    response: ClockState,
    handler: ({ deps, body }) => control(deps).clock.advance(Math.round(body.seconds * 1000)),
  }),
];
