import { UsageError } from './command.js';

/** A --query that parsed but failed on the command's answer (a function on the wrong type): a usage error. */
export class QueryFailed extends UsageError {}
