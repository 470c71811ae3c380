import { nodeCrypto } from '../runtime/crypto.js';
import type { ApiTokenValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { insertRecord, type Row, TOKENS } from './tables.js';

/** A token as the API shows it: never its hash. */
const tokenView = (row: Row): ApiTokenValue => {
  const { tokenSha256: _hash, ...token } = TOKENS.fromRow(row);
  return token;
};

export const sha256Hex = (text: string): string => nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');

export async function findTokenByHash(store: Store, hash: string): Promise<ApiTokenValue | null> {
  const row = (await store.get('SELECT * FROM tokens WHERE token_sha256 = ?', hash)) as Row | undefined;
  return row ? tokenView(row) : null;
}

export async function getToken(store: Store, id: string): Promise<ApiTokenValue | null> {
  const row = (await store.get('SELECT * FROM tokens WHERE id = ?', id)) as Row | undefined;
  return row ? tokenView(row) : null;
}

export async function listTokens(store: Store, userId?: string): Promise<ApiTokenValue[]> {
  const rows = userId
    ? ((await store.all('SELECT * FROM tokens WHERE user_id = ? ORDER BY id', userId)) as Row[])
    : ((await store.all('SELECT * FROM tokens ORDER BY id')) as Row[]);
  return rows.map(tokenView);
}

export async function insertToken(store: Store, t: ApiTokenValue, hash: string): Promise<ApiTokenValue> {
  await insertRecord(store, TOKENS, { ...t, tokenSha256: hash });
  return t;
}

export async function revokeToken(store: Store, id: string, at: string): Promise<void> {
  await store.run('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?', at, id);
}

/** The stored token with this id or this secret's hash, hash included (import's replace rules). */
export async function storedTokensLike(store: Store, id: string, hash: string): Promise<{ id: string; tokenSha256: string; revokedAt: string | null }[]> {
  return ((await store.all('SELECT * FROM tokens WHERE id = ? OR token_sha256 = ? ORDER BY id', id, hash)) as Row[]).map((r) => {
    const t = TOKENS.fromRow(r);
    return { id: t.id, tokenSha256: t.tokenSha256, revokedAt: t.revokedAt };
  });
}

/** Revoked tokens (id, hash, when), so a reset that wipes the store can keep them revoked. */
export async function revokedTokens(store: Store): Promise<{ id: string; tokenSha256: string; revokedAt: string }[]> {
  return ((await store.all('SELECT * FROM tokens WHERE revoked_at IS NOT NULL ORDER BY id')) as Row[]).map((r) => {
    const t = TOKENS.fromRow(r);
    return { id: t.id, tokenSha256: t.tokenSha256, revokedAt: t.revokedAt! };
  });
}

/** Revoke again whatever token now has one of these ids or secrets: a revocation is never undone. */
export async function keepRevoked(store: Store, revoked: { id: string; tokenSha256: string; revokedAt: string }[]): Promise<void> {
  for (const r of revoked)
    await store.run('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? OR token_sha256 = ?', r.revokedAt, r.id, r.tokenSha256);
}
