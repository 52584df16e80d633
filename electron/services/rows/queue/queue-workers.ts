import type { Queue } from 'bullmq';
import type { RunShelf, WorkerFacts } from './run-shelf';

/** A worker's facts are dropped once it has been gone this long: long enough to read what it did last. */
const FACTS_KEPT_MS = 86_400_000;
/** On a Redis that does not list its clients, a worker counts as there while it said something this recently. */
const UNLISTED_RECENT_MS = 3_600_000;

/** A worker connected to the queue now, with what it last said of itself. */
export interface ConnectedWorker extends Omit<WorkerFacts, 'at'> {
  /** How long its connection has been open, by Redis's count (whole seconds). */
  secondsConnected: number;
}

/** A worker connected before it said anything of itself (its first row not yet taken). */
const unheardOf = (id: string, startedAt: number): WorkerFacts => ({
  id,
  host: '',
  pid: 0,
  startedAt,
  at: 0,
  running: 0,
  done: 0,
});

/**
 * The BullMQ name a worker's connections carry (`Worker` option `name`), as Redis lists its clients:
 * `<prefix>:<queue in base64>:w:<name>`.
 */
const namePrefix = (queue: Pick<Queue, 'name'>, prefix: string): string =>
  `${prefix}:${Buffer.from(queue.name).toString('base64')}:w:`;

/**
 * The workers on a queue: those BullMQ lists as connected now (`getWorkers`, from Redis's own list of
 * its clients, so a worker that stopped or was killed is gone at once, with nothing to expire), each with
 * the facts it last wrote. A Redis that does not list its clients (some managed ones refuse CLIENT LIST)
 * gets the facts written in the last hour instead. Facts of workers gone for a day are removed.
 */
export async function connectedWorkers(
  queue: Pick<Queue, 'name' | 'getWorkers'>,
  prefix: string,
  shelf: Pick<RunShelf, 'workerFacts' | 'forgetWorkers'>,
  now: number,
): Promise<ConnectedWorker[]> {
  const [clients, facts] = await Promise.all([queue.getWorkers(), shelf.workerFacts()]);
  const start = namePrefix(queue, prefix);
  const listed = clients.every((client) => typeof client.rawname === 'string');
  const connected = new Map<string, number>();
  for (const client of listed ? clients : []) {
    const name = client.rawname.startsWith(start) ? client.rawname.slice(start.length) : '';
    const age = Number(client.age) || 0;
    // Should a worker have two connections named alike, the older one tells how long it has been there.
    if (name) connected.set(name, Math.max(age, connected.get(name) ?? 0));
  }
  const stale = [...facts.values()].filter((f) => !connected.has(f.id) && now - f.at > FACTS_KEPT_MS);
  await shelf.forgetWorkers(stale.map((f) => f.id));
  const workers: ConnectedWorker[] = [];
  if (listed)
    for (const [name, secondsConnected] of connected) {
      const { at: _at, ...known } = facts.get(name) ?? unheardOf(name, now - secondsConnected * 1000);
      workers.push({ ...known, id: name, secondsConnected });
    }
  else
    for (const { at, ...known } of facts.values())
      if (now - at < UNLISTED_RECENT_MS)
        workers.push({ ...known, secondsConnected: Math.max(0, Math.floor((now - known.startedAt) / 1000)) });
  return workers.sort((a, b) => a.id.localeCompare(b.id));
}
