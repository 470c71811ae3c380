/**
 * Local mode registers only the route modules a request can reach (the Performance issue),
 * from the table in src/cli/local-routes.ts. The table must name the modules of
 * ROUTE_MODULES in their order, each with exactly the paths its operations declare, and a
 * request must get every module the whole app would try for its path.
 */
import { describe, expect, it } from 'vitest';
import { ROUTE_MODULES } from '../../src/api/routes/index.js';
import { LOCAL_ROUTE_MODULES, loadRouteModules, routeModulesFor } from '../../src/cli/local-routes.js';

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
  });

  it('gives every module where the path is not one to judge: the OpenAPI document, encoded text, outside /api/v1', () => {
    expect(routeModulesFor(url('/openapi.json'))).toEqual(every);
    expect(routeModulesFor(url('/c%6Furses'))).toEqual(every);
    expect(routeModulesFor('http://local/elsewhere')).toEqual(every);
  });
});
