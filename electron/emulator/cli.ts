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
  const emulator = await startEmulator({ ...parsed, log: (line) => process.stderr.write(`[sandbox] ${line}\n`) });
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
