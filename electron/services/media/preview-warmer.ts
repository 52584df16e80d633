import type { Project } from '../../common/composition/document';
import type { PreviewRenderer } from './preview-renderer';

export interface WarmStatus {
  /** Media the project uses. */
  inputs: number;
  /** Of those, being fetched, inspected or proxied right now. */
  working: number;
}

/**
 * Gets a project's media ready for its preview while the user edits: each link fetched into the cache,
 * inspected, and given its proxy, at low priority. Called again with the project as it changes: media
 * that left it stop being prepared, new media start. Failures are left for the preview itself to
 * report against its scene and element.
 */
export class PreviewWarmer {
  private readonly working = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private inputs = 0;

  constructor(private readonly renderer: PreviewRenderer) {}

  warm(project: Project): WarmStatus {
    const inputs = this.renderer.inputsOf(project);
    const wanted = new Set(inputs.map((input) => input.url));
    for (const [url, work] of this.working) {
      if (wanted.has(url)) continue;
      work.controller.abort();
      this.working.delete(url);
    }
    for (const input of inputs) {
      if (this.working.has(input.url)) continue;
      const controller = new AbortController();
      const done = this.renderer
        .resolveInput(input, 'preview', { signal: controller.signal, lowPriority: true })
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          if (this.working.get(input.url)?.controller === controller) this.working.delete(input.url);
        });
      this.working.set(input.url, { controller, done });
    }
    this.inputs = inputs.length;
    return this.status();
  }

  status(): WarmStatus {
    return { inputs: this.inputs, working: this.working.size };
  }

  /** Settles when nothing is being prepared (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.working.size > 0) await Promise.all([...this.working.values()].map((work) => work.done));
  }

  dispose(): void {
    for (const work of this.working.values()) work.controller.abort();
    this.working.clear();
  }
}
