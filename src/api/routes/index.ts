import type { RouteModule } from '../define.js';
import { assignmentsRoutes } from './assignments.js';
import { blocksRoutes } from './blocks.js';
import { certificatesRoutes } from './certificates.js';
import { contentLifecycleRoutes } from './content-lifecycle.js';
import { courseContentRoutes } from './course-content.js';
import { courseFilesRoutes } from './course-files.js';
import { courseRoutes } from './courses.js';
import { finalGradesRoutes } from './final-grades.js';
import { gradebookRoutes } from './gradebook.js';
import { gradebookCategoriesRoutes } from './gradebook-categories.js';
import { gradebookImportRoutes } from './gradebook-import.js';
import { lessonsRoutes } from './lessons.js';
import { peopleRoutes } from './people.js';
import { readinessRoutes } from './readiness.js';
import { reportingLinesRoutes } from './reporting-lines.js';
import { serviceRoutes } from './service.js';
import { submissionsRoutes } from './submissions.js';
import { templatesRoutes } from './templates.js';
import { tokensRoutes } from './tokens.js';

/** Every route module of the service; createApp registers them all, in this order. */
export const ROUTE_MODULES: ReadonlyArray<RouteModule> = [
  serviceRoutes,
  peopleRoutes,
  tokensRoutes,
  courseFilesRoutes,
  courseRoutes,
  lessonsRoutes,
  blocksRoutes,
  assignmentsRoutes,
  submissionsRoutes,
  gradebookRoutes,
  finalGradesRoutes,
  readinessRoutes,
  templatesRoutes,
  certificatesRoutes,
  reportingLinesRoutes,
  // #14 offline authoring round trip and the content lifecycle
  courseContentRoutes,
  contentLifecycleRoutes,
  // issue #13: category removal with its move, assignments into a category in bulk, grades import
  gradebookCategoriesRoutes,
  gradebookImportRoutes,
];

// #16: fixture control (/_admin/...), registered by createApp only with serve --allow-admin.
export { fixtureControlRoutes as FIXTURE_CONTROL_ROUTES } from './admin.js';
