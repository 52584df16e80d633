import { describe, expect, it } from 'vitest';
import type { CatalogueVoice, JobView } from '@common/bridge';
import {
  checkClone,
  checkTts,
  filterVoices,
  rateText,
  recentVoiceovers,
  scriptCounts,
} from '@/views/voices/voices-logic';

const voice = (over: Partial<CatalogueVoice>): CatalogueVoice =>
  ({
    _id: 'x',
    create_time: 0,
    uid: 0,
    from: 3,
    voice_id: 'v',
    gender: 'female',
    accent: 'British',
    name: 'Ada',
    description: 'Warm narrator',
    useCase: 'Narration',
    type: 1,
    preview: '',
    __v: 0,
    ...over,
  }) as CatalogueVoice;

describe('voice library filter', () => {
  const list = [
    voice({ voice_id: 'a', name: 'Ada', from: 3 }),
    voice({
      voice_id: 'b',
      name: 'Ben',
      gender: 'male',
      accent: 'American',
      description: 'Upbeat ads',
      useCase: 'Ads',
      from: 3,
    }),
    voice({ voice_id: 'c', name: 'My clone', accent: 'Cloned', from: 4 }),
  ];
  const none = { search: '', source: 'all' as const, gender: null, accent: null };

  it('searches every word across name, accent, use and description', () => {
    expect(filterVoices(list, { ...none, search: 'upbeat american' }, []).map((v) => v.voice_id)).toEqual(['b']);
    expect(filterVoices(list, { ...none, search: 'upbeat british' }, [])).toEqual([]);
  });

  it("splits official voices from the user's own and keeps favourites", () => {
    expect(filterVoices(list, { ...none, source: 'mine' }, []).map((v) => v.voice_id)).toEqual(['c']);
    expect(filterVoices(list, { ...none, source: 'official' }, []).map((v) => v.voice_id)).toEqual(['a', 'b']);
    expect(filterVoices(list, { ...none, source: 'favourites' }, ['b']).map((v) => v.voice_id)).toEqual(['b']);
    expect(filterVoices(list, { ...none, gender: 'male' }, []).map((v) => v.voice_id)).toEqual(['b']);
  });
});

describe('speech checks before sending', () => {
  it('counts words and characters and flags the 5,000-word limit', () => {
    expect(scriptCounts('  Hello   there, world ')).toEqual({ words: 3, characters: 23, overLimit: false });
    expect(scriptCounts('w '.repeat(5001)).overLimit).toBe(true);
    expect(scriptCounts('w '.repeat(5000)).overLimit).toBe(false);
  });

  it('refuses an empty script, an over-long one and a missing voice with reasons', () => {
    expect(checkTts('   ', 'v', 50)).toEqual({ ok: false, reasons: [expect.stringContaining('empty')] });
    const long = checkTts('w '.repeat(5001), 'v', 50);
    expect(long.ok).toBe(false);
    expect(!long.ok && long.reasons[0]).toContain('5,001 words');
    expect(checkTts('Hi', null, 50)).toEqual({ ok: false, reasons: [expect.stringContaining('No voice')] });
  });

  it('sends the rate as "<n>%"', () => {
    expect(checkTts('Hi', 'v', 73.4)).toEqual({ ok: true, body: { input_text: 'Hi', voice_id: 'v', rate: '73%' } });
    expect(rateText(140)).toBe('100%');
    expect(rateText(-3)).toBe('0%');
  });
});

describe('clone checks before sending', () => {
  it('applies the service rule "voice_id or voice_url must be provided"', () => {
    const r = checkClone('', 'Say this', 50);
    expect(r).toEqual({ ok: false, reasons: ['voice_id or voice_url must be provided'] });
    expect(checkClone('', '', 50)).toEqual({
      ok: false,
      reasons: ['input_text cannot be empty', 'voice_id or voice_url must be provided'],
    });
  });

  it('refuses a sample that is not an http(s) link and builds a valid body', () => {
    expect(checkClone('file:///tmp/a.mp3', 'Say this', 50).ok).toBe(false);
    expect(checkClone(' https://x.test/a.mp3 ', 'Say this', 20)).toEqual({
      ok: true,
      body: { input_text: 'Say this', rate: '20%', voice_url: 'https://x.test/a.mp3' },
    });
  });
});

describe('recent voiceovers', () => {
  const job = (over: Partial<JobView>): JobView =>
    ({
      id: 'j',
      kind: 'tts',
      purpose: { type: 'plain' },
      request: { input_text: 'Hello', voice_id: 'a', rate: '40%' },
      ...over,
    }) as JobView;

  it('come from the ledger: speech and clones made here, not scene voiceovers or batch rows', () => {
    const jobs = [
      job({ id: '1' }),
      job({ id: '2', purpose: { type: 'scene-voiceover', projectId: 'p', sceneId: 's', scriptHash: 'h' } }),
      job({ id: '3', purpose: { type: 'batch-row', batchId: 'b', row: 1 } }),
      job({
        id: '4',
        kind: 'voice-clone',
        purpose: { type: 'voice-clone' },
        request: { input_text: 'Yo', voice_url: 'https://x/s.mp3?sig=1', rate: '50%' },
      }),
      job({ id: '5', kind: 'lipsync' }),
    ];
    const out = recentVoiceovers(jobs, (id) => (id === 'a' ? 'Ada' : id));
    expect(out.map((r) => [r.job.id, r.script, r.voice, r.rate])).toEqual([
      ['1', 'Hello', 'Ada', '40%'],
      ['4', 'Yo', 'Clone of s.mp3', '50%'],
    ]);
  });
});
