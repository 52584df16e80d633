// A worker process for the tests: takes row steps from the queue named in its arguments and never ends
// them, saying on its standard output which step it started, so a test can kill it mid-step.
import { BullmqRowQueue } from '../../../electron/services/rows/queue/bullmq-row-queue';

const [url, name, stallMs] = process.argv.slice(2);
if (!url || !name) throw new Error('usage: row-worker-child.ts REDIS_URL QUEUE_NAME [STALL_MS]');
const queue = new BullmqRowQueue({ url, name, stallMs: Number(stallMs ?? 30_000) });
queue.start(
  (task) =>
    new Promise<void>(() => {
      process.stdout.write(`started ${task.runId}/${task.row}\n`);
    }),
);
