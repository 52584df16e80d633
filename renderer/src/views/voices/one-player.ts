import { shallowRef } from 'vue';

/** The one preview playing in the Voices workspace: starting another stops it first. */
const current = shallowRef<{ id: string; stop: () => void } | null>(null);

export function claimPlayback(id: string, stop: () => void): void {
  if (current.value && current.value.id !== id) current.value.stop();
  current.value = { id, stop };
}

export function releasePlayback(id: string): void {
  if (current.value?.id === id) current.value = null;
}

export const nowPlaying = current;
