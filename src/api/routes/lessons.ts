import type { RouteModule } from '../define.js';

// Filled in by the issue that owns this resource; registered in routes/index.ts.
export const lessonsRoutes: RouteModule = [];
