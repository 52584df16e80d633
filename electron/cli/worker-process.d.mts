// Types of worker-process.mjs (plain JavaScript, run before the CLI is loaded).
export declare const WORKER_MALLOC: string;
export declare function glibcVersion(): string | null;
export declare function needsWorkerMalloc(
  argv: readonly string[],
  env?: NodeJS.ProcessEnv,
  glibc?: string | null | (() => string | null),
): boolean;
export declare function runWithWorkerMalloc(argv: readonly string[]): Promise<number>;
export declare function endWithParent(): void;
