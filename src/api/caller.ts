import type { UserValue } from '../schemas/people.js';
import type { Caller } from './context.js';

/**
 * A caller, with its cache key made once: who a credential makes the caller (the
 * credential, its user and its scopes; a JWT's scopes are its own, not a stored row's).
 * serve keeps access decisions and GET answers under that key (define.ts), so a caller
 * kept by the read cache is not described again for every request.
 */
export function makeCaller(user: UserValue, scopes: Iterable<string>, credential: Caller['credential']): Caller {
  const scopeSet = new Set(scopes);
  return { user, scopes: scopeSet, credential, key: `${credential.kind}:${credential.id}\0${user.id}\0${[...scopeSet].join(' ')}` };
}
