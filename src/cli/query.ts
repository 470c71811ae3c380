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

interface Node {
  type: string;
  children?: (Node | null | undefined)[];
}

/**
 * Whether a parsed expression stops where one is expected. The parser takes a trailing dot
 * (`a.`, `[].`, `*.`) and leaves the node after it out, which search then fails on (a
 * TypeError, after a write has been made) or reads as null. A slice's bounds are the only
 * children that may be missing.
 */
function endsEarly(node: Node | null | undefined): boolean {
  if (!node?.children) return false;
  return node.children.some((child) => (child == null ? node.type !== 'Slice' : endsEarly(child)));
}

/** A usage error naming --query when the expression does not parse. */
export function checkQuery(expression: string): void {
  let ast: Node;
  try {
    ast = jmespath.compile(expression) as Node;
  } catch (err) {
    throw new UsageError(`--query is not a JMESPath expression: ${(err as Error).message} (in ${JSON.stringify(expression)})`);
  }
  if (endsEarly(ast)) throw new UsageError(`--query is not a JMESPath expression: nothing follows "." (in ${JSON.stringify(expression)})`);
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
