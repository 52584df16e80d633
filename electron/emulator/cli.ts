import { parseArgs, usage } from './options';
import { startEmulator } from './index';

/** `npm run emulator -- [flags]`: runs the sandbox until Ctrl+C. */
async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  let emulator;
  try {
    emulator = await startEmulator({ ...parsed, log: (line) => process.stderr.write(`[sandbox] ${line}\n`) });
  } catch (error) {
    // An option that cannot work (a range, a secret that cannot sign webhooks) is a usage error: exit 2.
    if (!(error instanceof RangeError)) throw error;
    process.stderr.write(`The sandbox did not start: ${error.message}\n`);
    process.exit(2);
  }
  process.stdout.write(
    [
      `Avatar Studio sandbox listening on ${emulator.url}`,
      `  x-api-key:     ${emulator.apiKey}`,
      `  clientId:      ${emulator.clientId}`,
      `  clientSecret:  ${emulator.clientSecret}`,
      `  data dir:      ${emulator.dataDir}`,
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await emulator.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
