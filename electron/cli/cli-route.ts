import { SANDBOX_CONNECTION_ID } from '../common/bridge/connections';
import { serviceAddressProblem } from '../common/net/address-rules';
import { ServiceClient } from '../services/client/service-client';
import { ServiceError } from '../services/client/errors';
import type { Credentials } from '../services/client/auth';
import type { ConnectionManager } from '../services/connections/connection-manager';
import { credentialsFromEnv } from '../services/connections/env-vault';
import type { EngineConnection, EngineConnections } from '../services/jobs/engine';
import { UsageError, flag, type CliIo, type ParsedArgs } from './command';

/** The id a --base-url run's work is recorded under: no saved connection has it. */
export const BASE_URL_CONNECTION_ID = 'cli-base-url';

/**
 * Refuses, before anything opens, a command line whose --connection / --base-url cannot be followed;
 * answers the environment's credentials that go with --base-url.
 */
export function checkConnectionFlags(args: ParsedArgs, io: CliIo): Credentials | undefined {
  const baseUrl = flag(args, '--base-url');
  if (baseUrl && flag(args, '--connection')) throw new UsageError('Give either --connection or --base-url, not both');
  if (!baseUrl) return undefined;
  const problem = serviceAddressProblem(baseUrl);
  if (problem) throw new UsageError(`--base-url ${problem}`);
  const credentials = credentialsFromEnv(io.env);
  if (!credentials)
    throw new UsageError(
      '--base-url needs credentials in the environment: STUDIO_API_KEY, or STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET',
    );
  return credentials;
}

/**
 * Where a command line's run sends new work (composeHost's `route`): --base-url (with the environment's
 * credentials) or --connection NAME send every request there; without either, new work goes to the
 * sandbox and each job is followed through the connection it was created on.
 */
export function chooseConnection(args: ParsedArgs, io: CliIo, connections: ConnectionManager): EngineConnections {
  const credentials = checkConnectionFlags(args, io);
  const baseUrl = flag(args, '--base-url');
  const name = flag(args, '--connection');
  if (baseUrl && credentials) {
    let client: ServiceClient;
    try {
      // Through the connections' own options, so a worker's requests take their shared turns here too.
      client = connections.clientFor(baseUrl, credentials);
    } catch (error) {
      throw new UsageError(error instanceof ServiceError ? `--base-url: ${error.message}` : String(error));
    }
    const connection: EngineConnection = { id: BASE_URL_CONNECTION_ID, name: baseUrl, webhookUrl: null };
    return { active: async () => connection, client: async () => client };
  }
  if (name) {
    const id = connections.findByName(name);
    if (!id) throw new UsageError(`No connection named "${name}". Known: Sandbox${listNames(connections)}`);
    return { active: async () => connections.engineConnection(id), client: () => connections.client(id) };
  }
  return {
    active: async () => connections.engineConnection(SANDBOX_CONNECTION_ID),
    client: (id) => connections.client(id),
  };
}

function listNames(connections: ConnectionManager): string {
  const names = connections.namesForCli();
  return names.length ? `, ${names.join(', ')}` : '';
}
