// A host process that dies the instant its create is written to the ledger and fsynced, before the
// create is sent: run by create-faults.test.ts. Arguments: sandbox URL, API key, ledger folder.
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';

const [url, apiKey, ledger] = process.argv.slice(2);
const storage = openLedger(ledger);
const put = storage.put.bind(storage);
storage.put = async (record) => {
  await put(record);
  await storage.flush();
  if (record.phase === 'submitting') process.kill(process.pid, 'SIGKILL');
};
const client = new ServiceClient({ baseUrl: url, credentials: { kind: 'api-key', apiKey } });
const engine = new JobEngine({
  storage,
  connections: {
    active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
    client: async () => client,
  },
  clock: { now: () => Date.now() },
});
engine.start();
await engine.submit({
  confirmation: { by: 'script' },
  kind: 'tts',
  body: { input_text: 'Never sent: the process dies first.', voice_id: 'sandbox_ava', rate: '50%' },
});
