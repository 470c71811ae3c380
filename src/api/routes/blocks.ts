import { z } from '@hono/zod-openapi';
import { blockForViewer, blocksForViewer } from '../../domain/content/block-view.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { BlockContent, StoredBlock } from '../../schemas/content.js';
import { BlockCreate, BlockMove, BlockReview } from '../../schemas/content-extra.js';
import { deleteBlock, getBlock, insertBlock, listBlocks, moveBlock, moveBlockToLesson, writeBlock } from '../../store/blocks.js';
import { getLesson } from '../../store/lessons.js';
import { blockContentOf } from '../../store/tables.js';
import { defineOperation, type RouteModule } from '../define.js';

const LessonParams = z.object({ lessonId: Id });
const BlockParams = z.object({ blockId: Id });

const loadBlock = async (store: Parameters<typeof getBlock>[0], id: string) =>
  (await getBlock(store, id)) ??
  (() => {
    throw notFound('Block', id);
  })();
const output = (b: Awaited<ReturnType<typeof getBlock>>) => {
  if (!b) return b;
  const { assignmentId: _a, ...rest } = b;
  return rest;
};

export const blocksRoutes: RouteModule = [
  defineOperation({
    operationId: 'listBlocks',
    method: 'get',
    path: '/lessons/{lessonId}/blocks',
    summary: "A lesson's blocks in order",
    tag: 'blocks',
    params: LessonParams,
    response: z.array(StoredBlock),
    handler: async ({ deps, params, granted }) => blocksForViewer(await listBlocks(deps.store, { lessonId: params.lessonId }), granted),
  }),
  defineOperation({
    operationId: 'addBlock',
    method: 'post',
    path: '/lessons/{lessonId}/blocks',
    summary: 'Add a block (last unless a position is given); with provenance it is an AI draft awaiting review',
    tag: 'blocks',
    params: LessonParams,
    body: BlockCreate,
    response: StoredBlock,
    status: 201,
    handler: ({ deps, params, body }) =>
      deps.store.tx((tx) => {
        const { position, provenance, ...content } = body;
        const ai = provenance !== undefined;
        return insertBlock(
          tx,
          { lessonId: params.lessonId },
          {
            id: deps.ids.next('blk'),
            content,
            origin: ai ? 'ai' : 'human',
            aiState: ai ? 'draft' : null,
            provenance: provenance ?? null,
            previous: null,
            updatedAt: deps.clock.now(),
          },
          position,
        );
      }),
  }),
  defineOperation({
    operationId: 'getBlock',
    method: 'get',
    path: '/blocks/{blockId}',
    summary: 'Get a block (lesson content or assignment instructions)',
    tag: 'blocks',
    params: BlockParams,
    response: StoredBlock,
    handler: async ({ deps, params, granted }) => blockForViewer(output(await loadBlock(deps.store, params.blockId)), granted),
  }),
  defineOperation({
    operationId: 'updateBlock',
    method: 'patch',
    path: '/blocks/{blockId}',
    summary: "Replace a block's content: a person's edit (origin human, aiState null, old content kept in previous)",
    tag: 'blocks',
    params: BlockParams,
    body: BlockContent,
    response: StoredBlock,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const before = await loadBlock(tx, params.blockId);
        await writeBlock(tx, before.id, {
          content: body,
          origin: 'human',
          aiState: null,
          provenance: null,
          previous: blockContentOf(before),
          updatedAt: deps.clock.now(),
        });
        return output(await getBlock(tx, before.id));
      }),
  }),
  defineOperation({
    operationId: 'moveBlock',
    method: 'post',
    path: '/blocks/{blockId}/move',
    summary: 'Move a block to a position (in another lesson of the same course with lessonId); its siblings shift',
    tag: 'blocks',
    params: BlockParams,
    body: BlockMove,
    response: StoredBlock,
    handler: ({ deps, params, body, granted }) =>
      deps.store.tx(async (tx) => {
        const block = await loadBlock(tx, params.blockId);
        if (body.lessonId === undefined || body.lessonId === block.lessonId) await moveBlock(tx, block, body.position);
        else {
          // #14: to another lesson of the same course (the caller may write this course only).
          if (block.lessonId === null) throw invalid([{ path: 'lessonId', message: "an assignment's instruction block cannot move to a lesson" }]);
          const target = await getLesson(tx, body.lessonId);
          if (!target || target.courseId !== granted.courseId)
            throw invalid([{ path: 'lessonId', message: `${JSON.stringify(body.lessonId)} is not a lesson of this block's course` }]);
          await moveBlockToLesson(tx, { ...block, lessonId: block.lessonId }, target.id, body.position);
        }
        return output(await getBlock(tx, block.id));
      }),
  }),
  defineOperation({
    operationId: 'deleteBlock',
    method: 'delete',
    path: '/blocks/{blockId}',
    summary: 'Delete a block; the gap closes',
    tag: 'blocks',
    params: BlockParams,
    response: z.object({ ok: z.boolean(), id: z.string() }),
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        await deleteBlock(tx, await loadBlock(tx, params.blockId));
        return { ok: true, id: params.blockId };
      }),
  }),
  defineOperation({
    operationId: 'reviewBlock',
    method: 'post',
    path: '/blocks/{blockId}/review',
    summary: 'Review an AI draft block: accept it, or reject it (restores the previous content, or deletes a block that had none)',
    tag: 'blocks',
    params: BlockParams,
    body: BlockReview,
    response: z.union([
      StoredBlock,
      z.object({ ok: z.literal(true), id: z.string(), deleted: z.literal(true) }).openapi({ description: 'A rejected draft that replaced nothing is deleted' }),
    ]),
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const block = await loadBlock(tx, params.blockId);
        if (block.aiState !== 'draft')
          throw new AppError('conflict', `Block ${block.id} is not an AI draft awaiting review (aiState ${JSON.stringify(block.aiState)}).`);
        const now = deps.clock.now();
        if (body.decision === 'accept') {
          await writeBlock(tx, block.id, {
            content: blockContentOf(block),
            origin: block.origin,
            aiState: 'accepted',
            provenance: block.provenance,
            previous: block.previous,
            updatedAt: now,
          });
          return output(await getBlock(tx, block.id));
        }
        if (block.previous === null) {
          await deleteBlock(tx, block);
          return { ok: true, id: block.id, deleted: true };
        }
        await writeBlock(tx, block.id, {
          content: block.previous,
          origin: block.origin,
          aiState: 'rejected',
          provenance: block.provenance,
          previous: null,
          updatedAt: now,
        });
        return output(await getBlock(tx, block.id));
      }),
  }),
];
