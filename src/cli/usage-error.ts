/** A mistake in how a command was called (exit 2): flags, arguments, the environment, a profile. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
