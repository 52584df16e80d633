// The web host as a process of its own for the queue tests: `npm run web`'s own start-up and signal
// handling (electron/web/cli.ts), on the page already built (the tests do not build it). Arguments as
// for `npm run web`.
import { main } from '../../../electron/web/cli';

main({ skipBuild: true }).catch((error: unknown) => {
  console.error(`The web host could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
