import type { Problem } from './problem';

// Where a problem was found and how a check reports one: shared by validateProject and the checks it
// calls from other files, so each check files its problems the same way.

/** The scene (and element) a check is looking at, and the words that name it in a message. */
export interface Where {
  sceneIndex: number;
  sceneId: string;
  elementId?: string;
  prefix: string;
}

/** Files one problem, against the scene or element when `where` is given. */
export type Add = (level: Problem['level'], code: string, text: string, where?: Where) => void;
