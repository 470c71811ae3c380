export { AUTOMATIC_CHECKS, isKnownCheck } from './checks.js';
export { evidenceProblems, findingItemProblem, rubricItem } from './evidence.js';
export { assertPublishable } from './publish-gate.js';
export { blockingItemNumbers, computeReadiness, roundHalfUp1 } from './report.js';
export { DEFAULT_RUBRIC } from './rubric.js';
export { rubricProblems } from './rubric-soundness.js';
export * from './types.js';
