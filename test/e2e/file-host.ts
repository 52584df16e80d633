// e2e setupFiles entry: every test file gets its own web host (see studio-host.ts).
import { afterAll, beforeAll } from 'vitest';
import { startFileHost, stopFileHost } from './studio-host';

beforeAll(startFileHost, 120_000);
afterAll(stopFileHost, 60_000);
