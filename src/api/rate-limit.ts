import type { RateLimiter } from './context.js';

export interface RateLimitSpec {
  /** Tokens added per second. */
  perSecond: number;
  burst: number;
}

/** `600/min`, `10/s`, `off` -> spec (null for off). Burst defaults to min(N, 100). */
export function parseRateLimit(text: string, burst?: number, flag = '--rate-limit'): RateLimitSpec | null {
  if (text === 'off') return null;
  const m = /^(\d+(?:\.\d+)?)\/(s|sec|second|m|min|minute)$/.exec(text.trim());
  if (!m) throw new Error(`${flag} must look like 600/min, 10/s or off (got ${JSON.stringify(text)})`);
  const n = Number(m[1]);
  if (!(n > 0)) throw new Error(`${flag} must be above 0`);
  const perSecond = m[2]!.startsWith('s') ? n : n / 60;
  const b = burst ?? Math.min(n, 100);
  if (!(b >= 1)) throw new Error('--rate-burst must be at least 1');
  return { perSecond, burst: b };
}

/**
 * One token bucket per key (a user id, a client address). `now` is injected (milliseconds)
 * so tests can drive it; buckets untouched for a while are dropped so memory stays bounded.
 */
export function tokenBucketLimiter(spec: RateLimitSpec, nowMs: () => number = () => performance.now()): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = nowMs();
  const refill = (key: string) => {
    const now = nowMs();
    if (now - lastSweep > 60_000) {
      const idle = (spec.burst / spec.perSecond) * 1000;
      for (const [k, b] of buckets) if (now - b.at > idle) buckets.delete(k);
      lastSweep = now;
    }
    const b = buckets.get(key) ?? { tokens: spec.burst, at: now };
    b.tokens = Math.min(spec.burst, b.tokens + ((now - b.at) / 1000) * spec.perSecond);
    b.at = now;
    buckets.set(key, b);
    return b;
  };
  const wait = (tokens: number) => (tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / spec.perSecond)));
  return {
    take(key) {
      const b = refill(key);
      const retryAfter = wait(b.tokens);
      if (retryAfter === 0) b.tokens -= 1;
      return {
        retryAfter,
        limit: Math.floor(spec.burst),
        remaining: Math.floor(b.tokens),
        reset: Math.ceil((spec.burst - b.tokens) / spec.perSecond),
      };
    },
    peek(key) {
      return wait(refill(key).tokens);
    },
  };
}
