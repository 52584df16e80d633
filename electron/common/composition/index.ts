/**
 * electron/common/composition — the project document and everything pure built on it.
 * Environment-free: usable from the renderer, the services, the emulator and the CLI.
 *
 * DOCUMENT (document.ts)
 *   Project, Scene, SceneElement, Voice (zod schemas + types), SCHEMA_VERSION, MAX_SIDE,
 *   OUTPUT_PRESETS / presetById, parseProject(jsonOrText) → { ok, project } | { ok:false, error },
 *   ratioOf(output) → "16:9".
 *
 * GEOMETRY (geometry.ts) — an element's place is its box in output pixels (x, y of the top-left,
 *   width, height), shared by editor, serialisers and compositor; the media is stretched to the box;
 *   higher layer is drawn above, ties in array order. elementBox, heightForAspect, fitPlacement,
 *   stackingOrder. Version-1 projects (scale and offset) migrate to boxes on reading.
 *
 * PLACEMENT (placement.ts) — a connection's convention { anchor: centre|top-left, scale: frame|element }
 *   and the one conversion between a box and the wire's offset_x/offset_y/scale_x/scale_y: toWire
 *   (serialisers), fromWire (the sandbox). DEFAULT_PLACEMENT: centre and frame (the service's examples).
 *
 * OPERATIONS (project-ops.ts, scene-ops.ts, element-ops.ts) — pure: (doc, ...) → new doc; an
 *   operation that changes nothing returns its input (same reference). Unknown ids throw
 *   CompositionError. Move/scale of a locked element is a no-op.
 *   createProject, nextId, setName, setOutput (reframes: reframe.ts), setBackground, totalDurationMs;
 *   addScene, removeScene (never the last), duplicateScene, moveScene, setSceneDuration,
 *   setSceneVoice, setSceneName; addElement, moveElement, scaleElement, updateElement,
 *   setElementLocked, deleteElement, duplicateElement, reorderLayers, bringForward, sendBackward,
 *   bringToFront, sendToBack.
 *
 * TEXT (text-style.ts, text-ops.ts) — the service has no text element: a text element's style is drawn
 *   by the one rasteriser (common/text) and sent as an image (textReference until it is uploaded).
 *   TextStyle, BUNDLED_FONTS, TEXT_PRESETS, textStyleProblem; addTextElement, setTextStyle (keep the
 *   scale), withFontRecords (project.fonts), withTextAsImages (the compositor's view), pictureSize.
 *
 * MUSIC (music-track.ts, music-ops.ts, music-checks.ts, music-mix-args.ts) — a project track and a scene's
 *   own (or none), mixed under the voice by the host and sent as the voice (musicReference until it is
 *   uploaded). musicPlans(project) → each scene's track, offset and fades; the ffmpeg passes are pure.
 *
 * MEDIA (media-info.ts, media-checks.ts) — MediaInfo (zod) and parseFfprobeJson(ffprobe JSON) → kind,
 *   durationMs, display width/height, fps, codecs, hasAudio; lipSyncChecks(video, audio?) and
 *   characterSwapChecks(video) → [{ level, code, message }] for the service's documented limits.
 *
 * COMPOSITOR (render-plan.ts, body-plans.ts, ffmpeg-args.ts, progress.ts) — pure; the preview service
 *   and the sandbox both render with it, so their results agree.
 *   1. Plan: planFromProject(project, resolveInput)
 *            planFromAvatarVideoBody(body, resolveInput)
 *            planFromTalkingAvatarBody(body, resolveInput, { durationMs?, background? })
 *      → RenderPlan { width, height, background, scenes: [{ durationMs, layers (bottom first, boxes in
 *        output px), audio[] }], notes[] }.
 *      resolveInput(request) is SYNCHRONOUS: request = { role: 'element'|'voice', type, url|null,
 *      avatarId?, text? (speech to synthesise), sceneIndex, sceneId, elementId?, label }; return a
 *      local path (or a URL ffmpeg can read), or { path, still? }, or null to leave it out (noted in
 *      plan.notes). Download/synthesise first, then plan. A "#rrggbb" image url is a colour layer.
 *   2. Arguments: buildFfmpegArgs(plan, { outputPath, quality: 'preview'|'draft', width?, fps?,
 *      progress? }) → { args, filterGraph, width, height, durationMs }. Run: spawn(ffmpeg, args).
 *      Output is always MP4 (-f mp4), so "out.mp4.part" works. One filter graph; inputs scaled before
 *      overlay; avatars loop, videos hold their last frame, stills are decoded once; scenes concat;
 *      voice padded/cut to each scene, silence where none; video elements are muted.
 *   3. Progress: createProgressParser(totalMs).push(line) → { outTimeMs, fraction, speed, done } at
 *      each block of `-progress pipe:1` output.
 *
 * BODIES & VALIDATION (serialise-avatar-video.ts, serialise-talking-avatar.ts, validate.ts, export-body.ts)
 *   toAvatarVideoBody(project, { webhookUrl?, placement? }), toTalkingAvatarBody(project, { webhookUrl?,
 *   placement? }): exact wire field names; boxes written by the placement convention. validateProject(project,
 *   { target?, purpose: 'submit'|'preview', plan?: 'pro'|'pro-max'|'business' }) → Problem[]
 *   ({ level, code, message, sceneIndex?, sceneId?, elementId? }). exportBody(project, options) →
 *   { ok, target, body, warnings } | { ok:false, problems }: what the CLI and the job submitters use.
 *   A scene with elements timed inside it is sent as consecutive items cut where they appear and leave
 *   (scene-parts.ts: sceneParts, itemScenes), each item's voice a voicePartReference the host cuts at submit.
 *
 * LINKS (link-checks.ts) — projectLinks / linkUrls (every link a body sends, with where it sits and
 *   what it must be), LinkReport (the host's answer about one link), linkProblems(project, reports) →
 *   Problem[] (broken, wrong kind, a voice longer than its scene).
 *
 * FORMATS (formats.ts, format-schema.ts) — one project, a layout per frame size: `output` and the boxes
 *   are the format being edited, `formats` the others' boxes. addFormat (reframed), switchFormat,
 *   removeFormat, projectInFormat / formatProjects (each a plain project for the serialisers).
 *
 * HISTORY (history.ts) — DocumentHistory<T>: commit(doc) once per finished gesture, undo(), redo(),
 *   canUndo/canRedo, reset(doc); capped (default 200 entries).
 */
export * from './document';
export * from './geometry';
export * from './placement';
export * from './project-ops';
export * from './scene-ops';
export * from './element-ops';
export * from './text-style';
export * from './text-ops';
export * from './brand-kit';
export * from './templates';
export * from './avatar-links';
export * from './history';
export * from './media-info';
export * from './media-checks';
export * from './render-plan';
export * from './body-plans';
export * from './ffmpeg-args';
export * from './progress';
export * from './rules';
export * from './serialise-avatar-video';
export * from './serialise-talking-avatar';
export * from './validate';
export * from './export-body';
export * from './music-schema';
export * from './music-track';
export * from './music-ops';
export * from './link-checks';
export * from './avatar-checks';
export * from './failure-reasons';
export * from './voice-follow';
export * from './scene-length';
export * from './reframe';
export * from './format-schema';
export * from './formats';
export * from './element-timing';
export * from './scene-parts';
