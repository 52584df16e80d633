/** One thing wrong with a project, found before anything is sent, shown beside its scene and element. */
export interface Problem {
  /**
   * error: nothing is sent until it is fixed; warning: sendable, but likely not what the user wants;
   * info: what will happen, nothing to act on (a local file uploaded at Create). Kept apart, so a real
   * warning is not drowned among a dozen notes.
   */
  level: 'error' | 'warning' | 'info';
  code: string;
  /** Human sentence naming the scene and element: "Scene 2 (outro), element logo: …". */
  message: string;
  sceneIndex?: number;
  sceneId?: string;
  elementId?: string;
}
