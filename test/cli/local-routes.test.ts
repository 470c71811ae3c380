/**
 * Local mode registers only the route modules a request can reach (the Performance issue),
 * from the table in src/api/route-table.ts. The table must name the modules of
 * ROUTE_MODULES in their order, each with exactly the paths its operations declare, and a
 * request must get every module the whole app would try for its path.
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_ROUTE_MODULES, loadRouteModules, routeModulesFor } from '../../src/api/route-table.js';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';

const url = (path: string) => `http://local/api/v1${path}`;
const every = ROUTE_MODULES.map((_, i) => i);

describe('the local route table', () => {
  it('loads the modules of ROUTE_MODULES, in their order', async () => {
    expect(await loadRouteModules(every)).toEqual([...ROUTE_MODULES]);
    expect(LOCAL_ROUTE_MODULES).toHaveLength(ROUTE_MODULES.length);
  });

  it("names exactly each module's paths", () => {
    ROUTE_MODULES.forEach((module, i) => {
      expect([...LOCAL_ROUTE_MODULES[i]!.paths].sort()).toEqual([...new Set(module.map((op) => op.path))].sort());
    });
  });

  it('gives a request every module with a route on its path, whatever the method', () => {
    ROUTE_MODULES.forEach((module, i) => {
      for (const op of module) {
        const concrete = op.path.replace(/\{[^}]+\}/g, 'x_1');
        expect(routeModulesFor(url(`${concrete}?limit=2`))).toContain(i);
      }
    });
    // A course's own path is the courses module's alone; /courses/import is course-files' too.
    expect(routeModulesFor(url('/courses/crs_1'))).toEqual([4]);
    expect(routeModulesFor(url('/courses/import'))).toEqual([3, 4]);
    expect(routeModulesFor(url('/nothing/here'))).toEqual([]);
    // A parameter is one non-empty segment of any characters but '/' (regular-expression
    // characters included); an empty segment, or one segment too many, is no route's path.
    expect(routeModulesFor(url('/courses/crs.1+2(3)*/modules'))).toEqual([4]);
    expect(routeModulesFor(url('/courses//modules'))).toEqual([]);
    expect(routeModulesFor(url('/courses/crs_1/modules/extra'))).toEqual([]);
    expect(routeModulesFor(url('/_reset'))).toEqual([0]);
  });

  it('gives every module where the path is not one to judge: the OpenAPI document, encoded text, outside /api/v1', () => {
    expect(routeModulesFor(url('/openapi.json'))).toEqual(every);
    expect(routeModulesFor(url('/c%6Furses'))).toEqual(every);
    expect(routeModulesFor('http://local/elsewhere')).toEqual(every);
  });
});

describe('lazyApp (serve and local mode)', () => {
  it('answers as the app with every module: the OpenAPI document, a route, an unknown path, a control route', async () => {
    const { fixture } = await import('../helpers/fixture.js');
    const { createApp } = await import('../../src/api/app.js');
    const { fixtureControlRoutes } = await import('../../src/api/routes/admin.js');
    const f = await fixture();
    const whole = createApp(f.deps, ROUTE_MODULES, fixtureControlRoutes);
    const headers = { authorization: 'Bearer tok-admin', 'x-request-id': 'same' };
    for (const path of ['/openapi.json', '/courses/c1', '/courses/c1/assignments?limit=1', '/nothing/here', '/_admin/clock']) {
      const [lazy, full] = [await f.app.request(url(path), { headers }), await whole.request(url(path), { headers })];
      expect([lazy.status, await lazy.text()]).toEqual([full.status, await full.text()]);
    }
    // Both apps record into the one journal of the deps they share.
    expect((await f.call('GET', '/_admin/requests/count')).body.count).toBeGreaterThan(0);
  });
});
