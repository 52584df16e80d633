// The sandbox in its own process (benchmarks measure the engine's CPU without the sandbox's).
// Usage: node --import tsx emulator-child.ts '<EmulatorOptions as JSON>'; prints one JSON line {url, apiKey, clientId,
// clientSecret} (the client credentials its callbacks are sealed with; on stdout, never on a command line).
// With SANDBOX_STALLS_OVER_MS set, it watches its event loop and prints {stalls} as it stops.
import { startEmulator, type EmulatorOptions } from '../../../electron/emulator';
import { watchLoopStalls } from '../../bench/loop-stalls';

const over = Number(process.env.SANDBOX_STALLS_OVER_MS ?? NaN);
const stalls = Number.isFinite(over) ? watchLoopStalls(over) : null;
const options = JSON.parse(process.argv[2] ?? '{}') as EmulatorOptions;
const emulator = await startEmulator({ port: 0, ...options });
process.stdout.write(
  `${JSON.stringify({ url: emulator.url, apiKey: emulator.apiKey, clientId: emulator.clientId, clientSecret: emulator.clientSecret })}\n`,
);
const stop = async () => {
  await emulator.close();
  if (stalls) process.stdout.write(`${JSON.stringify({ stalls: stalls() })}\n`);
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
