// Issue 64: every link in a queued row must be one the service can fetch from anywhere. A run sent to a
// queue is looked at before any price: a link to this machine or to a private network is named with why,
// and so are local files whose storage hands out such links, unless the service runs on this machine
// (the sandbox here fetches this machine's links, never a private network's).
import { describe, expect, it } from 'vitest';
import { unreachableLinks, workerMediaProblem } from '../../../electron/services/storage/queue-links';

/** A filled row's body: each link in an element's url, and a line of its script that names a link nobody fetches. */
const run = (links: Record<string, string>) => ({
  scenes: [
    {
      voice: { text: 'Our intranet is http://10.9.9.9/wiki, come and see.' },
      elements: Object.values(links).map((url) => ({ url })),
    },
  ],
});

describe('the links of a run sent to a queue', () => {
  it('are refused on loopback and private addresses for a service elsewhere, with why', async () => {
    const problems = await unreachableLinks({
      service: 'https://api.example.com',
      value: run({
        element: 'http://127.0.0.1:46527/files/logo.png',
        logo: 'http://192.168.1.20/logo.png',
        ok: 'https://cdn.example.com/a.png',
      }),
      storage: async () => 'https://bucket.example.com',
    });
    expect(problems).toEqual([
      'http://127.0.0.1:46527/files/logo.png is on 127.0.0.1, which is this machine only: the service at https://api.example.com cannot fetch it.',
      'http://192.168.1.20/logo.png is on 192.168.1.20, a private network address: the service at https://api.example.com cannot fetch it.',
    ]);
  });

  it('name local files whose storage is this machine, and ask the storage only when there are some', async () => {
    let asked = 0;
    const storage = async () => {
      asked += 1;
      return 'http://127.0.0.1:40001';
    };
    expect(
      await unreachableLinks({
        service: 'https://api.example.com',
        value: run({ ok: 'https://cdn.example.com/a.png' }),
        storage,
      }),
    ).toEqual([]);
    expect(asked).toBe(0);
    const problems = await unreachableLinks({
      service: 'https://api.example.com',
      value: run({ logo: 'file:///home/me/My%20logo.png' }),
      storage,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^My logo\.png would be uploaded to the storage at http:\/\/127\.0\.0\.1:40001, on 127\.0\.0\.1, which is this machine only: the service at https:\/\/api\.example\.com cannot fetch from there\./,
    );
    // A bucket the service reaches takes them.
    expect(
      await unreachableLinks({
        service: 'https://api.example.com',
        value: run({ logo: 'file:///logo.png' }),
        storage: async () => 'https://s3.amazonaws.com',
      }),
    ).toEqual([]);
  });

  it("are fetched by this machine's sandbox from this machine, never from a private network", async () => {
    const problems = await unreachableLinks({
      service: 'http://127.0.0.1:4780',
      value: run({
        element: 'http://127.0.0.1:4780/files/up-1.png',
        logo: 'http://10.0.0.5/logo.png',
        local: 'file:///logo.png',
      }),
      storage: async () => 'http://127.0.0.1:4780',
    });
    expect(problems).toEqual([
      'http://10.0.0.5/logo.png is on 10.0.0.5, a private network address: the service at http://127.0.0.1:4780 cannot fetch it.',
    ]);
  });

  it("of a worker's own pictures: its storage must be one the run's service reaches", () => {
    expect(workerMediaProblem('https://api.example.com', 'http://127.0.0.1:39000')).toBe(
      'the pictures it renders would go to its storage at http://127.0.0.1:39000, on 127.0.0.1, which is this machine only, which the service at https://api.example.com cannot fetch from',
    );
    expect(workerMediaProblem('https://api.example.com', 'http://10.1.1.1:9000')).toMatch(/a private network address/);
    expect(workerMediaProblem('https://api.example.com', 'https://s3.amazonaws.com')).toBeNull();
    // This machine's sandbox fetches what this machine serves.
    expect(workerMediaProblem('http://127.0.0.1:4780', 'http://127.0.0.1:4780')).toBeNull();
  });
});
