// The figures each bench prints are kept in docs/performance.md, one block per bench between markers,
// so the doc shows what the last run measured rather than prose about it.
import { cpus, loadavg } from 'node:os';
import { hasBlock, withBlock } from '../../docs/markers';

export const PERFORMANCE_DOC = 'docs/performance.md';

/** The block a bench's run leaves in the doc: when and where it ran, then its printed lines as they were. */
export function figuresBlock(lines: readonly string[], when: Date, machine = describeMachine()): string {
  return [
    `Last run ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}.`,
    '',
    '```',
    ...lines,
    '```',
  ].join('\n');
}

/** The machine in the words a reader needs to weigh the figures: cores, Node, and how busy it was. */
export function describeMachine(): string {
  const [one] = loadavg();
  return `${cpus().length} cores, Node ${process.versions.node}, load average ${one.toFixed(1)} at the start`;
}

/**
 * The doc with the bench's block replaced. A bench the doc has no markers for gets a new section at the
 * end, so adding a bench needs no edit of the doc first.
 */
export function withFigures(doc: string, bench: string, block: string): string {
  const name = `bench:${bench}`;
  const page = hasBlock(doc, name) ? doc : `${doc.trimEnd()}\n\n## ${bench}\n\n<!-- ${name} -->\n<!-- /${name} -->\n`;
  return withBlock(page, name, block);
}

/** Everything the callback prints with console.log while it runs, still printed as usual. */
export async function capturingLog(work: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    original(...args);
  };
  try {
    await work();
  } finally {
    console.log = original;
  }
  return lines.flatMap((l) => l.split('\n'));
}
