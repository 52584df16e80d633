/**
 * The project the editor last had open, kept in the page's storage (its id only, as the projects
 * service names it), so a reload opens it again instead of a blank project.
 */
const LAST_PROJECT_KEY = 'studio.editor.lastProject';

export function rememberLastProject(id: string): void {
  try {
    globalThis.localStorage?.setItem(LAST_PROJECT_KEY, id);
  } catch {
    // Storage full or refused (a private window): a reload then opens a blank project, as before.
  }
}

export function lastProjectId(): string | null {
  try {
    return globalThis.localStorage?.getItem(LAST_PROJECT_KEY) ?? null;
  } catch {
    return null;
  }
}
