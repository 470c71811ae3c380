import { createHash } from 'node:crypto';
import type { ApiTokenValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { insertRecord, type Row, TOKENS } from './tables.js';

/** A token as the API shows it: never its hash. */
const tokenView = (row: Row): ApiTokenValue => {
  const { tokenSha256: _hash, ...token } = TOKENS.fromRow(row);
  return token;
};

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function findTokenByHash(store: Store, hash: string): ApiTokenValue | null {
  const row = store.stmt('SELECT * FROM tokens WHERE token_sha256 = ?').get(hash) as Row | undefined;
  return row ? tokenView(row) : null;
}

export function getToken(store: Store, id: string): ApiTokenValue | null {
  const row = store.stmt('SELECT * FROM tokens WHERE id = ?').get(id) as Row | undefined;
  return row ? tokenView(row) : null;
}

export function listTokens(store: Store, userId?: string): ApiTokenValue[] {
  const rows = userId
    ? (store.stmt('SELECT * FROM tokens WHERE user_id = ? ORDER BY id').all(userId) as Row[])
    : (store.stmt('SELECT * FROM tokens ORDER BY id').all() as Row[]);
  return rows.map(tokenView);
}

export function insertToken(store: Store, t: ApiTokenValue, hash: string): ApiTokenValue {
  insertRecord(store, TOKENS, { ...t, tokenSha256: hash });
  return t;
}

export function revokeToken(store: Store, id: string, at: string): void {
  store.stmt('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(at, id);
}

/** The stored token with this id or this secret's hash, hash included (import's replace rules). */
export function storedTokensLike(store: Store, id: string, hash: string): { id: string; tokenSha256: string; revokedAt: string | null }[] {
  return (store.stmt('SELECT * FROM tokens WHERE id = ? OR token_sha256 = ? ORDER BY id').all(id, hash) as Row[]).map((r) => {
    const t = TOKENS.fromRow(r);
    return { id: t.id, tokenSha256: t.tokenSha256, revokedAt: t.revokedAt };
  });
}

/** Revoked tokens (id, hash, when), so a reset that wipes the store can keep them revoked. */
export function revokedTokens(store: Store): { id: string; tokenSha256: string; revokedAt: string }[] {
  return (store.stmt('SELECT * FROM tokens WHERE revoked_at IS NOT NULL ORDER BY id').all() as Row[]).map((r) => {
    const t = TOKENS.fromRow(r);
    return { id: t.id, tokenSha256: t.tokenSha256, revokedAt: t.revokedAt! };
  });
}

/** Revoke again whatever token now has one of these ids or secrets: a revocation is never undone. */
export function keepRevoked(store: Store, revoked: { id: string; tokenSha256: string; revokedAt: string }[]): void {
  for (const r of revoked)
    store.stmt('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? OR token_sha256 = ?').run(r.revokedAt, r.id, r.tokenSha256);
}
