/** Waits for `work`, but no longer than `ms`: closing must not hang on a Redis that has gone. */
export const withinMs = (work: Promise<unknown>, ms: number): Promise<unknown> =>
  Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms).unref())]);
