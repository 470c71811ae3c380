import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../errors.js';
import { nodeCrypto } from '../runtime/crypto.js';
import { nulRefusal, uniqueConflict } from '../store/unique-conflict.js';
import type { AnswerHeaders, AppDeps, AppEnv, AppOptions } from './context.js';
import { API_PREFIX, addOperation, callerIdOf, type RouteModule } from './define.js';
import { applyFaults, type FaultOutcome, isControlPath, recordRequest, requestIdFor } from './fixture-hooks.js';

export const DEFAULT_OPTIONS: AppOptions = {
  maxBody: 1024 * 1024,
  maxImportBody: 256 * 1024 * 1024,
  allowReset: false,
  allowAdmin: false,
  cors: null,
  log: null,
};

const IMPORT_PATHS = new Set([`${API_PREFIX}/import`, `${API_PREFIX}/courses/import`]);
// #14: a whole course's content (and a sync mark's copy of it) is as large as a course import.
const COURSE_DOCUMENT_PATH = new RegExp(`^${API_PREFIX}/courses/[^/]+/(content|sync-mark)$`);
const takesLargeBody = (path: string) => IMPORT_PATHS.has(path) || COURSE_DOCUMENT_PATH.test(path) || GRADES_IMPORT_PATH.test(path);
/** A grades import carries a whole gradebook (10,000 students x 200 items is megabytes): data, like a dataset. */
const GRADES_IMPORT_PATH = new RegExp(`^${API_PREFIX}/courses/[^/]+/gradebook/import$`);

/**
 * The HTTP application: the one path every operation takes, from `serve` and from the CLI
 * in local mode (via app.request, no socket). No module-level state: everything it
 * touches comes in through deps. The routes come in too (routes/index.ts ROUTE_MODULES and,
 * for serve --allow-admin, FIXTURE_CONTROL_ROUTES), so the CLI can register only the route
 * modules a request can reach instead of loading them all.
 */
export function createApp(deps: AppDeps, routeModules: ReadonlyArray<RouteModule>, controlRoutes: RouteModule = []): OpenAPIHono<AppEnv> {
  const options: AppOptions = { ...DEFAULT_OPTIONS, ...deps.options };
  const fullDeps: AppDeps = { ...deps, options };
  // Requests are checked by define.ts (request-checks.ts), not by @hono/zod-openapi's
  // validators, so the app needs no default hook for them.
  const app = new OpenAPIHono<AppEnv>();

  app.use('*', async (c, next) => {
    c.set('deps', fullDeps);
    const controlPath = isControlPath(c.req.path);
    // serve --allow-reset: a request is let in, and its request id drawn, only while no reset
    // is under way, and a reset waits until it is answered (runtime/reset-gate.ts).
    const admission = fullDeps.resetGate && !controlPath ? await fullDeps.resetGate.enter() : null;
    const requestId = requestIdFor(c.req.header('x-request-id'), () => fullDeps.ids.next('req'));
    // A fixture server's --delay, fault rules and journal (fixture-hooks.ts); never for its
    // control routes. Without --allow-admin or --delay there is nothing to apply or record.
    const fixture = fullDeps.fixture;
    const tools = fixture && (fixture.control !== null || fixture.delayMs > 0) && !controlPath ? fixture : null;
    const arrived = tools ? { time: tools.wallClock.now(), serviceTime: fullDeps.clock.now() } : null;
    // Timed only for whoever reads the duration: the request log and a fixture's journal.
    const started = options.log || tools ? performance.now() : null;
    const answerHeaders: AnswerHeaders = { 'x-request-id': requestId };
    c.set('answerHeaders', answerHeaders);
    let fault: FaultOutcome | null = null;
    try {
      fault = tools ? await applyFaults(c, tools, admission?.signal) : null;
      if (fault?.answer) c.res = fault.answer;
      else await next();
    } finally {
      admission?.leave();
    }
    // An answer define.ts made carries these already, as plain headers that @hono/node-server
    // writes as they are. Any other (an error's, a fault rule's, a Response a handler built)
    // gets them now. Each was made here, so its headers are its own to change: setting them
    // on c.res in place, rather than with c.header, spares Hono copying a finished answer
    // into a new one whose body is a stream.
    if (!fault?.dropped && c.get('madeWithHeaders') !== c.res) addAnswerHeaders(c.res, answerHeaders);
    const ms = started === null ? 0 : Math.round((performance.now() - started) * 10) / 10;
    options.log?.({
      event: 'request',
      method: c.req.method,
      path: c.req.path,
      query: new URL(c.req.url).search.replace(/^\?/, ''),
      status: fault?.dropped ? null : c.res.status,
      ms,
      caller: callerIdOf(c),
      requestId,
      ...(fault?.faultId ? { fault: fault.faultId } : {}),
    });
    if (tools && arrived && fault) await recordRequest(c, tools, { requestId, ...arrived, durationMs: ms, fault });
  });

  if (options.cors)
    app.use(
      '*',
      cors({
        origin: options.cors,
        allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
        exposeHeaders: ['Retry-After', 'WWW-Authenticate', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
      }),
    );

  const tooLarge = (maxSize: number) => new AppError('too-large', `The request body is over the limit of ${maxSize} bytes.`, { limit: maxSize });
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw tooLarge(maxSize);
      },
    });
  const normalMax = options.maxBody;
  const importMax = Math.max(options.maxBody, options.maxImportBody);
  const normalLimit = limit(normalMax);
  const importLimit = limit(importMax);
  // Only the methods whose routes read a body: a GET's or HEAD's body is never read (a Fetch
  // Request of either has none, so the limit always let them through), and a read does not
  // pass through this step at all. Asking for the body anyway made @hono/node-server build a
  // whole Fetch Request and an AbortController for every read. Every other method has no
  // route, so its body is never read either.
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], `${API_PREFIX}/*`, (c, next) => {
    const large = takesLargeBody(c.req.path);
    // A body of a declared length (no Transfer-Encoding) is decided on that length, as Hono's
    // limit decides it, without asking for the body first: over a socket that asking built
    // a Fetch Request and a stream the body was then read through. HTTP itself keeps the body
    // to the declared length. Chunked bodies, and in-process requests (no Content-Length),
    // are counted by Hono's limit as they are read.
    const declared = c.req.header('content-length');
    if (declared !== undefined && /^\d+$/.test(declared) && c.req.header('transfer-encoding') === undefined) {
      const max = large ? importMax : normalMax;
      if (Number(declared) > max) throw tooLarge(max);
      return next();
    }
    return large ? importLimit(c, next) : normalLimit(c, next);
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A coursebook API token or an access JWT',
  });
  for (const module of routeModules) for (const op of module) addOperation(app, op);
  // serve --allow-admin only: without it the control routes do not exist (404).
  if (options.allowAdmin && fullDeps.fixture?.control) for (const op of controlRoutes) addOperation(app, op);

  // Built on first request, then served from memory with an ETag (generating it costs tens of
  // milliseconds of CPU; it cannot change while the process runs).
  let openApi: { body: string; etag: string } | null = null;
  app.get(`${API_PREFIX}/openapi.json`, (c) => {
    openApi ??= serialisedDocument(app);
    const headers = { ETag: openApi.etag, 'Cache-Control': 'no-cache' };
    if (etagMatches(c.req.header('if-none-match'), openApi.etag)) return c.body(null, 304, headers);
    return c.body(openApi.body, 200, { ...headers, 'Content-Type': 'application/json' });
  });

  app.notFound((c) => c.json(new AppError('not-found', `No route ${c.req.method} ${c.req.path}.`).toEnvelope(), 404));

  app.onError((err, c) => {
    const appError = toAppError(err, c.req.header('content-type') ?? null);
    if (appError) {
      if (appError.code === 'unauthenticated') c.header('WWW-Authenticate', 'Bearer realm="coursebook"');
      if (appError.code === 'rate-limited') c.header('Retry-After', String((appError.details as { retryAfter: number }).retryAfter));
      // The rest of a body over the limit is never read: the connection cannot carry another request.
      if (appError.code === 'too-large') c.header('Connection', 'close');
      return c.json(appError.toEnvelope(), appError.status as 400);
    }
    options.log?.({ event: 'error', method: c.req.method, path: c.req.path, error: String((err as Error)?.stack ?? err) });
    if (!options.log) process.stderr.write(`coursebook: internal error on ${c.req.method} ${c.req.path}: ${String((err as Error)?.stack ?? err)}\n`);
    return c.json({ error: { code: 'internal', message: 'An internal error occurred; it has been logged.' } }, 500);
  });

  return app;
}

/** The headers every answer carries, on one made without them; a header it has already stays as it is. */
function addAnswerHeaders(res: Response, answerHeaders: AnswerHeaders): void {
  for (const name in answerHeaders) if (!res.headers.has(name)) res.headers.set(name, answerHeaders[name]!);
}

/** Where the service runs is the caller's to say: serve listens where it is told (default 127.0.0.1:8080). */
export const OPENAPI_SERVERS = [
  {
    url: '{scheme}://{host}',
    description: 'Wherever coursebook serve listens; every path carries the /api/v1 prefix',
    variables: { scheme: { default: 'http', enum: ['http', 'https'] }, host: { default: '127.0.0.1:8080' } },
  },
];

/** The OpenAPI 3.1 document of this app's routes, as served. */
export function openApiDocument(app: OpenAPIHono<AppEnv>) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'coursebook',
      version: '1',
      description: 'Course content and gradebook service, interface version 1.',
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
    },
    servers: OPENAPI_SERVERS,
    security: [],
  });
}

function serialisedDocument(app: OpenAPIHono<AppEnv>): { body: string; etag: string } {
  const body = JSON.stringify(openApiDocument(app));
  return { body, etag: `"${nodeCrypto().createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** If-None-Match: `*` or a list of (weak or strong) tags; weak comparison, as RFC 9110 asks for GET. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** `contentType`: what the request said its body is (named in an `unsupported` answer). */
function toAppError(err: unknown, contentType: string | null): AppError | null {
  if (err instanceof AppError) return err;
  const fromStore = uniqueConflict(err) ?? nulRefusal(err);
  if (fromStore) return fromStore;
  // The client went away while its body was being read (a cut at shutdown, a dropped
  // connection): its fault, not ours, and nobody is left to read the answer.
  if (err instanceof Error && ((err as { code?: string }).code === 'ECONNRESET' || err.message === 'aborted')) {
    return new AppError('invalid', 'The request was aborted before its body was complete.', [{ path: '(body)', message: 'incomplete' }]);
  }
  if (err instanceof HTTPException) {
    switch (err.status) {
      case 400:
        return new AppError('invalid', 'The request body is not valid JSON.', [{ path: '(body)', message: 'malformed JSON' }]);
      case 413:
        return new AppError('too-large', 'The request body is too large.');
      case 415:
        return new AppError(
          'unsupported',
          contentType === null
            ? 'The request body must be application/json (the request named no Content-Type).'
            : `The request body must be application/json, not ${JSON.stringify(contentType.slice(0, 100))}.`,
          { contentType: contentType === null ? null : contentType.slice(0, 200) },
        );
      case 401:
        return new AppError('unauthenticated', 'A valid bearer token is required.');
      default:
        return null;
    }
  }
  return null;
}
