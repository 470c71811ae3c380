/**
 * `--query EXPR`: JMESPath over a command's JSON output, as the AWS CLI does. The expression
 * is parsed before the command runs, so a typo never follows a change that was made. A
 * function used on the wrong type shows only on the answer (QueryFailed, in query-failed.ts
 * so that the runner can tell it without loading JMESPath).
 */
import jmespath from 'jmespath';
import { UsageError } from './command.js';
import { QueryFailed } from './query-failed.js';

// jmespath exports compile (the parser) too; its type package only declares search.
declare module 'jmespath' {
  export function compile(expression: string): unknown;
}

/** A usage error naming --query when the expression does not parse. */
export function checkQuery(expression: string): void {
  try {
    jmespath.compile(expression);
  } catch (err) {
    throw new UsageError(`--query is not a JMESPath expression: ${(err as Error).message} (in ${JSON.stringify(expression)})`);
  }
}

/**
 * The expression applied to the data; a function used on the wrong type is a usage error
 * too. Only the answer can tell (`abs(title)` parses), so it comes after the command ran.
 */
export function runQuery(data: unknown, expression: string): unknown {
  try {
    return jmespath.search(data, expression);
  } catch (err) {
    throw new QueryFailed(`--query failed: ${(err as Error).message} (in ${JSON.stringify(expression)})`);
  }
}
