// Vitest setupFiles of every project. Test files run in parallel workers, so what vitest.config.ts
// shares through the environment gets one sub-folder per worker (VITEST_POOL_ID is 1..maxWorkers, so
// runs reuse the same few folders): two files saving into the archive's default folders at once would
// otherwise meet each other's files and pick different names.
import { join } from 'node:path';

// It runs before every file, also where a worker's files share one process: derived from the run's
// root each time, never from its own last value.
const shared = process.env.STUDIO_TEST_ARCHIVE_ROOT;
if (shared) process.env.STUDIO_ARCHIVE_HOME = join(shared, `worker-${process.env.VITEST_POOL_ID ?? '1'}`);
