import { call } from '@/bridge';

/**
 * A sound's waveform as the host measures it. The page never fetches media itself: its CSP allows
 * connections to the studio's own origin only, and many servers do not let a page read their files.
 * Null when the host cannot read the sound either.
 */
export async function hostPeaks(url: string, buckets = 600): Promise<{ peaks: number[][]; duration: number } | null> {
  try {
    const waveform = await call('media.waveform', url, { buckets });
    return waveform.durationMs > 0 ? { peaks: [waveform.peaks], duration: waveform.durationMs / 1000 } : null;
  } catch {
    return null;
  }
}
