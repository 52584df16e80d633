import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the longest test files first, so that no file of several minutes starts when the others are
 * nearly done and runs alone at the end (on two cores, the run's wall time is decided by that tail).
 *
 * vitest's own order runs the projects of a group one after another (all component files, then all
 * end-to-end ones), and orders files by their last duration only on a machine that has run them
 * before; a fresh CI machine has no such results, so vitest orders by size in bytes, which put the
 * 10-minute campaign journey behind thirty shorter files. Here, within each group (sequence.groupOrder,
 * which must keep running in turn), files are ordered by how long they take: vitest's own record of the
 * last run where there is one, else test/file-durations.json (written from a run's report by
 * test/tools/file-durations.mjs), longest first across projects. Files known to neither keep vitest's
 * order after them, project by project. Only when files start changes; what they test and their verdict do not.
 */
/** Files at least this long (seconds) go first; test/tools/file-durations.mjs keeps those. */
const LONG_S = 20;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const table = join(this.ctx.config.root, 'test', 'file-durations.json');
    const known: Record<string, number> = existsSync(table) ? JSON.parse(readFileSync(table, 'utf8')) : {};
    const seconds = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      const took = last ? last.duration / 1000 : (known[path] ?? 0);
      // Short files stay in vitest's order, project by project: a worker goes on to the next file of its
      // own project with the modules it has loaded, and starts afresh when the next file is another's.
      return took >= LONG_S ? took : 0;
    };
    const position = new Map(ordered.map((spec, i) => [spec, i]));
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder ?? 0;
    // Array.prototype.sort is stable: files of equal (or no) known length keep vitest's order.
    return [...ordered].sort(
      (a, b) => group(a) - group(b) || seconds(b) - seconds(a) || position.get(a)! - position.get(b)!,
    );
  }
}
