// The desktop app's and web host's callbacks by connection (issue 69): the receiver listens for the
// active connection's setting, only that connection's creates carry its address, and a setting that
// cannot be served (a port in use, an API key alone) is said in words while its jobs stay polled.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../electron/common/api';
import type { ServiceClient } from '../../../electron/services/client/service-client';
import { ConnectionCallbacks, type CallbackConnections } from '../../../electron/services/host/connection-callbacks';
import { createEngineServices } from '../../../electron/services/host/engine-services';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { sealWebhook } from '../../../electron/services/webhooks/webhook-crypto';

const credentials = { clientId: 'desktop-client-id', clientSecret: 'S'.repeat(24) };

interface World {
  active: { id: string; name: string };
  settings: Map<string, { url: string; listen: string }>;
  secrets: Map<string, typeof credentials>;
}

let callbacks: ConnectionCallbacks | null = null;
let squatter: Server | null = null;
afterEach(async () => {
  await callbacks?.close();
  callbacks = null;
  await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(undefined)));
  squatter = null;
});

function build(world: World): { callbacks: ConnectionCallbacks; warned: string[] } {
  const connections: CallbackConnections = {
    active: async () => world.active,
    callbacksOf: (id) => world.settings.get(id) ?? null,
    clientCredentials: async (id) => world.secrets.get(id),
  };
  const warned: string[] = [];
  callbacks = new ConnectionCallbacks({
    connections,
    log: { info: () => undefined, warn: (message, fields) => warned.push(`${message} ${JSON.stringify(fields)}`) },
  });
  return { callbacks, warned };
}

const production = (listen = '127.0.0.1:0'): World => ({
  active: { id: 'prod', name: 'Production' },
  settings: new Map([['prod', { url: 'https://hooks.example.com/studio', listen }]]),
  secrets: new Map([['prod', credentials]]),
});

const tts = (id: string, connectionId: string) => ({ id, kind: 'tts' as const, connectionId });
const body = { input_text: 'Hello', voice_id: 'v1', rate: '50%' };

describe('callbacks by connection in the desktop app and the web host', () => {
  it("listens for the active connection's setting, and only its creates carry a callback address", async () => {
    const { callbacks } = build(production());
    const taken: { jobId: string; event: WebhookEvent }[] = [];
    callbacks.jobs.bind({ accept: (jobId, event) => (taken.push({ jobId, event }), 'applied') });
    await callbacks.reconcile();
    const address = callbacks.listening();
    expect(address?.host).toBe('127.0.0.1');

    const sent = callbacks.jobs.attach(tts('job-1', 'prod'), body);
    const hook = String(sent.webhookUrl);
    expect(hook).toMatch(/^https:\/\/hooks\.example\.com\/studio\/[A-Za-z0-9_-]{43}$/);
    // Another connection's create goes as it was, and is polled.
    expect(callbacks.jobs.attach(tts('job-2', 'staging'), body)).toEqual(body);

    // The service's callback, as the TLS proxy hands it on: the path unchanged, to the receiver.
    const event = { _id: 'svc-1', status: 3 as const, type: 'audio', url: 'https://cdn.example.com/a.mp3' };
    const answer = await fetch(`http://127.0.0.1:${address?.port}${new URL(hook).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sealWebhook(event, credentials, Date.now())),
    });
    expect(answer.status).toBe(200);
    expect(taken).toEqual([{ jobId: 'job-1', event }]);
  });

  it('says a port in use in words, and the connection is polled', async () => {
    squatter = createServer();
    await new Promise<void>((resolve) => squatter?.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    const { callbacks } = build(production(`127.0.0.1:${port}`));
    await expect(callbacks.reconcile()).rejects.toThrow(
      `The callback receiver of "Production" cannot listen on 127.0.0.1:${port}: the port is in use by another program`,
    );
    expect(callbacks.listening()).toBeNull();
    expect(callbacks.jobs.attach(tts('job-1', 'prod'), body)).toEqual(body);
  });

  it('refuses callbacks on a connection with an API key alone: nothing would open them', async () => {
    const world = production();
    world.secrets.delete('prod');
    const { callbacks } = build(world);
    await expect(callbacks.reconcile()).rejects.toThrow(/need its client id and secret/);
    expect(callbacks.listening()).toBeNull();
    expect(callbacks.jobs.attach(tts('job-1', 'prod'), body)).toEqual(body);
  });

  it('stops listening when another connection becomes the active one, and moves with its setting', async () => {
    const world = production();
    const { callbacks } = build(world);
    await callbacks.reconcile();
    const first = callbacks.listening();
    expect(first).not.toBeNull();

    world.settings.set('prod', { url: 'https://hooks.example.com/other-path', listen: '127.0.0.1:0' });
    await callbacks.reconcile();
    const moved = callbacks.listening();
    expect(String(callbacks.jobs.attach(tts('job-1', 'prod'), body).webhookUrl)).toMatch(
      /^https:\/\/hooks\.example\.com\/other-path\/[A-Za-z0-9_-]{43}$/,
    );

    world.active = { id: 'staging', name: 'Staging' };
    await callbacks.reconcile();
    expect(callbacks.listening()).toBeNull();
    expect(callbacks.jobs.attach(tts('job-2', 'prod'), body)).toEqual(body);
    // Nothing answers where the receiver was.
    await expect(fetch(`http://127.0.0.1:${moved?.port}/other-path/x`, { method: 'POST' })).rejects.toThrow();
  });
});

describe('the engine of a host that takes callbacks by connection', () => {
  it("sends the active connection's creates with its callback address once its receiver listens", async () => {
    const base = createMemoryHostBase();
    const sent: { endpoint: string; body: Record<string, unknown> }[] = [];
    const client = {
      call: async (endpoint: string, body: Record<string, unknown>) => {
        if (endpoint !== 'audioCreate') throw new Error(`no ${endpoint} in this test`);
        sent.push({ endpoint, body });
        return { _id: `svc-${sent.length}`, status: 1 };
      },
    } as unknown as ServiceClient;
    let activeId = 'sandbox';
    const services = createEngineServices(base, {
      connectionCallbacks: true,
      route: (connections) => ({
        active: async () => connections.engineConnection(activeId),
        client: async () => client,
      }),
    });
    const prod = await services.connections.add({
      name: 'Production',
      baseUrl: 'https://api.example.com',
      callbacks: { url: 'https://hooks.example.com/studio', listen: '127.0.0.1:0' },
    });
    await services.connections.setSecret(prod.id, { kind: 'client-credentials', ...credentials });
    callbacks = services.callbacks;
    services.jobs.start();
    const submit = () =>
      services.jobs.submit({
        kind: 'tts',
        body: { input_text: `Line ${sent.length + 1}.`, voice_id: 'voice-1', rate: '50%' },
        confirmation: { by: 'script' },
      });

    // The sandbox is active: its create carries no callback address.
    await callbacks?.reconcile();
    await submit();
    activeId = prod.id;
    await callbacks?.reconcile();
    expect(callbacks?.listening()).not.toBeNull();
    await submit();
    services.jobs.stop();
    expect(sent.map((s) => s.body.webhookUrl)).toEqual([
      undefined,
      expect.stringMatching(/^https:\/\/hooks\.example\.com\/studio\/[A-Za-z0-9_-]{43}$/),
    ]);
    // The ledger keeps the request without the address (its token).
    expect(JSON.stringify(services.jobs.list())).not.toContain('hooks.example.com');
  });
});
