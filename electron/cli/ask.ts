import { createInterface } from 'node:readline';
import type { CliIo } from './command';

/** Asks on the terminal (or reads the answer from stdin); only "y"/"yes" agrees. */
export async function ask(io: CliIo, question: string): Promise<boolean> {
  io.err(question);
  const answer = io.stdin
    ? await io.stdin()
    : await new Promise<string>((done) => {
        const lines = createInterface({ input: process.stdin });
        lines.once('line', (line) => {
          lines.close();
          done(line);
        });
        lines.once('close', () => done(''));
      });
  return /^\s*y(es)?\s*$/i.test(answer.split('\n')[0] ?? '');
}
