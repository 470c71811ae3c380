/** serve's defaults, in a module of their own so the CLI can show them without loading the server. */

/** The rate limit a file store gets when --rate-limit is not given (an in-memory fixture gets none). */
export const DEFAULT_RATE_LIMIT = '600/min';

/** Requests the journal keeps when --journal-size is not given. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** The instant --deterministic uses when --now is not given. */
export const DETERMINISTIC_EPOCH = '2026-01-01T00:00:00.000Z';
