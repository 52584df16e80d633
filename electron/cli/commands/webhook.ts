import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SANDBOX_CONNECTION_ID } from '../../common/bridge/connections';
import { EMULATOR_DEFAULTS } from '../../emulator';
import { readSandboxAccessKey } from '../../emulator/state/access-key';
import { openWebhook, WebhookError, type WebhookCredentials } from '../../services/webhooks/webhook-crypto';
import { ConnectionManager } from '../../services/connections/connection-manager';
import { EnvVault } from '../../services/connections/env-vault';
import { defaultDataDir } from '../../services/host/data-dir';
import { createConfStoreFactory } from '../../services/store/conf-store';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';
import { namedBy } from '../cli-host';
import { folderExists } from '../../services/host/data-folder-state';

async function readInput(source: string, io: CliIo): Promise<string> {
  if (source !== '-') return readFile(resolve(io.cwd, source), 'utf8');
  if (io.stdin) return io.stdin();
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The built-in sandbox seals with its client id and its data folder's generated secret; a named
 * connection with its own. A secret never crosses the bridge, so they are read here, from the folder's
 * connection records and the environment's credentials (read only: nothing is written or sent).
 */
async function credentialsFor(args: ParsedArgs, io: CliIo): Promise<WebhookCredentials> {
  const name = flag(args, '--connection');
  const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
  const named = namedBy(args, io);
  // A file in the folder's place is named (exit 4); a folder not made yet is not made here.
  const exists = folderExists(dataDir, named);
  if (!name || name.toLowerCase() === 'sandbox') {
    // Only the key the folder's sandbox sealed with can open its callbacks: one made up here opens none.
    const key = readSandboxAccessKey(join(dataDir, 'sandbox'));
    if (!key)
      throw new Error(
        `The data folder ${dataDir} (${named}) has no sandbox key: its built-in sandbox never ran there, so no sandbox callback can be verified with it. Nothing was written. Give the --data-dir of the studio whose sandbox sent it, or --connection NAME.`,
      );
    return { clientId: EMULATOR_DEFAULTS.clientId, clientSecret: key.clientSecret };
  }
  if (!exists) throw new UsageError(`No connection named "${name}": there is no data folder at ${dataDir} (${named})`);
  const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const connections = new ConnectionManager({
    createStore: createConfStoreFactory(dataDir, { log: quiet, notify: () => undefined }),
    vault: new EnvVault(io.env),
    sandbox: () => Promise.reject(new Error('The sandbox is not needed to open a callback')),
  });
  const id = connections.findByName(name);
  if (!id || id === SANDBOX_CONNECTION_ID) throw new UsageError(`No connection named "${name}"`);
  const credentials = await connections.clientCredentials(id);
  if (!credentials)
    throw new UsageError(
      `Connection "${name}" has no client id and secret here (set STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET with STUDIO_BASE_URL at its origin); an API key alone cannot open callbacks`,
    );
  return credentials;
}

/** `studio webhook decode FILE|-`: verifies a callback body the service posted and prints its event. */
export const webhookDecodeCommand: CliCommand = {
  name: 'webhook decode',
  summary: 'verify a webhook callback body (signature, decryption) and print its event',
  arguments: [{ name: 'FILE|-', help: 'a saved callback body, or - for standard input', required: true }],
  options: [JSON_OPTION],
  async run(args, io) {
    const source = args.positional[0];
    if (!source) throw new UsageError('Name the file holding the callback body, or - for standard input');
    const text = await readInput(source, io);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      io.err(
        `${source === '-' ? 'Standard input' : source} is not JSON: a callback body is {"signature","dataEncrypt","timestamp","nonce"}`,
      );
      return EXIT.failed;
    }
    const credentials = await credentialsFor(args, io);
    try {
      const event = openWebhook(body, credentials);
      io.out(
        args.flags['--json']
          ? JSON.stringify(event, null, 2)
          : `Verified. ${event.type} ${event._id}: status ${event.status}${event.url ? `, ${event.url}` : ''}`,
      );
      return EXIT.ok;
    } catch (error) {
      if (error instanceof WebhookError) {
        io.err(error.message);
        return EXIT.failed;
      }
      throw error;
    }
  },
};
