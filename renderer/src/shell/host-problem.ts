/** What the shell says when the host under the page is gone, refuses it, or restarted. */
export interface HostProblem {
  /** Beside the status dot. */
  short: string;
  title: string;
  message: string;
  /** The page's state is stale, and reloading it is the way on. */
  reload: boolean;
}
