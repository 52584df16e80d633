/** An error whose message is written for the user and whose code the renderer may branch on. */
export class StudioError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'StudioError';
  }
}
