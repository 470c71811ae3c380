export * from './types.js';
export { DEFAULT_RUBRIC } from './rubric.js';
export { AUTOMATIC_CHECKS, isKnownCheck } from './checks.js';
export { blockingItemNumbers, computeReadiness, roundHalfUp1 } from './report.js';
export { assertPublishable } from './publish-gate.js';
export { rubricProblems } from './rubric-soundness.js';
