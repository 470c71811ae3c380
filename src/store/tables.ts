/**
 * One description per table (as Actual's loot-core does): its name, key, columns, and the
 * mapping both ways between a row (snake_case columns, JSON text, 0/1 booleans) and the
 * resource shape of the spec (camelCase), whose type is inferred from its zod schema.
 * Store modules and dataset import/dump use these and nothing else to write and read rows.
 * What a description is, and the statements over one, are in table.ts; the descriptions are
 * grouped by subject in tables-*.ts. This file hands them all on, so a store module imports
 * its tables from one place.
 */
export { allRecords, insertRecord, insertRecords, json, type Row, recordExists, recordsExisting, type Table, type TableKey, updateRecord } from './table.js';
export * from './tables-content.js';
export * from './tables-grades.js';
export * from './tables-people.js';
export * from './tables-readiness.js';
