import { defineStore } from 'pinia';
import { shallowRef, triggerRef } from 'vue';
import type { ResultMedia } from '@common/bridge';
import { call, onEvent } from '@/bridge';

/** The most one call asks about (the bridge's limit). */
const BATCH = 200;
/** After a failed ask, the same jobs are asked again no sooner than this (rows redraw several times a second). */
const RETRY_AFTER_MS = 30_000;

/**
 * Thumbnails, lengths and sizes of results, asked for as rows are drawn (a virtual list draws only the
 * rows in view, so a library of thousands asks for a screenful). Asks are gathered into one call per
 * moment; copies the host still reads arrive later as events. A job is asked again when the copy it
 * was read from changes (a download saved, a copy lost).
 */
export const useResultMediaStore = defineStore('result-media', () => {
  const byJob = shallowRef(new Map<string, ResultMedia>());
  /** The copy each job's answer was asked for ("" for none), so a new copy asks again. */
  const askedFor = new Map<string, string>();
  const waiting = new Set<string>();
  let flushing: Promise<void> | null = null;
  let stop: (() => void) | undefined;
  let onError: (error: unknown) => void = () => undefined;

  function put(media: ResultMedia): void {
    byJob.value.set(media.jobId, media);
    triggerRef(byJob);
  }

  function listen(report: (error: unknown) => void): void {
    onError = report;
    stop ??= onEvent('downloads.mediaRead', put);
  }

  /** What is known of a job's result; asks the host once per copy it was saved as. */
  function of(jobId: string, copy: string): ResultMedia | undefined {
    if (askedFor.get(jobId) !== copy) {
      askedFor.set(jobId, copy);
      waiting.add(jobId);
      flushing ??= Promise.resolve().then(flush);
    }
    return byJob.value.get(jobId);
  }

  async function flush(): Promise<void> {
    try {
      while (waiting.size > 0) {
        const ids = [...waiting].slice(0, BATCH);
        for (const id of ids) waiting.delete(id);
        try {
          for (const media of await call('downloads.media', ids)) put(media);
        } catch (error) {
          // Asked again when the row is drawn after a pause, not at every redraw of a failing host.
          setTimeout(() => {
            for (const id of ids) askedFor.delete(id);
          }, RETRY_AFTER_MS);
          onError(error);
        }
      }
    } finally {
      flushing = null;
    }
  }

  function dispose(): void {
    stop?.();
    stop = undefined;
  }

  return { byJob, of, listen, dispose, settled: () => flushing ?? Promise.resolve() };
});
