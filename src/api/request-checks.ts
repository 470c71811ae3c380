/**
 * An operation's request checked in one step: the JSON body's text, then the query, the path
 * parameters, the body's media type and the body against the operation's zod schemas. Each
 * value that passes is recorded for `c.req.valid(target)`, as Hono's validators record it.
 *
 * Why one step: registered with `app.openapi`, each check was a middleware of its own (the
 * body's text, then @hono/zod-openapi's query, param, media-type and JSON validators), and
 * each layer of Hono's dispatch and of the validators costs promises and turns of the
 * microtask queue. A final-grade PUT made 113 promises, about 30 of them in these layers
 * (docs/decisions.md, "One step of request checks"). The order, the answers and the problems
 * named are those of the layers it replaces:
 *   1. the body's text (json-text.ts): bytes that are not UTF-8 or hold text that cannot be
 *      stored are `invalid` naming each field; malformed JSON is left to step 5;
 *   2. the query, 3. the path parameters: `invalid` with the schema's problems;
 *   4. the media type: a Content-Type that is not JSON, or a body without one, is 415;
 *   5. the body: malformed JSON is 400 (`invalid`, "(body)"), else the schema's problems
 *      (with the operation's own rules beside them, when it has bodyRules).
 */
import type { z } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { invalid, type Problem } from '../errors.js';
import { formatZodIssues, withRuleProblems } from '../schemas/problems.js';
import type { AppContext } from './context.js';
import { checkJsonText } from './json-text.js';

/** What an operation checks: its schemas, and the rules its body meets beyond its schema. */
export interface RequestChecks {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyRules?: (body: unknown) => Problem[];
}

type Target = 'query' | 'param' | 'json';

/** A JSON media type, as the body's text check and Hono's JSON validator read it (parameters cut off). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
/** A Content-Type the operation's declared `application/json` body accepts, parameters included (@hono/zod-openapi's test). */
const JSON_CONTENT_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

const essence = (contentType: string | undefined): string => contentType?.split(';')[0]?.trim() ?? '';

/** Check the request against `checks` (see the file's comment), recording each valid value; throws the first refusal. */
export async function checkRequest(c: AppContext, checks: RequestChecks): Promise<void> {
  const contentType = c.req.header('content-type');
  const jsonBody = checks.body !== undefined && JSON_MEDIA_TYPE.test(essence(contentType));
  // 1. The body's text, read and parsed once.
  let parsed: unknown;
  if (jsonBody) {
    const text = checkJsonText(new Uint8Array(await c.req.arrayBuffer()));
    if (text.problems.length > 0) throw invalid(text.problems);
    parsed = text.parsed;
  }
  // 2, 3. The query and the path parameters.
  if (checks.query) record(c, 'query', checks.query, queryValues(c), checks.bodyRules);
  if (checks.params) record(c, 'param', checks.params, c.req.param(), checks.bodyRules);
  if (!checks.body) return;
  // 4. The media type.
  if (contentType !== undefined ? !JSON_CONTENT_TYPE.test(contentType) : (await c.req.arrayBuffer()).byteLength > 0) {
    throw new HTTPException(415, { message: 'Unsupported Media Type' });
  }
  // 5. The body: none (no Content-Type, no bytes) is checked as {}.
  if (jsonBody && parsed === undefined) throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  record(c, 'json', checks.body, jsonBody ? parsed : {}, checks.bodyRules);
}

/** The query as Hono's validator gives it: a name given once is a string, given more often a list. */
function queryValues(c: AppContext): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const [name, all] of Object.entries(c.req.queries())) values[name] = all.length === 1 ? all[0]! : all;
  return values;
}

/**
 * Parse `value` with `schema` and record what it gives for `target`; or throw `invalid` with
 * the schema's problems, and for the body the operation's rules' problems beside them (the
 * rules read it as far as its shape allows: rubric-soundness.ts).
 */
function record(c: AppContext, target: Target, schema: z.ZodType, value: unknown, bodyRules: RequestChecks['bodyRules']): void {
  const result = schema.safeParse(value);
  if (!result.success) {
    const shape = formatZodIssues(result.error.issues, '', value);
    throw invalid(target === 'json' && bodyRules ? withRuleProblems(shape, bodyRules(value)) : shape);
  }
  c.req.addValidatedData(target, result.data as object);
}
