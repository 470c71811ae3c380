import { UnreachableError } from '../cli/client.js';
import { type CommandResult, defineCommands, parseJsonText, UsageError } from '../cli/command.js';
import { getAllPages } from '../cli/paginate.js';

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
    description: 'Check a service: GET URL/api/v1/health (exit 0 when it answers ok, 9 when unreachable)',
    noClient: true,
    args: [{ name: '<url>', description: 'the service base URL, e.g. http://127.0.0.1:8080' }],
    options: [{ flags: '--timeout <ms>', description: 'give up after this many milliseconds', default: '5000' }],
    handler: async (_ctx, [url], opts): Promise<CommandResult> => {
      const { request } = await import('undici');
      const root = url!.replace(/\/+$/, '');
      if (!URL.canParse(root) || !/^https?:$/.test(new URL(root).protocol)) throw new UsageError(`not an http(s) URL: ${JSON.stringify(url)}`);
      const timeout = Number(opts.timeout);
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(`${root}/api/v1/health`, { headersTimeout: timeout, bodyTimeout: timeout });
      } catch (err) {
        throw new UnreachableError(`cannot reach ${new URL(root).origin}: ${(err as { code?: string }).code ?? (err as Error).message}`);
      }
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new UnreachableError(`${new URL(root).origin} answered ${res.statusCode}`);
      return { kind: 'text', text: 'ok\n', json: text };
    },
  },
]);
