import { AppError } from '../../errors.js';
import { blockingItemNumbers } from './report.js';
import type { ReadinessReport, Rubric } from './types.js';

/**
 * The publish gate: a course whose readiness blocks publishing cannot be published, by
 * POST /courses/{id}/publish or by any other path that makes a course published (a course
 * file). The error names the essential items that block it, or the template's floor.
 */
export function assertPublishable(report: ReadinessReport, rubric: Rubric, accessFloor: number | null): void {
  if (!report.blocksPublishing) return;
  const blocking = blockingItemNumbers(report, rubric);
  const floor = accessFloor !== null && accessFloor > report.percent ? { accessFloor, percent: report.percent } : {};
  throw new AppError(
    'not-ready',
    blocking.length > 0
      ? `The course is not ready to publish: essential items ${blocking.join(', ')} are not met.`
      : `The course is not ready to publish: readiness ${report.percent}% is below the template's floor of ${accessFloor}%.`,
    { blocking, ...floor },
  );
}
