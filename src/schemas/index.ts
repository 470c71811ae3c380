export * from './common.js';
export * from './content.js';
export * from './gradebook.js';
export * from './people.js';
export * from './templates.js';
export * from './readiness.js';
export * from './dataset.js';
