// A webhook receiver written from the service's docs alone (not from the studio's own webhook module),
// so a sandbox callback that it accepts is one a team's own receiver would accept too.
import { createDecipheriv, createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface ReceivedEvent {
  _id: string;
  status: number;
  type: string;
  url: string;
}

export interface Receiver {
  url: string;
  events: ReceivedEvent[];
  /** HTTP status of every delivery, in order (400 for one that failed verification). */
  answers: number[];
  close(): void;
}

/** Docs: signature = sha1(sort(clientId, timestamp, nonce, dataEncrypt)); AES-CBC, key = secret, iv = clientId's first 16 bytes. */
export function decodeAsDocumented(
  body: { signature: string; dataEncrypt: string; timestamp: number; nonce: string },
  clientId: string,
  clientSecret: string,
): ReceivedEvent | null {
  const signature = createHash('sha1')
    .update([clientId, body.timestamp, body.nonce, body.dataEncrypt].sort().join(''))
    .digest('hex');
  if (signature !== body.signature) return null;
  const bits = { 16: 128, 24: 192, 32: 256 }[clientSecret.length];
  const decipher = createDecipheriv(
    `aes-${bits}-cbc`,
    Buffer.from(clientSecret),
    Buffer.from(clientId).subarray(0, 16),
  );
  return JSON.parse(
    Buffer.concat([decipher.update(body.dataEncrypt, 'base64'), decipher.final()]).toString('utf8'),
  ) as ReceivedEvent;
}

/** Listens on 127.0.0.1; answers 200 to verified callbacks, 400 otherwise (as the official demo's receiver does); `failFirst` deliveries get 500. */
export async function startReceiver(clientId: string, clientSecret: string, failFirst = 0): Promise<Receiver> {
  const events: ReceivedEvent[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      let status = 400;
      if (failFirst-- > 0) status = 500;
      else {
        try {
          const event = decodeAsDocumented(JSON.parse(text), clientId, clientSecret);
          if (event) {
            events.push(event);
            status = 200;
          }
        } catch {
          status = 400;
        }
      }
      answers.push(status);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, events, answers, close: () => server.close() };
}
