export * from './common.js';
export * from './content.js';
export * from './dataset.js';
export * from './gradebook.js';
export * from './people.js';
export * from './readiness.js';
export * from './templates.js';
