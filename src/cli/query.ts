/**
 * `--query EXPR`: JMESPath over a command's JSON output, as the AWS CLI does. The expression
 * is checked before the command runs, so a typo never follows a change that was made.
 */
import jmespath from 'jmespath';
import { UsageError } from './command.js';

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

/** The expression applied to the data; a function used on the wrong type is a usage error too. */
export function runQuery(data: unknown, expression: string): unknown {
  try {
    return jmespath.search(data, expression);
  } catch (err) {
    throw new UsageError(`--query failed: ${(err as Error).message} (in ${JSON.stringify(expression)})`);
  }
}
