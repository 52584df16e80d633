import { z } from 'zod';
import { ConnectionPlacement, SANDBOX_CONNECTION_ID } from '../../common/bridge/connections';
import type { RecordStoreSpec } from '../host/types';

export const StoredConnection = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  webhookUrl: z.string().nullable(),
  /** Callbacks instead of polling (where the service posts, where the receiver listens); absent: polled. */
  callbacks: z.object({ url: z.string(), listen: z.string() }).nullable().optional(),
  /** Absent until Check placement measured it: the service's examples' convention is assumed. */
  placement: ConnectionPlacement.optional(),
});
export type StoredConnection = z.infer<typeof StoredConnection>;

export const ConnectionsRecord = z.object({
  connections: z.array(StoredConnection),
  activeId: z.string(),
  sandboxWebhookUrl: z.string().nullable(),
  /** The built-in sandbox reads the default convention; a Check placement against it is kept here. */
  sandboxPlacement: ConnectionPlacement.optional(),
});
export type ConnectionsRecord = z.infer<typeof ConnectionsRecord>;

/** The folder's connections record (`connections.json`); secrets are in the vault, never here. */
export const connectionsSpec: RecordStoreSpec<ConnectionsRecord> = {
  name: 'connections',
  schema: ConnectionsRecord,
  defaults: { connections: [], activeId: SANDBOX_CONNECTION_ID, sandboxWebhookUrl: null },
  version: 1,
};
