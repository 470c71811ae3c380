import { z } from '@hono/zod-openapi';
import { Id, Position, Provenance } from './common.js';
import { blockUnion } from './content.js';

/** Adding a block: its content, optionally a position, and provenance for AI-made content. */
export const BlockCreate = blockUnion({ position: Position.optional(), provenance: Provenance.optional() }).openapi('BlockCreate');

export const BlockMove = z.strictObject({
  position: Position,
  // #14: authors move a block to another lesson of the same course.
  lessonId: Id.optional().openapi({ description: 'Another lesson of the same course to move a lesson block to (its position there)' }),
});
export const BlockReview = z.strictObject({ decision: z.enum(['accept', 'reject']) });
