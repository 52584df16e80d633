// The web host as its own process for e2e tests (host-process.ts): `npm run web`'s own start-up and
// quit handling, with the e2e sandbox's short jobs (and what a test adds to them in STUDIO_E2E_SANDBOX,
// as JSON: a starting balance, ready-made results). Arguments as for `npm run web`.
import { main } from '../../electron/web/cli';
import { E2E_SANDBOX } from './studio-host';

const extra = JSON.parse(process.env.STUDIO_E2E_SANDBOX ?? '{}') as typeof E2E_SANDBOX;

main({ sandbox: { ...E2E_SANDBOX, ...extra } }).catch((error: unknown) => {
  console.error(`The web host could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
