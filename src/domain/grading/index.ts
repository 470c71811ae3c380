export * from './types.js';
export { computeCourseGrades, courseOrder, type GradeInput } from './compute.js';
export { computeSetupChecks } from './checks.js';
export { defaultCategory, defaultGradebookSetup, firstCategoryId } from './defaults.js';
export { letterFor } from './letters.js';
export { type ExportLayout, renderGradebookCsv, roundPercent, textCell } from './export-csv.js';
export { chooseDrops, chooseDropsBruteForce, type DropInput } from './drops.js';
export { decimalsOf, plainNumber, roundHalfUp } from './exact.js';
export * from './records.js';
