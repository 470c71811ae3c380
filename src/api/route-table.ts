/**
 * The route table (the Performance issue): which route module serves which paths, so that
 * the CLI's local mode and `serve` register only the modules a request can reach, on first
 * use, instead of every route and its schemas at start-up. The modules are those of
 * src/api/routes/index.ts ROUTE_MODULES, in its order; test/cli/local-routes.test.ts checks
 * this table against them.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createApp } from './app.js';
import type { AppDeps, AppEnv } from './context.js';
import type { RouteModule } from './define.js';

interface LocalRouteModule {
  load(): Promise<RouteModule>;
  /** The module's paths under /api/v1, OpenAPI style, as its operations declare them. */
  paths: readonly string[];
}

export const LOCAL_ROUTE_MODULES: readonly LocalRouteModule[] = [
  { load: async () => (await import('./routes/service.js')).serviceRoutes, paths: ['/health', '/_reset', '/import', '/dump'] },
  {
    load: async () => (await import('./routes/people.js')).peopleRoutes,
    paths: ['/me', '/users', '/users/{userId}', '/courses/{courseId}/enrollments', '/courses/{courseId}/enrollments/{userId}'],
  },
  { load: async () => (await import('./routes/tokens.js')).tokensRoutes, paths: ['/tokens', '/tokens/{tokenId}'] },
  { load: async () => (await import('./routes/course-files.js')).courseFilesRoutes, paths: ['/courses/import', '/courses/{courseId}/export'] },
  {
    load: async () => (await import('./routes/courses.js')).courseRoutes,
    paths: ['/courses', '/courses/{courseId}', '/courses/{courseId}/modules', '/modules/{moduleId}'],
  },
  {
    load: async () => (await import('./routes/lessons.js')).lessonsRoutes,
    paths: ['/modules/{moduleId}/lessons', '/lessons/{lessonId}', '/lessons/{lessonId}/publish'],
  },
  {
    load: async () => (await import('./routes/blocks.js')).blocksRoutes,
    paths: ['/lessons/{lessonId}/blocks', '/blocks/{blockId}', '/blocks/{blockId}/move', '/blocks/{blockId}/review'],
  },
  {
    load: async () => (await import('./routes/assignments.js')).assignmentsRoutes,
    paths: [
      '/courses/{courseId}/assignments',
      '/modules/{moduleId}/assignments',
      '/assignments/{assignmentId}',
      '/assignments/{assignmentId}/publish',
      '/assignments/{assignmentId}/unpublish',
    ],
  },
  {
    load: async () => (await import('./routes/submissions.js')).submissionsRoutes,
    paths: [
      '/assignments/{assignmentId}/submissions',
      '/submissions/{submissionId}',
      '/submissions/{submissionId}/grade',
      '/submissions/{submissionId}/release',
    ],
  },
  {
    load: async () => (await import('./routes/gradebook.js')).gradebookRoutes,
    paths: [
      '/courses/{courseId}/gradebook/setup',
      '/courses/{courseId}/gradebook/setup/checks',
      '/courses/{courseId}/gradebook/setup/dismiss',
      '/courses/{courseId}/gradebook/setup/dismiss/{code}/{target}',
      '/courses/{courseId}/gradebook/grades',
      '/courses/{courseId}/gradebook/me',
      '/courses/{courseId}/gradebook/export',
    ],
  },
  {
    load: async () => (await import('./routes/final-grades.js')).finalGradesRoutes,
    paths: ['/courses/{courseId}/gradebook/students/{studentId}/final', '/courses/{courseId}/gradebook/students/{studentId}/final/history'],
  },
  {
    load: async () => (await import('./routes/readiness.js')).readinessRoutes,
    paths: [
      '/courses/{courseId}/readiness',
      '/courses/{courseId}/readiness/items/{itemId}/attestation',
      '/courses/{courseId}/readiness/findings',
      '/courses/{courseId}/readiness/items/{itemId}/finding',
      '/courses/{courseId}/readiness/items/{itemId}/finding/review',
      '/rubrics',
      '/rubrics/{rubricId}',
      '/courses/{courseId}/publish',
    ],
  },
  {
    load: async () => (await import('./routes/templates.js')).templatesRoutes,
    paths: ['/templates', '/templates/{templateId}', '/templates/bulk-update', '/templates/{templateId}/courses'],
  },
  {
    load: async () => (await import('./routes/certificates.js')).certificatesRoutes,
    paths: ['/certificates', '/certificate-codes/{code}', '/certificates/{certificateId}', '/certificates/{certificateId}/replace'],
  },
  {
    load: async () => (await import('./routes/reporting-lines.js')).reportingLinesRoutes,
    paths: ['/reporting-lines', '/reporting-lines/{managerId}/{reportId}'],
  },
  {
    load: async () => (await import('./routes/course-content.js')).courseContentRoutes,
    paths: ['/courses/{courseId}/content', '/courses/{courseId}/sync-mark'],
  },
  {
    load: async () => (await import('./routes/content-lifecycle.js')).contentLifecycleRoutes,
    paths: [
      '/courses/{courseId}/unpublish',
      '/modules/{moduleId}/publish',
      '/modules/{moduleId}/unpublish',
      '/modules/{moduleId}',
      '/lessons/{lessonId}/unpublish',
      '/lessons/{lessonId}',
      '/assignments/{assignmentId}',
    ],
  },
  {
    load: async () => (await import('./routes/gradebook-categories.js')).gradebookCategoriesRoutes,
    paths: ['/courses/{courseId}/gradebook/categories/{categoryId}', '/courses/{courseId}/assignments/category'],
  },
  { load: async () => (await import('./routes/gradebook-import.js')).gradebookImportRoutes, paths: ['/courses/{courseId}/gradebook/import'] },
];

const API_PATH = '/api/v1/';

/**
 * Each module's paths as one pattern over the path below /api/v1: a `{param}` segment is any
 * non-empty segment, every other segment itself. One test per module per new path, instead
 * of splitting every template: a path not seen before (paths carry ids) cost 28 µs, an
 * eighth of a write's time under `serve`.
 */
const MODULE_PATTERNS: readonly RegExp[] = LOCAL_ROUTE_MODULES.map(
  (module) =>
    new RegExp(
      `^(?:${module.paths
        .map((template) =>
          template
            .split('/')
            .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/'),
        )
        .join('|')})$`,
    ),
);

/**
 * The indexes of the route modules with a path matching the request URL's, whatever the
 * method: the same routes the whole app would consider, in the same order, so it answers
 * the same. Every module when the path is one the table cannot judge as the router would:
 * the OpenAPI document (which describes every route), a percent-encoded path (the router
 * matches the decoded text) or one outside /api/v1.
 */
export function routeModulesFor(url: string): number[] {
  const every = LOCAL_ROUTE_MODULES.map((_, i) => i);
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return every; // the whole app refuses it as it always did
  }
  if (!pathname.startsWith(API_PATH) || pathname.includes('%') || pathname === `${API_PATH}openapi.json`) return every;
  const path = pathname.slice(API_PATH.length - 1);
  return every.filter((i) => MODULE_PATTERNS[i]!.test(path));
}

/** The route modules at these indexes, loaded, in table order. */
export const loadRouteModules = (indexes: readonly number[]): Promise<RouteModule[]> => Promise.all(indexes.map((i) => LOCAL_ROUTE_MODULES[i]!.load()));

/**
 * The whole service as one app, built lazily: a request is answered by an app holding the
 * route modules its path can reach (routeModulesFor), built on the first request that needs
 * that set and kept. Every app is made by createApp from the same deps, so each runs the same
 * middleware over the same state (ids, clock, journal, rate limits) and answers exactly as the
 * app with every module would: the table only leaves out routes that could not match.
 */
export function lazyApp(deps: AppDeps, controlRoutes: RouteModule = []) {
  const apps = new Map<string, Promise<OpenAPIHono<AppEnv>>>();
  // Apps once built, by module set: a request whose app is built is handed to it at once,
  // without awaiting the promise it was built by (a turn of the microtask queue per request).
  const built = new Map<string, OpenAPIHono<AppEnv>>();
  // Module sets by path (the query never matters), with the key of their app: most requests
  // skip the table. Bounded, since paths carry ids.
  type ModuleSet = { key: string; modules: number[] };
  const sets = new Map<string, ModuleSet>();
  const moduleSetFor = (url: string): ModuleSet => {
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    let set = sets.get(path);
    if (set === undefined) {
      if (sets.size >= 10_000) sets.clear();
      const modules = routeModulesFor(url);
      set = { key: modules.join(' '), modules };
      sets.set(path, set);
    }
    return set;
  };
  const appFor = ({ key, modules }: ModuleSet): Promise<OpenAPIHono<AppEnv>> => {
    let app = apps.get(key);
    if (!app) {
      app = loadRouteModules(modules).then((loaded) => {
        const made = createApp(deps, loaded, controlRoutes);
        built.set(key, made);
        return made;
      });
      apps.set(key, app);
    }
    return app;
  };
  return {
    /** As Hono's `app.request`: a URL or a Request, answered in process. */
    request: async (input: string | Request, init?: RequestInit): Promise<Response> =>
      (await appFor(moduleSetFor(typeof input === 'string' ? input : input.url))).request(input, init),
    /** As Hono's `app.fetch`, for @hono/node-server (which passes the sockets in `env`). */
    fetch: (request: Request, env?: Parameters<OpenAPIHono<AppEnv>['fetch']>[1]): Promise<Response> => {
      const set = moduleSetFor(request.url);
      const app = built.get(set.key);
      if (app) return Promise.resolve(app.fetch(request, env));
      return appFor(set).then((made) => made.fetch(request, env));
    },
  };
}
