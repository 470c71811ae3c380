import { API_PREFIX, failureCode, ServiceError, serviceRootPath, UnreachableError, unreachableReason } from '../cli/client.js';
import { type CommandResult, defineCommands, parseJsonText, UsageError } from '../cli/command.js';
import { getAllPages } from '../cli/paginate.js';

/**
 * The health URL for a URL as people paste it: the service's root (`http://host:8080`), its
 * API (`.../api/v1`) or the health path itself (`.../api/v1/health`), with or without a
 * trailing slash; a service under a path prefix keeps it. The query is kept, the fragment
 * dropped (it is never sent).
 */
function healthUrl(given: string): URL {
  let u: URL | undefined;
  try {
    u = new URL(given);
  } catch {
    u = undefined;
  }
  if (u === undefined || !/^https?:$/.test(u.protocol)) throw new UsageError(`not an http(s) URL: ${JSON.stringify(given)}`);
  u.hash = '';
  const path = u.pathname.replace(/\/+$/, '');
  const api = path.endsWith(`${API_PREFIX}/health`) ? path.slice(0, -'/health'.length) : path;
  u.pathname = `${serviceRootPath(api)}${API_PREFIX}/health`;
  return u;
}

/** A URL as messages show it: without `user:pass@`. */
function shown(u: URL): string {
  const safe = new URL(u);
  safe.username = '';
  safe.password = '';
  return safe.toString();
}

/** What a health check got back: the status, the body (read up to HEALTH_BODY_LIMIT) and an excerpt of it for messages. */
interface HealthAnswer {
  status: number;
  text: string;
  /** The body was longer than the limit (and is not a health answer). */
  cut: boolean;
  excerpt: string;
  location?: string;
}

/** A health answer is a few bytes; more than this is something else, and is not read further. */
const HEALTH_BODY_LIMIT = 64 * 1024;
const EXCERPT_CHARS = 80;

/** The body as one short line: whitespace and control characters folded, cut at EXCERPT_CHARS with `…`. */
function excerptOf(text: string, cut: boolean): string {
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  if (line === '') return '(empty body)';
  const chars = [...line];
  const start = chars.length > EXCERPT_CHARS || cut ? `${chars.slice(0, EXCERPT_CHARS).join('')}…` : line;
  return cut ? `${start} (over ${HEALTH_BODY_LIMIT / 1024} KiB)` : start;
}

/**
 * GET the health URL within `timeout` ms in all. No answer (refused, reset, timed out, a name
 * that does not resolve) is unreachable (exit 9); any answer, whatever it says, is returned.
 */
async function askHealth(asked: URL, timeout: number): Promise<HealthAnswer> {
  const { request } = await import('undici');
  const signal = AbortSignal.timeout(timeout);
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(asked, { signal });
  } catch (err) {
    const why = signal.aborted ? `no answer within ${timeout} ms` : unreachableReason(failureCode(err));
    throw new UnreachableError(`cannot reach ${shown(asked)}: ${why}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > HEALTH_BODY_LIMIT) {
        cut = true;
        break;
      }
    }
  } catch (err) {
    const why = signal.aborted ? ` within ${timeout} ms` : `: ${unreachableReason(failureCode(err))}`;
    throw new ServiceError(`${shown(asked)} answered ${res.statusCode} but its body did not arrive${why}`, res.statusCode);
  }
  const text = Buffer.concat(chunks).subarray(0, HEALTH_BODY_LIMIT).toString('utf8');
  const location = res.statusCode >= 300 && res.statusCode < 400 ? res.headers.location : undefined;
  return { status: res.statusCode, text, cut, excerpt: excerptOf(text, cut), ...(typeof location === 'string' ? { location } : {}) };
}

/** Healthy is what the design says a service answers: 200 with `{"status":"ok"}` (other fields allowed). */
function isHealthy(answer: HealthAnswer): boolean {
  if (answer.status !== 200 || answer.cut) return false;
  try {
    const body = JSON.parse(answer.text) as unknown;
    return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'ok';
  } catch {
    return false;
  }
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const rawCommands = defineCommands([
  {
    name: 'api',
    description: 'Send a raw API request in either mode, like `gh api` (PATH is relative to /api/v1)',
    args: [
      { name: '<method>', description: 'GET, POST, PUT, PATCH or DELETE' },
      { name: '<path>', description: 'e.g. /courses or /courses/crs_1/gradebook/setup' },
    ],
    options: [
      { flags: '--file <file>', description: "request body from a JSON file ('-' for stdin)" },
      { flags: '--body <json>', description: 'request body as inline JSON' },
      { flags: '--paginate', description: 'GET every page (following Link rel="next") and print one array of all the rows' },
    ],
    // One request, one answer, unless --paginate says otherwise.
    rawClient: true,
    handler: async (ctx, [method, path], opts): Promise<CommandResult> => {
      const m = method!.toUpperCase();
      if (!METHODS.includes(m)) throw new UsageError(`method must be one of ${METHODS.join(', ')}`);
      let p = path!.startsWith('/') ? path! : `/${path}`;
      if (p.startsWith('/api/v1/')) p = p.slice(7);
      let body: unknown;
      if (opts.file !== undefined) body = await ctx.readText(String(opts.file));
      else if (opts.body !== undefined) body = String(opts.body);
      if (typeof body === 'string') parseJsonText(body, opts.file !== undefined ? String(opts.file) : '--body');
      if (opts.paginate && (m !== 'GET' || body !== undefined)) throw new UsageError('--paginate follows the pages of a GET without a body');
      const response = opts.paginate ? await getAllPages(ctx.client, p) : await ctx.client.request(m, p, body);
      return { kind: 'text', text: response.text === '' ? '' : `${JSON.stringify(response.data, null, 2)}\n`, json: response.text };
    },
  },
  {
    name: 'health',
    description: 'Check a service: GET URL/api/v1/health (exit 0 when it answers {"status":"ok"}, 1 when it answers anything else, 9 when nothing answers)',
    noClient: true,
    args: [{ name: '<url>', description: 'the service URL, e.g. http://127.0.0.1:8080 (with or without /api/v1 or /api/v1/health)' }],
    options: [{ flags: '--timeout <ms>', description: 'give up after this many milliseconds', default: '5000' }],
    handler: async (_ctx, [url], opts): Promise<CommandResult> => {
      const asked = healthUrl(url!);
      const timeout = Number(opts.timeout);
      if (!(Number.isInteger(timeout) && timeout >= 1))
        throw new UsageError(`--timeout must be a whole number of milliseconds >= 1 (got ${JSON.stringify(opts.timeout)})`);
      const answer = await askHealth(asked, timeout);
      if (!isHealthy(answer)) {
        const where = answer.location === undefined ? '' : ` (location: ${answer.location})`;
        throw new ServiceError(`${shown(asked)} answered ${answer.status}${where}, not 200 {"status":"ok"}: ${answer.excerpt}`, answer.status);
      }
      return { kind: 'text', text: 'ok\n', json: answer.text };
    },
  },
]);
