import { z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { Dataset } from '../../schemas/dataset.js';
import { dumpDataset, importDataset } from '../../store/dataset.js';
import { defineOperation, type RouteModule } from '../define.js';

export const serviceRoutes: RouteModule = [
  defineOperation({
    operationId: 'health',
    method: 'get',
    path: '/health',
    summary: 'Liveness: ok once the seed is loaded (no credential needed)',
    tag: 'service',
    response: z.object({ status: z.literal('ok') }),
    handler: () => ({ status: 'ok' }),
  }),
  defineOperation({
    operationId: 'reset',
    method: 'post',
    path: '/_reset',
    summary: 'Restore the seed exactly, ids and clock included (serve --allow-reset only; 409 on a store serve did not seed, which it never wipes)',
    tag: 'service',
    response: z.object({ ok: z.boolean() }),
    handler: async ({ deps, c }) => {
      if (!deps.options?.allowReset || !deps.reset) throw new AppError('not-found', `No route ${c.req.method} ${c.req.path}.`);
      // Answered once the seed is back: a client's next request must find it.
      await deps.reset();
      return { ok: true };
    },
  }),
  defineOperation({
    operationId: 'importDataset',
    method: 'post',
    path: '/import',
    summary: 'Import a dataset file: all or nothing; every problem listed with its path',
    tag: 'service',
    query: z.object({ replace: z.enum(['true', 'false']).optional() }),
    // Validated inside importDataset, so problems carry dataset paths and never half-write.
    body: z.unknown().openapi({ description: 'A Dataset document (see the Dataset schema)' }),
    response: z.record(z.string(), z.number()),
    handler: ({ deps, body, query, granted }) =>
      importDataset(deps.store, deps.clock, body, { replace: query.replace === 'true', actorId: granted.caller.user.id }),
  }),
  defineOperation({
    operationId: 'dumpDataset',
    method: 'get',
    path: '/dump',
    summary: 'The whole store as a dataset document (tokens as tokenSha256), records ordered by id',
    tag: 'service',
    response: Dataset,
    handler: async ({ deps, c }) => c.body(await dumpDataset(deps.store), 200, { 'content-type': 'application/json' }),
  }),
];
