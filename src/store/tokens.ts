import { createHash } from 'node:crypto';
import type { Store } from './db.js';
import { type Row, type TokenValue, tokenFromRow } from './rows.js';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function findTokenByHash(store: Store, hash: string): TokenValue | null {
  const row = store.stmt('SELECT * FROM tokens WHERE token_sha256 = ?').get(hash) as Row | undefined;
  return row ? tokenFromRow(row) : null;
}

export function getToken(store: Store, id: string): TokenValue | null {
  const row = store.stmt('SELECT * FROM tokens WHERE id = ?').get(id) as Row | undefined;
  return row ? tokenFromRow(row) : null;
}

export function listTokens(store: Store, userId?: string): TokenValue[] {
  const rows = userId
    ? (store.stmt('SELECT * FROM tokens WHERE user_id = ? ORDER BY id').all(userId) as Row[])
    : (store.stmt('SELECT * FROM tokens ORDER BY id').all() as Row[]);
  return rows.map(tokenFromRow);
}

export function insertToken(store: Store, t: TokenValue, hash: string): TokenValue {
  store
    .stmt('INSERT INTO tokens (id, user_id, token_sha256, name, scopes, created_at, expires_at, revoked_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(t.id, t.userId, hash, t.name, JSON.stringify(t.scopes), t.createdAt, t.expiresAt, t.revokedAt, t.lastUsedAt);
  return t;
}

export function revokeToken(store: Store, id: string, at: string): void {
  store.stmt('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(at, id);
}
