/**
 * serve's read cache (the Performance issue, #19): what a request read from the store, kept
 * for the next requests that find the store unchanged. A request takes the store's revision
 * once, when it arrives (Store.revisions: `all` moves with every write of this process, a
 * rolled-back one too, and on SQLite with every commit of any other connection to the
 * file). It is served only what was read at that same revision. What it reads is kept under
 * that revision only when this process wrote nothing while it read; what another
 * connection committed meanwhile moves the revision every later request takes, so a value
 * read across any write is never served. Entries of an older revision are dropped whole.
 *
 * What is kept: a credential's token and user rows, an access decision, the JSON (as UTF-8
 * bytes) of a GET operation's answer (define.ts), and a course's roster for the grades view
 * and the export (gradebook-views.ts: paging through a 10,000-student course read it for
 * every page). The token and user rows are kept under the narrower revision of the
 * credentials (Store.revisions): a write that cannot change a token or a user (a grade, a
 * course) leaves them kept, so a burst of writes does not look the same credential up for
 * every request; revoking a token, or any write the store cannot tell apart from one, moves it, and the very next request reads the token again. An
 * access decision is kept the same way under the access revision (what a decision reads:
 * courses and their content, submissions, enrollments, certificates, reporting lines,
 * templates, tokens and users), so a stream of final-grade writes does not decide each
 * request's access again; a write of any of those moves it. Where
 * the store has no cheap revision (PostgreSQL) or outside serve (a CLI call is one
 * request), nothing is kept and every read goes to the store, as before.
 */
import type { RevisionScope, Store } from '../store/db.js';

export interface ReadCacheLimits {
  /** The most values kept at once. */
  entries: number;
  /** The most characters of answer text kept at once. */
  chars: number;
}

export const DEFAULT_READ_CACHE_LIMITS: ReadCacheLimits = { entries: 10_000, chars: 32 * 1024 * 1024 };

/**
 * A value's key: its parts, kept in nested maps. A request's key is mostly strings it holds
 * already (its caller's key, the operation's policy) beside one or two of its own (a URL, an
 * id): looked up part by part, only those are hashed, where one key joined from all of them
 * would be new text to build, flatten and hash on every request.
 */
export type CacheKey = string | readonly string[];

/** A kept value, told apart from a map of the next key part (a kept value may itself be a Map). */
class Kept {
  constructor(readonly value: unknown) {}
}

type Level = Map<string, Level | Kept>;

/** Values of one store revision: what a request may be served instead of reading. */
class Generation {
  #revision: string | null = null;
  #root: Level = new Map();
  #entries = 0;
  #chars = 0;

  constructor(readonly limits: ReadCacheLimits) {}

  get(revision: string, key: CacheKey): { value: unknown } | undefined {
    if (revision !== this.#revision) return undefined;
    let node: Level | Kept | undefined = this.#root;
    for (const part of typeof key === 'string' ? [key] : key) {
      if (!(node instanceof Map)) return undefined;
      node = node.get(part);
    }
    return node instanceof Kept ? node : undefined;
  }

  set(revision: string, key: CacheKey, value: unknown, chars: number): void {
    if (revision !== this.#revision) this.#clear(revision);
    if (chars > this.limits.chars / 4) return;
    // Full: start again rather than track use; a revision change empties it anyway.
    if (this.#entries >= this.limits.entries || this.#chars + chars > this.limits.chars) this.#clear(revision);
    const parts = typeof key === 'string' ? [key] : key;
    let level = this.#root;
    for (const part of parts.slice(0, -1)) {
      const next = level.get(part);
      if (next instanceof Map) level = next;
      else {
        const made: Level = new Map();
        level.set(part, made);
        level = made;
      }
    }
    const last = parts[parts.length - 1]!;
    if (!(level.get(last) instanceof Kept)) this.#entries++;
    level.set(last, new Kept(value));
    this.#chars += chars;
  }

  get size(): { entries: number; chars: number } {
    return { entries: this.#entries, chars: this.#chars };
  }

  #clear(revision: string): void {
    this.#revision = revision;
    this.#root = new Map();
    this.#entries = 0;
    this.#chars = 0;
  }
}

/**
 * What requests may be served instead of reading, one generation per revision scope: the
 * credentials (kept until a token or user may have changed), access decisions (until what
 * access reads may have) and everything else (kept until anything may have). Each generation is bounded by the limits on its own.
 */
export class ReadCache {
  readonly #generations: Record<RevisionScope, Generation>;
  #hits = 0;
  #misses = 0;

  constructor(readonly limits: ReadCacheLimits = DEFAULT_READ_CACHE_LIMITS) {
    this.#generations = { all: new Generation(limits), credentials: new Generation(limits), access: new Generation(limits) };
  }

  /** The value kept under key at this revision of the scope, wrapped (a kept value may be null), or undefined. */
  get(revision: string, key: CacheKey, scope: RevisionScope = 'all'): { value: unknown } | undefined {
    const kept = this.#generations[scope].get(revision, key);
    if (kept) this.#hits++;
    return kept;
  }

  /**
   * A value was not found and is being read from the store. Counted here, not in get: a
   * GET's answer is looked for twice (before validation, then by the handler), and a miss
   * is one read of the store, not two.
   */
  missed(): void {
    this.#misses++;
  }

  /** Keep value under key for requests that find the scope's revision the same. */
  set(revision: string, key: CacheKey, value: unknown, chars = 0, scope: RevisionScope = 'all'): void {
    this.#generations[scope].set(revision, key, value, chars);
  }

  /** How it has done, for tests and the benchmark: values served, values read from the store, and what it holds. */
  stats(): { hits: number; misses: number; entries: number; chars: number } {
    const sizes = Object.values(this.#generations).map((generation) => generation.size);
    const sum = (field: 'entries' | 'chars') => sizes.reduce((total, size) => total + size[field], 0);
    return { hits: this.#hits, misses: this.#misses, entries: sum('entries'), chars: sum('chars') };
  }
}

/** One request's reads: at most one store revision, taken when the request arrived. */
export interface Reads {
  /** What an earlier request at this revision kept under key (wrapped: it may be null), or undefined. */
  kept(key: CacheKey): { value: unknown } | undefined;
  /**
   * What load answers, or what it answered for an earlier request at the same revision.
   * A remembered value is shared by the requests served it: it is frozen, and never changed.
   */
  remember<T>(key: CacheKey, load: () => Promise<T>, options?: RememberOptions<T>): Promise<T>;
}

export interface RememberOptions<T> {
  /** Whether this value may be kept (default: always). */
  keep?: (value: T) => boolean;
  /** How many characters of text it holds, against the cache's limit (default 0). */
  chars?: (value: T) => number;
  /**
   * What the value is read from (default `all`): `credentials` for a token's or a user's row
   * alone, which is then kept across writes that cannot change either, `access` for an
   * access decision (Store.revisions).
   */
  scope?: RevisionScope;
}

/** Every read goes to the store. */
export const directReads: Reads = { kept: () => undefined, remember: (_key, load) => load() };

/** The reads of a request that arrives now: through the cache when there is one and the store has a revision. */
export function readsAt(store: Store, cache: ReadCache | null | undefined): Reads {
  if (!cache) return directReads;
  const revisions = store.revisions();
  if (revisions === null) return directReads;
  const ownChanges = { all: store.ownChanges('all'), credentials: store.ownChanges('credentials'), access: store.ownChanges('access') };
  return {
    kept: (key) => cache.get(revisions.all, key),
    async remember<T>(key: CacheKey, load: () => Promise<T>, options: RememberOptions<T> = {}): Promise<T> {
      const scope = options.scope ?? 'all';
      const kept = cache.get(revisions[scope], key, scope);
      if (kept) return kept.value as T;
      cache.missed();
      const value = await load();
      // Kept only if this process wrote nothing the scope covers meanwhile. Another
      // connection's commit during the load needs no check: every later request's revision
      // shows it, so a value read across it is never served.
      if (store.ownChanges(scope) === ownChanges[scope] && (options.keep?.(value) ?? true)) {
        if (value !== null && typeof value === 'object') Object.freeze(value);
        cache.set(revisions[scope], key, value, options.chars?.(value) ?? 0, scope);
      }
      return value;
    },
  };
}
