/** One thing wrong with a project, found before anything is sent, shown beside its scene and element. */
export interface Problem {
  level: 'error' | 'warning';
  code: string;
  /** Human sentence naming the scene and element: "Scene 2 (outro), element logo: …". */
  message: string;
  sceneIndex?: number;
  sceneId?: string;
  elementId?: string;
}
