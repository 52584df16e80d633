/** What the command line's bundle exports (electron/cli/bundle-entry.ts). */
export interface CliBundle {
  runCli(argv: string[]): Promise<number>;
  exitWhenDone(code: number): void;
}
export function cliBundle(options?: { say?: (line: string) => void }): Promise<CliBundle | null>;
