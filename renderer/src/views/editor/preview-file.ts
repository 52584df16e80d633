// Reads a file back from the host in chunks and turns it into a playable blob: URL (a finished preview,
// a music mix). Chunks keep every bridge message small, and blob: URLs play the same in Electron and the browser.
import { PREVIEW_CHUNK_BYTES, type PreviewChunk, type PreviewDone } from '@common/bridge';
import { call } from '@/bridge';

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Reads chunks from offset 0 until the host says done; answers a blob: URL of `mimeType`. */
export async function readBackBlobUrl(
  read: (offset: number, length: number) => Promise<PreviewChunk>,
  mimeType: string,
  onProgress?: (fraction: number) => void,
): Promise<string> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  for (;;) {
    const chunk = await read(offset, PREVIEW_CHUNK_BYTES);
    const bytes = decode(chunk.base64);
    parts.push(bytes);
    offset += bytes.length;
    onProgress?.(chunk.totalBytes > 0 ? offset / chunk.totalBytes : 1);
    if (chunk.done || bytes.length === 0) break;
  }
  return URL.createObjectURL(new Blob(parts, { type: mimeType }));
}

export function loadPreviewBlobUrl(done: PreviewDone, onProgress?: (fraction: number) => void): Promise<string> {
  return readBackBlobUrl(
    (offset, length) => call('preview.read', done.fileId, offset, length),
    done.mimeType,
    onProgress,
  );
}
