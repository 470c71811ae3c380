import { z } from '@hono/zod-openapi';
import { Position, Provenance } from './common.js';
import { blockUnion } from './content.js';

/** Adding a block: its content, optionally a position, and provenance for AI-made content. */
export const BlockCreate = blockUnion({ position: Position.optional(), provenance: Provenance.optional() }).openapi('BlockCreate');

export const BlockMove = z.strictObject({ position: Position });
export const BlockReview = z.strictObject({ decision: z.enum(['accept', 'reject']) });
