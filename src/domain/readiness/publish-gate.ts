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
  // Everything that blocks it, so one round of fixes can clear it: the items and the floor.
  const reasons = [
    ...(blocking.length > 0 ? [`essential items ${blocking.join(', ')} are not met`] : []),
    ...('accessFloor' in floor ? [`readiness ${report.percent}% is below the template's floor of ${accessFloor}%`] : []),
  ];
  const why = reasons.length > 0 ? reasons.join('; and ') : 'its readiness report blocks publishing';
  throw new AppError('not-ready', `The course is not ready to publish: ${why}.`, { blocking, ...floor });
}
