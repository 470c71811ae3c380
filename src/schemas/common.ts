import { z } from '@hono/zod-openapi';
import { NUL_MESSAGE, withoutNul } from './text.js';

export const MAX_INT = 9007199254740991;

/**
 * The largest expectedVersion a final-grade PUT accepts (the spec's bound). Here rather than
 * with the gradebook schemas: the store's final-grade rule needs it, and a CLI call that
 * loads the store need not load those schemas.
 */
export const MAX_EXPECTED_VERSION = 4503599627370495;

/**
 * Record ids, in bodies, paths and queries alike. Paths and queries are not JSON bodies, so
 * json-text's check never sees them: an id there holding U+0000 is refused here, the same on
 * both stores (PostgreSQL could not even look it up).
 */
export const Id = z.string().min(1).max(200).refine(withoutNul, NUL_MESSAGE);
// Field pieces shared by every document that carries them (API bodies, course files,
// datasets, templates), so a limit is written once.
export const Title = z.string().min(1).max(200);
export const PersonName = z.string().min(1).max(200);
export const Description = z.string().max(20_000);
export const Objective = z.string().max(2000);
export const Objectives = z.array(z.string().min(1).max(2000)).max(50);
/** Points and scores: at most 1,000,000,000, stored rounded to 6 decimals (see decimal.ts). */
export { GradePoints as Points } from './decimal.js';

export const Position = z.number().int().min(0).max(MAX_INT);
export const Version = z.number().int().min(0).max(MAX_INT);

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The output form of a timestamp: a valid one written so is its own normal form. */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The common case, a timestamp already in the output form (`2026-11-22T08:30:00.000Z`) of a
 * year from 100 on, decided by arithmetic: true or false as the general check below answers
 * (a test compares the two on any such text), without its two Date constructions. Years
 * before 100 take the general path, whose Date.UTC reads them as 19xx.
 */
function canonicalIsRfc3339(value: string): boolean | null {
  if (value.length !== 24 || !CANONICAL_UTC.test(value)) return null;
  const year = Number(value.slice(0, 4));
  if (year < 100) return null;
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= days && Number(value.slice(11, 13)) <= 23 && Number(value.slice(14, 16)) <= 59 && Number(value.slice(17, 19)) <= 59;
}

/** True for an RFC 3339 timestamp naming a real instant (no Feb 30, no hour 25). */
export function isRfc3339(value: string): boolean {
  const canonical = canonicalIsRfc3339(value);
  if (canonical !== null) return canonical;
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, , off] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (day > daysInMonth || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  if (off && off.length === 6) {
    const oh = Number(off.slice(1, 3));
    const om = Number(off.slice(4, 6));
    if (oh > 23 || om > 59) return false;
  }
  return !Number.isNaN(Date.parse(value));
}

/**
 * RFC 3339 in (checked by isRfc3339 first), RFC 3339 UTC with milliseconds out (sub-millisecond
 * digits are truncated). A dataset's timestamps are nearly all in the output form already:
 * those are returned as they are instead of going through a Date and back.
 */
export function normalizeTimestamp(value: string): string {
  if (CANONICAL_UTC.test(value)) return value;
  return new Date(Date.parse(value.toUpperCase())).toISOString();
}

export const TimestampInput = z
  .string()
  .refine(isRfc3339, { message: 'must be an RFC 3339 timestamp such as 2026-11-22T08:30:00Z' })
  .transform(normalizeTimestamp)
  // No `type` here: it would override the `null` of TimestampInput.nullable() in the document.
  .openapi({ format: 'date-time' });

/**
 * A named (component) schema or null. `Named.nullable()` renders wrongly in the OpenAPI
 * document (the component itself turns nullable, or an allOf no value can satisfy); a union
 * with null renders as anyOf [$ref, null] and validates the same. A union is wrapped in
 * z.lazy, which parses alike: the generator merges a union nested in a union into one list,
 * and so copied a named union's every variant into each field instead of referring to it
 * (the block content a block replaced was 88 copies of 2.7 KB each).
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema instanceof z.ZodUnion ? z.lazy((): T => schema) : schema, z.null()]);

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T08:30:00.000Z' });

export const HttpUrl = z
  .string()
  .min(1)
  .max(2048)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'must be an http or https URL' },
  );

export const Provenance = z
  .strictObject({
    model: z.string().min(1),
    task: z.string().min(1),
    generatedAt: TimestampInput,
    sources: z.array(z.strictObject({ id: z.string().min(1), name: z.string() })).max(100),
    summary: z.string().max(20_000),
  })
  .openapi('Provenance');

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum([
        'unauthenticated',
        'forbidden',
        'not-found',
        'invalid',
        'conflict',
        'not-ready',
        'ai-disabled',
        'ai-failed',
        'rate-limited',
        'too-large',
        'unsupported',
      ]),
      message: z.string(),
      details: z.any().optional(),
    }),
  })
  .openapi('Error');

export const Ok = z.object({ ok: z.boolean() });
