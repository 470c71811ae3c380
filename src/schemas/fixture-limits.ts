/**
 * The fixture journal's limits, apart from its schemas (schemas/fixture.ts re-exports
 * them): the request path of every app reads this one, and building the fixture schemas
 * for it cost every command-line start and every serve start a few milliseconds.
 */

/** The longest body text the journal keeps (request and response each). */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
