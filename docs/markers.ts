// Pages that hold text written by a script mark it `<!-- name -->` … `<!-- /name -->`; the script
// replaces what is between and leaves the prose around it alone.

export const hasBlock = (doc: string, name: string): boolean => {
  const from = doc.indexOf(`<!-- ${name} -->`);
  return from !== -1 && doc.indexOf(`<!-- /${name} -->`, from) !== -1;
};

/** `doc` with the text between the markers of `name` replaced; throws if the page has no such markers. */
export function withBlock(doc: string, name: string, block: string): string {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const from = doc.indexOf(open);
  const to = from === -1 ? -1 : doc.indexOf(close, from);
  if (to === -1) throw new Error(`the page has no ${open} … ${close} markers to write between`);
  return `${doc.slice(0, from + open.length)}\n${block}\n${doc.slice(to)}`;
}

/** The text between the markers of `name`, without the line breaks next to them. */
export function blockOf(doc: string, name: string): string | undefined {
  if (!hasBlock(doc, name)) return undefined;
  const open = `<!-- ${name} -->`;
  const from = doc.indexOf(open) + open.length;
  return doc.slice(from, doc.indexOf(`<!-- /${name} -->`, from)).replace(/^\n|\n$/g, '');
}
