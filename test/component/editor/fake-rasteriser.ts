// The page's text rasteriser as the editor tests stand it in (vi.mock('@/text/page-rasteriser', () =>
// import('./fake-rasteriser'))): a text's box is half its font size a character wide, 1.2 lines high.
export const pageRasteriser = () => ({
  layout: async (style: { content: string; fontSize: number }) => ({
    width: style.content.length * style.fontSize * 0.5,
    height: style.fontSize * 1.2,
    lines: [],
    box: null,
  }),
});
