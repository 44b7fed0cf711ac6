/** An error whose message the user can act on: shown as is, without a stack trace. */
export class UserFacingError extends Error {
  constructor(
    message: string,
    /** Buttons offered with the message, e.g. "Show Log", "Open Settings". */
    readonly actions: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}
