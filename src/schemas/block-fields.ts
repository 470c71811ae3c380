/**
 * Each block variant's fields in their canonical order (`type` first, then as the variants
 * of schemas/content.ts list them): the order a block's content is stored and shown in,
 * whichever path built it (docs/content.md). Plain data rather than read off the zod
 * shapes, so that the store's row mapping (store/tables.ts) can use it without building
 * every content schema on the path of commands that never touch a block (`courses list`);
 * test/unit/store/block-field-order.test.ts holds it equal to the variants.
 */
export const BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  heading: ['type', 'level', 'text'],
  paragraph: ['type', 'text'],
  list: ['type', 'ordered', 'items'],
  image: ['type', 'url', 'alt', 'decorative'],
  video: ['type', 'url', 'captions', 'durationSeconds'],
  link: ['type', 'url', 'text'],
  code: ['type', 'language', 'text'],
  quote: ['type', 'text', 'cite'],
  callout: ['type', 'tone', 'text'],
  embed: ['type', 'url', 'title', 'privacyUrl'],
  divider: ['type'],
};
