import { describe, expect, it } from 'vitest';
import { matchJob } from '../../../electron/common/jobs/job-id';

describe('one id everywhere', () => {
  const jobs = [
    { id: 'a1b2c3', remoteId: 'svc-900' },
    { id: 'a1ffff', remoteId: 'svc-901' },
    { id: 'zz0000', remoteId: null },
  ];
  it('takes the studio id or the service id, in full or by a unique start, and says why otherwise', () => {
    expect(matchJob(jobs, 'a1b2c3')).toEqual({ job: jobs[0] });
    expect(matchJob(jobs, 'svc-901')).toEqual({ job: jobs[1] });
    expect(matchJob(jobs, 'a1b')).toEqual({ job: jobs[0] });
    expect(matchJob(jobs, 'zz')).toEqual({ job: jobs[2] });
    expect(matchJob(jobs, 'a1')).toEqual({ problem: '"a1" matches 2 jobs; give more characters' });
    expect(matchJob(jobs, 'svc-9')).toEqual({ problem: '"svc-9" matches 2 jobs; give more characters' });
    expect(matchJob(jobs, 'nope')).toEqual({ problem: 'No job matches "nope" (neither a studio id nor a service id)' });
  });
});
