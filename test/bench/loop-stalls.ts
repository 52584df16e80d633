// How long a process's event loop was held: a timer that should fire every TICK_MS notices when it fires
// late. The sandbox counts a request against its rate when its handler runs, so requests that waited
// out a held loop are counted together, and a second later the next ones are refused with 1005 although
// the client kept to the rate. The scale bench prints these figures beside its 1005 answers.
const TICK_MS = 10;

export interface LoopStalls {
  /** Times the loop was held longer than the threshold. */
  over: number;
  /** The longest hold seen, in ms. */
  longest: number;
}

/** Watches this process's event loop for holds over `thresholdMs`; the timer does not keep it alive. */
export function watchLoopStalls(thresholdMs: number): () => LoopStalls {
  const seen: LoopStalls = { over: 0, longest: 0 };
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const held = now - last - TICK_MS;
    last = now;
    if (held > thresholdMs) seen.over += 1;
    seen.longest = Math.max(seen.longest, held);
  }, TICK_MS);
  timer.unref();
  return () => ({ over: seen.over, longest: Math.round(seen.longest) });
}

/** Holds longer than the lateness the workers' shared turns allow a request (60 ms) can cost 1005s. */
export const STALL_MS = 60;

/** The figures a sandbox child printed as it stopped (emulator-child.ts), or null if it printed none. */
export function sandboxStalls(said: string): LoopStalls | null {
  for (const line of said.split('\n').reverse()) {
    if (!line.startsWith('{"stalls"')) continue;
    return (JSON.parse(line) as { stalls: LoopStalls }).stalls;
  }
  return null;
}

export function stallsLine(stalls: LoopStalls | null): string {
  if (!stalls) return "the sandbox's event loop was not watched";
  return `the sandbox's event loop held over ${STALL_MS} ms ${stalls.over} times, the longest ${stalls.longest} ms (requests waiting meanwhile are counted together; 1005s follow a second later)`;
}
