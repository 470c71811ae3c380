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
