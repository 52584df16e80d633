// wawoff2 ships no types: its decompress turns WOFF2 bytes into TrueType/OpenType bytes.
declare module 'wawoff2' {
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
