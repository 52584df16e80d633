// The sandbox in its own process (benchmarks measure the engine's CPU without the sandbox's).
// Usage: node --import tsx emulator-child.ts '<EmulatorOptions as JSON>'; prints one JSON line {url, apiKey, clientId,
// clientSecret} (the client credentials its callbacks are sealed with; on stdout, never on a command line).
import { startEmulator, type EmulatorOptions } from '../../../electron/emulator';

const options = JSON.parse(process.argv[2] ?? '{}') as EmulatorOptions;
const emulator = await startEmulator({ port: 0, ...options });
process.stdout.write(
  `${JSON.stringify({ url: emulator.url, apiKey: emulator.apiKey, clientId: emulator.clientId, clientSecret: emulator.clientSecret })}\n`,
);
const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
