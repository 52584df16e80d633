import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on, and nothing will while a test uses it: one below the range the
 * system hands out for port 0, so no other test's server can be given it. A port taken with port 0 and
 * given back was free only for a moment: under a full suite another process was handed it, and a case
 * expecting "nothing listens" met an HTTP server there.
 */
export async function closedPort(): Promise<number> {
  const lowest = ephemeralLowest();
  for (let port = lowest - 1 - (process.pid % 2_000); port > 1024; port -= 1) if (await free(port)) return port;
  throw new Error('no closed loopback port below the ephemeral range');
}

function ephemeralLowest(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether the port can be listened on now (then nothing listens there). */
function free(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
