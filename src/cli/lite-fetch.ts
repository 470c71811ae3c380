/**
 * Headers, Request and Response for local mode, in place of node's own (the Performance
 * issue: cold start). Hono makes a Request for every app.request and a Headers and a Response
 * for every answer, through the globals; node defines those globals lazily, and the first use
 * loads its whole bundled undici (fetch, its connection pools, HTTP/2): 40 ms of a 250 ms
 * start, for three small classes. A local command only passes a request into the app and
 * reads its answer, in the same process, so these hold what Hono and the in-process client
 * use, with the Fetch standard's rules for what they hold: header names folded to lower
 * case and values trimmed, sorted iteration with set-cookie apart, a text body read as
 * UTF-8 with its byte order mark dropped, bodies read once. test/cli/lite-fetch.test.ts
 * holds each to node's class on the same inputs.
 *
 * Installed by the real process only (processIo's useLiteFetch), and only while node's
 * classes have not been loaded: `serve` (whose @hono/node-server builds on node's Response)
 * never installs them, and a process that already holds node's classes keeps them.
 */

type HeaderPairs = Iterable<readonly [string, string]> | Record<string, string>;
type BodySource = string | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | null | undefined;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

function headerName(name: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`Headers: invalid header name ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

function headerValue(value: unknown): string {
  const text = String(value).replace(HTTP_WHITESPACE, '');
  if (/[\0\r\n]/.test(text)) throw new TypeError(`Headers: invalid header value ${JSON.stringify(text)}`);
  return text;
}

function isPairs(init: HeaderPairs): init is Iterable<readonly [string, string]> {
  return typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function';
}

export class LiteHeaders {
  readonly #values = new Map<string, string>();
  #cookies: string[] = [];

  constructor(init?: HeaderPairs | LiteHeaders | null) {
    if (init === undefined || init === null) return;
    if (isPairs(init)) {
      for (const pair of init) {
        if (pair.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
        this.append(pair[0], pair[1]);
      }
    } else for (const name of Object.keys(init)) this.append(name, init[name]!);
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    const text = headerValue(value);
    if (key === 'set-cookie') this.#cookies.push(text);
    const before = this.#values.get(key);
    this.#values.set(key, before === undefined ? text : `${before}, ${text}`);
  }

  set(name: string, value: string): void {
    const key = headerName(name);
    const text = headerValue(value);
    if (key === 'set-cookie') this.#cookies = [text];
    this.#values.set(key, text);
  }

  delete(name: string): void {
    const key = headerName(name);
    if (key === 'set-cookie') this.#cookies = [];
    this.#values.delete(key);
  }

  get(name: string): string | null {
    return this.#values.get(headerName(name)) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  /** Sorted by name; each set-cookie on its own, as the standard iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const key of [...this.#values.keys()].sort()) {
      if (key === 'set-cookie') for (const cookie of this.#cookies) yield [key, cookie];
      else yield [key, this.#values.get(key)!];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, key: string, parent: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A body as the standard extracts it: its bytes or stream, and the content type it implies. */
function extractBody(body: BodySource): { source: string | Uint8Array | ReadableStream<Uint8Array> | null; type: string | null } {
  if (body === null || body === undefined) return { source: null, type: null };
  // A string goes out as UTF-8: a lone surrogate becomes U+FFFD, as it would on the wire.
  if (typeof body === 'string') return { source: body.toWellFormed(), type: 'text/plain;charset=UTF-8' };
  if (body instanceof ArrayBuffer) return { source: new Uint8Array(body.slice(0)), type: null };
  if (body instanceof Uint8Array) return { source: new Uint8Array(body), type: null };
  if (body instanceof ReadableStream) return { source: body, type: null };
  throw new TypeError('local mode sends and answers text, bytes or a stream of bytes only');
}

const encoder = new TextEncoder();

/** The body part both classes share: read once, as text, JSON, bytes or a stream. */
class LiteBody {
  #source: string | Uint8Array | ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(source: string | Uint8Array | ReadableStream<Uint8Array> | null) {
    this.#source = source;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    const source = this.#source;
    if (source === null || source instanceof ReadableStream) return source;
    const bytes = typeof source === 'string' ? encoder.encode(source) : source;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
    this.#source = stream;
    return stream;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    const source = this.#take();
    // The standard decodes the body's bytes as UTF-8 and drops a leading byte order mark.
    if (typeof source === 'string') return source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    return new TextDecoder().decode(await bytesOf(source));
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** The source for a copy of this body (Request from Request): the original is used up. */
  protected takeSource(): string | Uint8Array | ReadableStream<Uint8Array> | null {
    return this.#source === null ? null : this.#take();
  }

  async #bytes(): Promise<Uint8Array> {
    const source = this.#take();
    return typeof source === 'string' ? encoder.encode(source) : bytesOf(source);
  }

  #take(): string | Uint8Array | ReadableStream<Uint8Array> | null {
    // No body: nothing to use up (read again, it is empty again).
    if (this.#source === null) return null;
    if (this.#used || (this.#source instanceof ReadableStream && this.#source.locked)) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#source;
  }
}

async function bytesOf(source: Uint8Array | ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (source === null) return new Uint8Array(0);
  if (source instanceof Uint8Array) return source;
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of source as unknown as AsyncIterable<unknown>) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError('Received non-Uint8Array chunk');
    chunks.push(chunk);
    length += chunk.byteLength;
  }
  const all = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

export interface LiteRequestInit {
  method?: string;
  headers?: HeaderPairs | LiteHeaders;
  body?: BodySource;
}

export class LiteRequest extends LiteBody {
  readonly url: string;
  readonly method: string;
  readonly headers: LiteHeaders;
  #signal: AbortSignal | null = null;

  constructor(input: string | URL | LiteRequest, init: LiteRequestInit = {}) {
    const from = input instanceof LiteRequest ? input : null;
    const given = init.method ?? from?.method ?? 'GET';
    const method = NORMALISED_METHODS.has(given.toUpperCase()) ? given.toUpperCase() : given;
    if (!TOKEN.test(method)) throw new TypeError(`Request: invalid method ${JSON.stringify(given)}`);
    const extracted = 'body' in init ? extractBody(init.body) : { source: from ? from.takeSource() : null, type: null };
    if (extracted.source !== null && (method === 'GET' || method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
    super(extracted.source);
    this.url = from ? from.url : new URL(String(input)).href;
    this.method = method;
    this.headers = new LiteHeaders(init.headers ?? from?.headers);
    if (extracted.type && !this.headers.has('content-type')) this.headers.set('content-type', extracted.type);
  }

  /** Never aborted: a local request runs to its end in this process. */
  get signal(): AbortSignal {
    this.#signal ??= new AbortController().signal;
    return this.#signal;
  }
}

export interface LiteResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeaderPairs | LiteHeaders;
}

export class LiteResponse extends LiteBody {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly type = 'default';
  readonly url = '';
  readonly redirected = false;

  constructor(body?: BodySource, init: LiteResponseInit = {}) {
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
    const extracted = extractBody(body);
    if (extracted.source !== null && NULL_BODY_STATUS.has(status)) throw new TypeError('Response constructor: Invalid response status code ' + status);
    super(extracted.source);
    this.status = status;
    this.statusText = init.statusText ?? '';
    this.headers = new LiteHeaders(init.headers);
    if (extracted.type && !this.headers.has('content-type')) this.headers.set('content-type', extracted.type);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  static json(data: unknown, init: LiteResponseInit = {}): LiteResponse {
    const headers = new LiteHeaders(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new LiteResponse(JSON.stringify(data), { ...init, headers });
  }
}

/**
 * Makes the light classes the process's Headers, Request and Response, unless node's are
 * already loaded (then what holds them must keep working with them). Answers whether it did.
 */
export function useLiteFetch(target: object = globalThis): boolean {
  const lazy = (name: string) => typeof Object.getOwnPropertyDescriptor(target, name)?.get === 'function';
  if (!lazy('Response') || !lazy('Request') || !lazy('Headers')) return false;
  for (const [name, value] of [
    ['Headers', LiteHeaders],
    ['Request', LiteRequest],
    ['Response', LiteResponse],
  ] as const)
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  return true;
}
