import { describe, expect, it } from 'vitest';
import { BLOCK_FIELDS } from '../../../src/schemas/block-fields.js';
import { BlockContent } from '../../../src/schemas/content.js';
import { BLOCKS, type BlockRecord, inFieldOrder } from '../../../src/store/tables.js';

const row = (previous: string | null, content = '{"level":2,"text":"X"}') => ({
  id: 'blk_1',
  lesson_id: 'les_1',
  assignment_id: null,
  position: 0,
  type: 'heading',
  content,
  origin: 'human',
  ai_state: null,
  provenance: null,
  previous,
  updated_at: '2026-11-22T08:30:00.000Z',
});

describe('block content in canonical field order', () => {
  it('is the order of the schema: each variant of BlockContent, field for field (BLOCK_FIELDS is plain data for the cold start)', () => {
    const fromSchema = Object.fromEntries(
      BlockContent.options.map((variant) => {
        const fields = Object.keys(variant.shape);
        return [variant.shape.type.value, fields];
      }),
    );
    expect(fromSchema).toEqual(BLOCK_FIELDS);
  });

  it('puts type first and the variant fields in their schema order, whatever order they came in', () => {
    expect(Object.keys(inFieldOrder({ text: 'X', level: 2, type: 'heading' }))).toEqual(['type', 'level', 'text']);
    expect(Object.keys(inFieldOrder({ decorative: false, alt: '', url: 'a.png', type: 'image' }))).toEqual(['type', 'url', 'alt', 'decorative']);
  });

  it('writes previous (and content) in that order, and reads a row an earlier write stored in another order in it too', () => {
    const read = BLOCKS.fromRow(row('{"text":"Para","type":"paragraph"}'));
    expect(JSON.stringify(read.previous)).toBe('{"type":"paragraph","text":"Para"}');
    const written = BLOCKS.toRow({ ...read, text: 'X', level: 2, previous: { text: 'Para', type: 'paragraph' } } as BlockRecord);
    expect(written.previous).toBe('{"type":"paragraph","text":"Para"}');
    expect(written.content).toBe('{"level":2,"text":"X"}');
    expect(BLOCKS.fromRow(row(null)).previous).toBeNull();
  });
});
