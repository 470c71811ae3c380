import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { AppError, invalid, type Problem } from '../errors.js';
import { ErrorEnvelope } from '../schemas/common.js';
import { authorize } from './access.js';
import { makeCaller } from './caller.js';
import type { AppContext, AppDeps, AppEnv, Caller, Granted } from './context.js';
import { LINK_HEADER, nextLink, PageQuery, pageOf } from './pagination.js';
import { type OperationId, POLICIES, type Policy } from './policies.js';
import { type CacheKey, readsAt } from './read-cache.js';
import { checkRequest, type RequestChecks } from './request-checks.js';

export const API_PREFIX = '/api/v1';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface HandlerInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  granted: Granted;
  deps: AppDeps;
  c: AppContext;
}

export interface OperationSpec<PS extends AnyObject, QS extends AnyObject, BS extends z.ZodType> {
  operationId: OperationId;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Relative to /api/v1, OpenAPI style: `/courses/{courseId}`. */
  path: string;
  summary: string;
  tag: string;
  params?: PS;
  query?: QS;
  body?: BS;
  /**
   * The rules a body meets beyond its schema (a domain function that reads a value as far as
   * its shape allows): run on a sound body before the handler, and on a refused one beside
   * the schema's problems, so one answer lists both (rubric-soundness.ts).
   */
  bodyRules?: (body: unknown) => Problem[];
  response: z.ZodType;
  status?: 200 | 201;
  /**
   * Returns the response body; the wrapper sends it as JSON with `status`. A GET's answer
   * is kept by serve's read cache (read-cache.ts) for the same URL and caller at the same
   * store revision, unless the handler read something from deps other than the store and
   * the grader: so a GET handler must take anything else it depends on (the clock, ids,
   * fixture state) from deps, never from the request's headers or the environment.
   */
  handler: (input: HandlerInput<z.infer<PS>, z.infer<QS>, z.infer<BS>>) => unknown | Promise<unknown>;
}

const ERROR_RESPONSES = Object.fromEntries(
  [
    [400, 'invalid'],
    [401, 'unauthenticated'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [409, 'conflict or not-ready'],
    [413, 'too-large'],
    [415, 'unsupported'],
    [429, 'rate-limited'],
  ].map(([status, text]) => [status, { description: String(text), content: { 'application/json': { schema: ErrorEnvelope } } }]),
);

/** Who a public operation (health, the OpenAPI document) sees: nobody, with no scope. */
const ANONYMOUS: Caller = makeCaller({ id: 'anonymous', name: 'Anonymous', email: null, admin: false }, [], { kind: 'local', id: 'anonymous' });

/** The authenticated user of a request, or null (no or a refused credential, public operations). */
export function callerIdOf(c: AppContext): string | null {
  const caller = c.get('granted')?.caller;
  return caller && caller !== ANONYMOUS ? caller.user.id : null;
}

/** The peer's address on a socket (serve); in-process requests (local mode, tests) have none. */
function clientAddress(c: AppContext): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}

/**
 * Authenticate, with failed attempts limited per client address: once an address has spent
 * its budget of failures, its requests are refused before any credential is tried, so
 * guessing stops there (a valid credential from that address waits too, for Retry-After).
 */
async function authenticate(c: AppContext, deps: AppDeps): Promise<Caller> {
  const limiter = deps.authFailureLimiter;
  const address = clientAddress(c);
  const wait = limiter?.peek(address) ?? 0;
  if (wait > 0) throw new AppError('rate-limited', `Too many failed authentications from this address; retry in ${wait} s.`, { retryAfter: wait });
  try {
    const caller = await deps.auth.authenticate(c, deps);
    if (!caller) throw new AppError('unauthenticated', 'A valid bearer token is required.');
    return caller;
  } catch (err) {
    if (err instanceof AppError && err.code === 'unauthenticated') limiter?.take(address);
    throw err;
  }
}

/** The read cache's key for a GET's answer: the request as the handler sees it (who: Caller.key). */
function answerKey(c: AppContext, who: string): CacheKey {
  return ['answer', c.req.method, c.req.url, who];
}

/**
 * An answer as c.json would send it: the same text under the same Content-Type, and a page's
 * Link. A kept answer is sent as the UTF-8 bytes made when it was kept, rather than text
 * that every send encodes again (and measures, for its Content-Length). Its headers are a
 * plain record with the request's answer headers in it (app.ts): @hono/node-server writes
 * such a record as it is, where headers set with c.header each cost a Fetch Headers object,
 * its checks, and sorting it into a record again (about a tenth of a cached GET's work).
 */
function send(c: AppContext, made: { text: string; link: string | null } | Answer, status: 200 | 201): Response {
  const body = 'bytes' in made ? made.bytes : made.text;
  // The length is stated, not left to the server to count as it writes: a HEAD, which Hono
  // answers with this answer's headers and no body, then says how long the GET's body is.
  const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(length), ...c.get('answerHeaders') };
  if (made.link !== null) headers.link = made.link;
  const res = new Response(body, { status, headers });
  c.set('madeWithHeaders', res);
  return res;
}

/**
 * Authenticate, rate-limit and authorize before validation, from the operation's policy row.
 * For a GET, a kept answer to the same request at the same store revision is sent from here:
 * the request's validation depends on its URL alone, which the answer's key holds, and it
 * passed when the answer was made.
 */
function accessMiddleware(policy: Policy, keptStatus: 200 | 201 | null): MiddlewareHandler<AppEnv> {
  const policyKey = `${policy.rule}\0${policy.scope}\0${policy.via ?? ''}`;
  return async (c, next) => {
    const deps = c.get('deps');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      // Admission: a write that arrives while the store's connection is taken (on SQLite, a
      // group of transactions running or committing) waits here for it, before it takes the
      // store's revision and before its body is read and checked. It could not begin its
      // transaction sooner. The writes that waited then go through their checks and their
      // transactions together, and share the next COMMIT with SQLite's code and pages warm,
      // instead of joining the running group one by one between other requests' work
      // (docs/decisions.md, "Admission of writes": with kept access decisions, a final-grade
      // PUT took 108 to 120 µs of CPU without this wait, 74 to 79 µs with it).
      const busy = deps.store.busy();
      if (busy) await busy;
    }
    // The store's revision is taken here, once: every read of this request kept or served
    // by serve's read cache is of that revision (read-cache.ts).
    const reads = readsAt(deps.store, deps.readCache);
    c.set('reads', reads);
    if (policy.rule === 'public') {
      c.set('granted', { caller: ANONYMOUS });
      return next();
    }
    const caller = await authenticate(c, deps);
    // Known from here on, so the request log and journal name the caller even when refused below.
    c.set('granted', { caller });
    // One budget per user, whatever credential they use: minting tokens buys no extra requests.
    const rate = deps.rateLimiter?.take(`user:${caller.user.id}`);
    if (rate) {
      const answerHeaders = c.get('answerHeaders');
      answerHeaders['ratelimit-limit'] = String(rate.limit);
      answerHeaders['ratelimit-remaining'] = String(rate.remaining);
      answerHeaders['ratelimit-reset'] = String(rate.reset);
      if (rate.retryAfter > 0) throw new AppError('rate-limited', `Too many requests; retry in ${rate.retryAfter} s.`, { retryAfter: rate.retryAfter });
    }
    const who = caller.key;
    const via = policy.via;
    if (via?.startsWith('body.')) {
      // Checked after validation, in the handler wrapper, once the body is known to be sound.
      c.set('granted', { caller });
    } else {
      const id = via ? c.req.param(via) : undefined;
      // A decision depends on the caller, the id and what the store's access revision covers
      // alone (Store.revisions); refusals are not kept.
      const decision = await reads.remember(
        ['grant', policyKey, id ?? '', who],
        async () => {
          const { caller: _, ...rest } = await authorize(deps.store, caller, policy, id);
          return rest;
        },
        { scope: 'access' },
      );
      c.set('granted', { caller, ...decision });
    }
    if (keptStatus !== null) {
      const kept = reads.kept(answerKey(c, who));
      if (kept) return send(c, kept.value as Answer, keptStatus);
    }
    return next();
  };
}

export function defineOperation<PS extends AnyObject = AnyObject, QS extends AnyObject = AnyObject, BS extends z.ZodType = z.ZodType>(
  spec: OperationSpec<PS, QS, BS>,
): OperationSpec<PS, QS, BS> {
  return spec;
}

export function addOperation(app: OpenAPIHono<AppEnv>, spec: OperationSpec<AnyObject, AnyObject, z.ZodType>): void {
  const policy: Policy | undefined = POLICIES[spec.operationId];
  if (!policy) throw new Error(`operation ${spec.operationId} has no row in POLICIES`);
  const status = spec.status ?? 200;
  const paged = isPagedList(spec);
  const query = paged ? (spec.query ?? z.object({})).extend(PageQuery.shape) : spec.query;
  const route = createRoute({
    operationId: spec.operationId,
    method: spec.method,
    path: API_PREFIX + spec.path,
    summary: spec.summary,
    tags: [spec.tag],
    security: policy.rule === 'public' ? [] : [{ bearerAuth: [] }],
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(query ? { query } : {}),
      ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } } : {}),
    },
    responses: {
      [status]: { description: 'Success', content: { 'application/json': { schema: spec.response } }, ...(paged ? { headers: LINK_HEADER } : {}) },
      // Public operations need no credential, but the body limit applies to every route.
      ...(policy.rule === 'public' ? { 413: ERROR_RESPONSES[413] } : ERROR_RESPONSES),
    },
    'x-coursebook-access': { scope: policy.scope, rule: policy.rule, ...(policy.via ? { via: policy.via } : {}) },
  });

  const answer = async (c: AppContext, deps: AppDeps): Promise<Response | { text: string; link: string | null }> => {
    // The route's own schemas validated these before this runs (zod-openapi's validators);
    // the registration is generic over operations, so their inferred types are restated here.
    const req = c.req as unknown as { valid(target: 'param' | 'query'): Record<string, unknown>; valid(target: 'json'): unknown };
    const body = spec.body ? req.valid('json') : undefined;
    let granted = c.get('granted');
    if (policy.via?.startsWith('body.')) {
      const field = policy.via.slice(5);
      granted = await authorize(deps.store, granted.caller, policy, (body as Record<string, string>)[field]);
      c.set('granted', granted);
    }
    const ruleProblems = spec.bodyRules?.(body) ?? [];
    if (ruleProblems.length > 0) throw invalid(ruleProblems);
    const result = await spec.handler({
      params: spec.params ? req.valid('param') : {},
      query: query ? req.valid('query') : {},
      body,
      granted,
      deps,
      c,
    });
    // A handler may build its own Response (a pre-serialised document, say).
    if (result instanceof Response) return result;
    if (paged) {
      const { limit, cursor } = req.valid('query') as { limit?: number; cursor?: string };
      if (limit !== undefined || cursor !== undefined) {
        const page = pageOf(result as unknown[], { limit, cursor });
        return { text: JSON.stringify(page.rows), link: page.next !== null ? nextLink(c.req.url, page.next) : null };
      }
    }
    return { text: JSON.stringify(result), link: null };
  };

  // The document describes the route as declared; the request's checks run in one step at
  // the start of its handler (request-checks.ts) rather than as @hono/zod-openapi's
  // validator middleware, one layer each.
  app.openAPIRegistry.registerPath(route);
  const checks: RequestChecks = {
    ...(spec.params ? { params: spec.params } : {}),
    ...(query ? { query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    ...(spec.bodyRules ? { bodyRules: spec.bodyRules } : {}),
  };
  const access = accessMiddleware(policy, spec.method === 'get' ? status : null);
  app.on(spec.method.toUpperCase(), route.getRoutingPath(), access, async (c: AppContext) => {
    await checkRequest(c, checks);
    const deps = c.get('deps');
    const made =
      spec.method === 'get'
        ? // serve keeps a GET's answer for the next same request at the same store revision
          // (read-cache.ts), when it was made from the store alone.
          await c.get('reads').remember(
            answerKey(c, c.get('granted').caller.key),
            async (): Promise<Response | Answer> => {
              const watched = watchedDeps(deps);
              const made = await answer(c, watched.deps);
              if (made instanceof Response) return made;
              return { bytes: UTF8.encode(made.text), chars: made.text.length, link: made.link, storeOnly: watched.storeOnly() };
            },
            { keep: (made) => !(made instanceof Response) && made.storeOnly, chars: (made) => (made instanceof Response ? 0 : made.chars) },
          )
        : await answer(c, deps);
    return made instanceof Response ? made : send(c, made, status);
  });
}

/** Stateless: encode() keeps nothing between calls. */
const UTF8 = new TextEncoder();

/** A GET's answer as sent and kept: its JSON text in UTF-8, the Link of a page, and what it was made from. */
interface Answer {
  bytes: Uint8Array<ArrayBuffer>;
  /** The text's length, against the read cache's limit. */
  chars: number;
  link: string | null;
  /** Made from the store alone: no clock, ids, fixture state or options were read. */
  storeOnly: boolean;
}

/**
 * deps as a handler sees them, noting whether it read anything but the store and the grader
 * (which computes from what it is given): an answer made from the clock, ids, fixture state
 * or options is not the same answer at the same store revision, and is never kept.
 */
function watchedDeps(deps: AppDeps): { deps: AppDeps; storeOnly(): boolean } {
  let storeOnly = true;
  const watched = new Proxy(deps, {
    get(target, property, receiver) {
      if (property !== 'store' && property !== 'grader') storeOnly = false;
      return Reflect.get(target, property, receiver);
    },
  });
  return { deps: watched, storeOnly: () => storeOnly };
}

/**
 * A list operation (a GET answering an array) takes the optional page parameters, unless
 * the route declares its own `limit`.
 */
function isPagedList(spec: OperationSpec<AnyObject, AnyObject, z.ZodType>): boolean {
  return spec.method === 'get' && spec.response.def.type === 'array' && !(spec.query && 'limit' in spec.query.shape);
}

/** A route module: its operations, registered by createApp in one place. */
export type RouteModule = ReadonlyArray<OperationSpec<AnyObject, AnyObject, z.ZodType>>;
