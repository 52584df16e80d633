/** Where the studio reads the time: the real clock, or a test's. */
export interface Clock {
  now(): number;
}
