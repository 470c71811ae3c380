/** The service clock. Everything that asks "what time is it" takes a Clock, never Date. */
export interface Clock {
  /** RFC 3339 UTC with milliseconds. */
  now(): string;
}

export const systemClock = (): Clock => ({ now: () => new Date().toISOString() });

export const fixedClock = (at: string): Clock => {
  const iso = new Date(Date.parse(at)).toISOString();
  return { now: () => iso };
};
