// The project document at scale, measured: a 200-scene avatar-video project (four elements and a
// voice per scene). Reports the time to validate and serialise it to the request body (what happens
// before every submit and on every export-body), to load it (parse + schema check), and to apply one
// edit with an undo entry, each as a ratio to JSON.stringify of the same project measured in this run.
import {
  DocumentHistory,
  addElement,
  addScene,
  createProject,
  exportBody,
  moveElement,
  parseProject,
  setSceneVoice,
  toAvatarVideoBody,
  validateProject,
  type Project,
} from '../../electron/common/composition';

const SCENES = 200;

function bigProject(): Project {
  let p = createProject({ id: 'bench-doc', kind: 'avatar-video', output: '16:9-1080p', name: 'Two hundred scenes' });
  for (let i = 1; i < SCENES; i += 1) p = addScene(p, { durationMs: 3000 + (i % 5) * 500 });
  for (const [i, scene] of p.scenes.entries()) {
    p = addElement(p, scene.id, {
      type: 'image',
      url: `https://cdn.example/bg-${i}.jpg`,
      x: 0,
      y: 0,
      width: 1920,
      height: 1080,
    });
    p = addElement(p, scene.id, {
      type: 'video',
      url: `https://cdn.example/clip-${i}.mp4`,
      x: 96,
      y: 216,
      width: 960,
      height: 540,
    });
    p = addElement(p, scene.id, {
      type: 'avatar',
      url: 'https://cdn.example/anna.mp4',
      avatarId: 'anna',
      avatarFrom: 2,
      x: 1248,
      y: 108,
      width: 576,
      height: 864,
    });
    p = addElement(p, scene.id, {
      type: 'image',
      url: 'https://cdn.example/logo.png',
      x: 1728,
      y: 36,
      width: 144,
      height: 140.4,
    });
    p = setSceneVoice(p, scene.id, {
      kind: 'tts',
      text: `Line ${i} of the script.`,
      voiceId: 'v-en-1',
      rate: '50%',
      audioUrl: `https://cdn.example/voice-${i}.mp3`,
    });
  }
  return p;
}

/** Median time in ms of one call, over enough repetitions to fill ~`budgetMs`. */
function measure(label: string, work: () => unknown, budgetMs = 600): number {
  for (let i = 0; i < 3; i += 1) work();
  const samples: number[] = [];
  const end = performance.now() + budgetMs;
  while (performance.now() < end || samples.length < 5) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(`  ${label.padEnd(44)} ${median.toFixed(3)} ms  (${samples.length} runs)`);
  return median;
}

export async function run(): Promise<void> {
  const project = bigProject();
  const text = JSON.stringify(project);
  const check = exportBody(project);
  if (!check.ok) throw new Error(`fixture should be valid: ${check.problems[0]?.message}`);
  console.log(`project: ${SCENES} scenes, ${SCENES * 4} elements, ${(text.length / 1024).toFixed(0)} KiB of JSON`);

  const baseline = measure('baseline: JSON.stringify(project)', () => JSON.stringify(project));
  const validate = measure('validateProject', () => validateProject(project));
  const serialise = measure('toAvatarVideoBody', () => toAvatarVideoBody(project));
  const both = measure('exportBody (validate + serialise)', () => exportBody(project));
  const bodyText = measure('exportBody + JSON.stringify(body)', () =>
    JSON.stringify((exportBody(project) as { body: unknown }).body),
  );
  const load = measure('parseProject(text) (load: JSON + schema)', () => parseProject(text));
  const history = new DocumentHistory(project);
  const lastScene = project.scenes[SCENES - 1];
  let x = 0;
  const edit = measure('one move + history commit (scene 200)', () =>
    history.commit(moveElement(history.present, lastScene.id, lastScene.elements[1].id, (x += 1) % 500, 216)),
  );

  const ratio = (n: number): string => `${(n / baseline).toFixed(1)}x`;
  console.log('ratios to JSON.stringify of the same project:');
  console.log(
    `  validate ${ratio(validate)}, serialise ${ratio(serialise)}, validate + serialise ${ratio(both)}, + stringify ${ratio(bodyText)}, load ${ratio(load)}, edit ${ratio(edit)}`,
  );
}
