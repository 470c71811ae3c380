// TEMPORARY: replaced by the typed schema from the pgddl branch.
export type StoreSchema = Record<string, Record<string, unknown>>;
