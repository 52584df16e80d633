/**
 * Memory for writes that bypass the page cache (O_DIRECT), which must start on a page boundary. Node
 * cannot tell where a Buffer lies, but a WebAssembly memory is mapped by V8 on whole pages, so slices of
 * one at multiples of `DIRECT_ALIGN` are aligned. One slab serves every download; a download that finds
 * it used up writes through the page cache instead.
 */

/** Offsets, lengths and addresses of direct writes are multiples of this (a page; covers 512-byte disks). */
export const DIRECT_ALIGN = 4096;
/** One staging block: the most a direct write carries. */
export const DIRECT_BLOCK = 1024 * 1024;
const SLAB_BLOCKS = 16;
const WASM_PAGE = 64 * 1024;

let free: Buffer[] | null = null;

function slab(): Buffer[] {
  if (free === null) {
    const pages = (SLAB_BLOCKS * DIRECT_BLOCK) / WASM_PAGE;
    const memory = Buffer.from(new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer);
    free = Array.from({ length: SLAB_BLOCKS }, (_, i) => memory.subarray(i * DIRECT_BLOCK, (i + 1) * DIRECT_BLOCK));
  }
  return free;
}

/** `count` aligned blocks, or null when fewer are free (the caller writes through the page cache). */
export function takeAlignedBlocks(count: number): Buffer[] | null {
  const blocks = slab();
  return blocks.length >= count ? blocks.splice(blocks.length - count, count) : null;
}

export function returnAlignedBlocks(blocks: Buffer[]): void {
  slab().push(...blocks);
}

/** Blocks free now (tests check that every download gives its blocks back). */
export function freeAlignedBlocks(): number {
  return slab().length;
}
