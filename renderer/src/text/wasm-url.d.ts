// Vite hands out the URL of a file imported with "?url" (the resvg WebAssembly, served by the page's origin).
declare module '@resvg/resvg-wasm/index_bg.wasm?url' {
  const url: string;
  export default url;
}
