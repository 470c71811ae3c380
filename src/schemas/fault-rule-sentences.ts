/**
 * A fault rule's problems that name other fields, written once for both of their readers:
 * the API names the fields (schemas/fixture.ts FaultRuleInput), `fixture faults create` the
 * flags that set them (its CommandDef.sentences, restated by the runner). Apart from the
 * schemas, so that the command loads no zod.
 */
export type FaultRuleField = 'delayMs' | 'status' | 'code' | 'message' | 'retryAfter' | 'dropConnection';

export const faultRuleSentences = (name: (field: FaultRuleField) => string) => ({
  needsEffect: `a rule needs an effect: ${name('delayMs')}, ${name('status')} (or ${name('code')}), or ${name('dropConnection')}`,
  dropAlone: `cannot be combined with ${name('status')}, ${name('code')}, ${name('message')} or ${name('retryAfter')} (a dropped connection has no answer)`,
  statusForMessage: `is required with ${name('message')} (or give ${name('code')})`,
  statusForRetryAfter: `is required with ${name('retryAfter')} (or give ${name('code')})`,
});

/** The sentences in the API's words: each field by its own name. */
export const FAULT_RULE_SENTENCES = faultRuleSentences((field) => field);
