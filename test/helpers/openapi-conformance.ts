/**
 * Every answer the API tests receive is checked against the OpenAPI document the app serves
 * (ajv, JSON Schema 2020-12 = OpenAPI 3.1): the operation must list the status, and a JSON
 * body must match the documented schema. makeService wraps its app with `conforming`, so
 * the document cannot drift from what the routes really send without a test failing.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

interface ResponseSpec {
  content?: Record<string, { schema?: unknown }>;
}
interface OperationSpec {
  operationId?: string;
  responses?: Record<string, ResponseSpec>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationSpec>>;
  [key: string]: unknown;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  method: string;
  operation: OperationSpec;
}

const escapePointer = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

export class ConformanceChecker {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();
  /** Each response schema's validator by its pointer, so a schema's text is made once, not per answer. */
  private readonly byPointer = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    // Compiling is most of what checking costs: the course file's schemas are 75 KB each. So a
    // component schema is compiled once and called by reference (inlineRefs off) instead of
    // again into every validator that reaches it, and the generated code is not optimized
    // (half the compile time; it validates alike, and runs only against test answers).
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, inlineRefs: false, code: { optimize: false } });
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi');
    this.routes = Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        template,
        method: method.toUpperCase(),
        operation,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      })),
    );
  }

  /** The documented operation for a request (the most literal template wins), or null. */
  route(method: string, path: string): Route | null {
    const matches = this.routes.filter((r) => r.method === method && r.pattern.test(path)).sort((a, b) => a.params - b.params);
    return matches[0] ?? null;
  }

  /** Problems with one answer, or [] when the document allows it. */
  check(method: string, path: string, status: number, contentType: string | null, text: string): string[] {
    if (method === 'OPTIONS') return []; // CORS preflights are the middleware's, not operations
    const route = this.route(method, path);
    if (!route) {
      // No such operation: only the not-found envelope may answer (an unknown route, or the document itself).
      if (path.endsWith('/openapi.json')) return [];
      return status === 404 ? this.envelopeProblems(text) : [`${method} ${path}: ${status} from a route the document does not describe`];
    }
    const responses = route.operation.responses ?? {};
    const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : null;
    if (key === null) return [`${method} ${route.template} (${route.operation.operationId}): status ${status} is not documented`];
    const schema = responses[key]?.content?.['application/json']?.schema;
    if (schema === undefined) return text === '' ? [] : [`${method} ${route.template}: ${status} has a body the document does not describe`];
    if (!contentType?.startsWith('application/json')) return [`${method} ${route.template}: ${status} answered ${contentType}, not application/json`];
    const pointer = `openapi#/paths/${escapePointer(route.template)}/${route.method.toLowerCase()}/responses/${key}/content/application~1json/schema`;
    let validate = this.byPointer.get(pointer);
    if (!validate) {
      // Compiled per distinct schema text: the same text anywhere in the document validates
      // alike (its references all resolve against the document's root), and most answers
      // share one, the error envelope's `$ref` (761 of 857 response schemas).
      const schemaText = JSON.stringify(schema);
      validate = this.validators.get(schemaText) ?? this.ajv.compile({ $ref: pointer });
      this.validators.set(schemaText, validate);
      this.byPointer.set(pointer, validate);
    }
    if (validate(JSON.parse(text))) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) => `${method} ${route.template} (${route.operation.operationId}) ${status}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`,
      );
  }

  private envelopeProblems(text: string): string[] {
    let validate = this.validators.get('envelope');
    if (!validate) {
      validate = this.ajv.compile({ $ref: 'openapi#/components/schemas/Error' });
      this.validators.set('envelope', validate);
    }
    return validate(JSON.parse(text)) ? [] : [`not-found answer is not the error envelope: ${text.slice(0, 200)}`];
  }
}

let shared: { etag: string; fingerprint: string | null; checker: ConformanceChecker } | null = null;

/**
 * What an app's document is made of: its registered routes and components. Apps built the
 * same way (most tests build hundreds) serve the same document, so the checker built from
 * the first is reused without having each app build its document again.
 */
function registryFingerprint(app: unknown): string | null {
  const definitions = (app as { openAPIRegistry?: { definitions?: { type: string; route?: { method: string; path: string }; schema?: unknown }[] } })
    .openAPIRegistry?.definitions;
  if (!definitions) return null;
  return definitions.map((d) => `${d.type}:${d.route ? `${d.route.method} ${d.route.path}` : ''}`).join('|');
}

type FetchingApp = { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> };

/**
 * Wrap an app so every answer it gives is checked against the document it serves; an answer
 * the document does not allow fails the request (and so the test) with the reasons.
 */
export function conforming<A extends FetchingApp>(app: A): A {
  const original = app.fetch.bind(app) as (request: Request, ...rest: unknown[]) => Promise<Response>;
  const fingerprint = registryFingerprint(app);
  const checker = async (): Promise<ConformanceChecker> => {
    if (shared && fingerprint !== null && shared.fingerprint === fingerprint) return shared.checker;
    const res = await original(new Request('http://conformance/api/v1/openapi.json'));
    const etag = res.headers.get('etag') ?? '';
    if (!shared || shared.etag !== etag) shared = { etag, fingerprint, checker: new ConformanceChecker((await res.json()) as OpenApiDocument) };
    else shared = { ...shared, fingerprint };
    return shared.checker;
  };
  const wrapped = async (request: Request, ...rest: unknown[]): Promise<Response> => {
    const response = await original(request, ...rest);
    const text = await response.clone().text();
    const url = new URL(request.url);
    const problems = (await checker()).check(request.method, url.pathname, response.status, response.headers.get('content-type'), text);
    if (problems.length > 0)
      throw new Error(`The answer does not conform to the served OpenAPI document:\n${problems.join('\n')}\nbody: ${text.slice(0, 500)}`);
    return response;
  };
  (app as { fetch: unknown }).fetch = wrapped;
  return app;
}
