import { defineStore } from 'pinia';
import { shallowRef } from 'vue';

/** A place in a project another workspace asks the Editor to show (a failed job's broken element). */
export interface RevealRequest {
  projectId: string;
  sceneIndex: number;
  elementId: string | null;
}

/** Handed from the Library to the Editor: the Editor opens the project there and clears it. */
export const useEditorReveal = defineStore('editor-reveal', () => {
  const pending = shallowRef<RevealRequest | null>(null);
  function request(place: RevealRequest): void {
    pending.value = place;
    window.location.hash = '/editor';
  }
  function take(): RevealRequest | null {
    const place = pending.value;
    pending.value = null;
    return place;
  }
  return { pending, request, take };
});
