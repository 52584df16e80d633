/**
 * A store's first load, shared by every screen that asks for it (the store's events keep the data
 * current after that); run again when `stale` says the last one cannot stand (it failed, or the store
 * was disposed).
 */
export function sharedFirstLoad(load: () => Promise<void>, stale: () => boolean): () => Promise<void> {
  let first: Promise<void> | null = null;
  return () => {
    if (!first || stale()) first = load();
    return first;
  };
}
