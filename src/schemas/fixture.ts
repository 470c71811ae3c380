/**
 * Fixture control (`serve --allow-admin`, routes under /api/v1/_admin): the request journal,
 * fault rules and the service clock. docs/fixtures.md describes them for users.
 */
import { z } from '@hono/zod-openapi';
import { Timestamp, TimestampInput } from './common.js';
import { FAULT_RULE_SENTENCES } from './fault-rule-sentences.js';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** An HTTP method in any case (`post` is `POST`). */
export const HttpMethod = z
  .preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(HTTP_METHODS))
  .openapi({ description: 'An HTTP method (any case)' });

/**
 * A path pattern: `*` matches within one segment, `**` across segments, `{name}` one whole
 * segment; anything else is literal. Relative to /api/v1 unless it starts with /api/v1.
 */
export const PathPattern = z
  .string()
  .min(1)
  .max(500)
  // refine, not regex: the problem list shows a custom message, not "must be a valid regex"
  .refine((v) => /^\/(?:[^{}?#\s]|\{[A-Za-z_][A-Za-z0-9_]*\})*$/.test(v), {
    message: 'must be a path pattern starting with / (no query string): * within a segment, ** across segments, {name} for one segment',
  })
  .openapi({ example: '/courses/{courseId}/gradebook/**' });

/** `404`, or a class such as `4xx`. */
export const StatusFilter = z
  .string()
  .refine((v) => /^[1-5](?:\d\d|[xX]{2})$/.test(v), { message: 'must be a status such as 404 or a class such as 4xx' })
  .openapi({ example: '4xx' });

export { JOURNAL_BODY_LIMIT } from './fixture-limits.js';

export const JournalEntry = z
  .object({
    /** 1, 2, 3, ... for the life of the server (a cleared journal keeps counting). */
    seq: z.number().int(),
    requestId: z.string(),
    /** Wall-clock time the request arrived. */
    time: Timestamp,
    /** The service clock when the request arrived (what due dates were judged against). */
    serviceTime: Timestamp,
    method: z.string(),
    path: z.string(),
    /** The query string without `?` (empty when none). */
    query: z.string(),
    /** null when no answer was sent (a fault rule dropped the connection). */
    status: z.number().int().nullable(),
    /** The authenticated user, or null (no or bad credential, public routes). */
    callerId: z.string().nullable(),
    durationMs: z.number(),
    /** The fault rule that delayed or answered the request. */
    faultId: z.string().nullable(),
    /** Request headers, lower-case names; Authorization, Proxy-Authorization and Cookie are never kept. */
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.string().nullable(),
    responseBody: z.string().nullable(),
    /** True when a body was longer than 64 KiB and only its first 64 KiB were kept. */
    truncated: z.boolean(),
  })
  .openapi('JournalEntry');
export type JournalEntryValue = z.infer<typeof JournalEntry>;

export const JournalQuery = z.strictObject({
  method: HttpMethod.optional(),
  path: PathPattern.optional(),
  status: StatusFilter.optional(),
  /** Only the newest N matching entries. */
  limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
});
export const JournalCountQuery = JournalQuery.omit({ limit: true });
export type JournalQueryValue = z.infer<typeof JournalQuery>;

export const JournalCount = z.object({ count: z.number().int() }).openapi('JournalCount');
export const Cleared = z.object({ ok: z.boolean(), cleared: z.number().int() });

/** The longest Retry-After a fault rule may give, in seconds (a day). */
export const FAULT_RETRY_AFTER_MAX = 86_400;

const ErrorCodeText = z
  .string()
  .refine((v) => /^[a-z][a-z0-9-]{0,63}$/.test(v), { message: 'must be an error code such as not-found or internal (lower case, digits, -)' });

export const FaultRuleInput = z
  .strictObject({
    /** Any method when omitted. */
    method: HttpMethod.optional(),
    path: PathPattern,
    /** The rule expires after this many matches; forever when omitted. */
    times: z.number().int().min(1).max(1_000_000).optional(),
    /** Wait this long before answering (WireMock's fixedDelay). */
    delayMs: z.number().int().min(0).max(600_000).optional(),
    /** Answer with this status and the error envelope instead of serving the request. */
    status: z.number().int().min(400).max(599).optional(),
    /** The envelope's error code (default: the code of that status, `internal` for 5xx). */
    code: ErrorCodeText.optional(),
    message: z.string().min(1).max(1000).optional(),
    /** The answer's Retry-After header in seconds (default 1 for a 429 or rate-limited answer, as the service's own; else none). */
    retryAfter: z.number().int().min(0).max(FAULT_RETRY_AFTER_MAX).optional(),
    /** Close the connection without an answer (WireMock's CONNECTION_RESET_BY_PEER). */
    dropConnection: z.boolean().optional(),
  })
  .superRefine((rule, ctx) => {
    const answers = rule.status !== undefined || rule.code !== undefined || rule.message !== undefined || rule.retryAfter !== undefined;
    const said = FAULT_RULE_SENTENCES;
    if (rule.dropConnection === true && answers) ctx.addIssue({ code: 'custom', path: ['dropConnection'], message: said.dropAlone });
    if (rule.message !== undefined && rule.status === undefined && rule.code === undefined)
      ctx.addIssue({ code: 'custom', path: ['status'], message: said.statusForMessage });
    if (rule.retryAfter !== undefined && rule.status === undefined && rule.code === undefined)
      ctx.addIssue({ code: 'custom', path: ['status'], message: said.statusForRetryAfter });
    if (rule.delayMs === undefined && !answers && rule.dropConnection !== true) ctx.addIssue({ code: 'custom', path: ['(root)'], message: said.needsEffect });
  })
  .openapi('FaultRuleInput');
export type FaultRuleInputValue = z.infer<typeof FaultRuleInput>;

export const FaultRule = z
  .object({
    id: z.string(),
    method: z.string().nullable(),
    path: z.string(),
    times: z.number().int().nullable(),
    delayMs: z.number().int(),
    status: z.number().int().nullable(),
    code: z.string().nullable(),
    message: z.string().nullable(),
    /** The Retry-After header (seconds) its answer carries, or null for none. */
    retryAfter: z.number().int().nullable(),
    dropConnection: z.boolean(),
    /** Requests this rule has matched so far. */
    matched: z.number().int(),
  })
  .openapi('FaultRule');
export type FaultRuleValue = z.infer<typeof FaultRule>;

export const FaultIdParams = z.object({ faultId: z.string().min(1).max(200) });

export const ClockState = z.object({ now: Timestamp, frozen: z.boolean() }).openapi('ClockState');

export const ClockSet = z
  .strictObject({
    now: TimestampInput,
    /** true: the clock stands still at `now`; false: it runs on from `now`. Unchanged when omitted. */
    frozen: z.boolean().optional(),
  })
  .openapi('ClockSet');

export const ClockAdvance = z
  .strictObject({
    /** Seconds to move the clock by (fractions allowed; negative moves it back). */
    seconds: z.number().min(-1e11).max(1e11),
  })
  .openapi('ClockAdvance');
