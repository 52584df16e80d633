/** Tools the workspace will offer but this build does not have yet; each gets an honest tab. */
export const PLANNED_TOOLS = [
  { name: 'character-swap', title: 'Character swap', detail: 'Animate a character image with the motion of a video, or put the character into the video; the cost per started 5 seconds is shown before sending.' },
] as const;
