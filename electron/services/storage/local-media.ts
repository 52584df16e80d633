/** Every distinct local file reference (a file: URL) in a JSON value, in the order first met. */
export function localReferences(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.startsWith('file:')) found.add(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return [...found];
}

/** A copy of a JSON value with each string found in `links` replaced by its link. */
export function replaceReferences(value: unknown, links: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return links.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceReferences(v, links));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceReferences(v, links)]));
  return value;
}
