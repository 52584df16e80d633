/**
 * electron/common/composition — the project document and everything pure built on it.
 * Environment-free: usable from the renderer, the services, the emulator and the CLI.
 *
 * DOCUMENT (document.ts)
 *   Project, Scene, SceneElement, Voice (zod schemas + types), SCHEMA_VERSION, MAX_SIDE,
 *   OUTPUT_PRESETS / presetById, parseProject(jsonOrText) → { ok, project } | { ok:false, error },
 *   ratioOf(output) → "16:9".
 *
 * GEOMETRY (geometry.ts) — the one meaning of scale and offset, shared by editor, serialisers and
 *   compositor: an element's box is scaleX × output.width by scaleY × output.height output pixels, its
 *   top-left at (offsetX, offsetY); the media is stretched to the box; higher layer is drawn above,
 *   ties in array order. elementBox, boxToPlacement, scaleYForAspect, fitPlacement, stackingOrder.
 *
 * OPERATIONS (project-ops.ts, scene-ops.ts, element-ops.ts) — pure: (doc, ...) → new doc; an
 *   operation that changes nothing returns its input (same reference). Unknown ids throw
 *   CompositionError. Move/scale of a locked element is a no-op.
 *   createProject, nextId, setName, setOutput (rescales offsets), setBackground, totalDurationMs;
 *   addScene, removeScene (never the last), duplicateScene, moveScene, setSceneDuration,
 *   setSceneVoice, setSceneName; addElement, moveElement, scaleElement, updateElement,
 *   setElementLocked, deleteElement, duplicateElement, reorderLayers, bringForward, sendBackward,
 *   bringToFront, sendToBack.
 *
 * MEDIA (media-info.ts, media-checks.ts) — MediaInfo (zod) and parseFfprobeJson(ffprobe JSON) → kind,
 *   durationMs, display width/height, fps, codecs, hasAudio; lipSyncChecks(video, audio?) and
 *   characterSwapChecks(video) → [{ level, code, message }] for the service's documented limits.
 *
 * HISTORY (history.ts) — DocumentHistory<T>: commit(doc) once per finished gesture, undo(), redo(),
 *   canUndo/canRedo, reset(doc); capped (default 200 entries).
 */
export * from './document';
export * from './geometry';
export * from './project-ops';
export * from './scene-ops';
export * from './element-ops';
export * from './history';
export * from './media-info';
export * from './media-checks';
