// The page's CSP applies no inline <style> element without this response's nonce. naive-ui and vueuc
// build their style sheets in the browser and insert them into <head> through css-render, which has
// no nonce option; so each <style> element inserted into <head> gets the page's nonce as it goes in.
// Style elements written into markup, or inserted anywhere else, stay refused.

/** The nonce the host put in this copy of the page (meta csp-nonce); '' when there is none. */
export function pageCspNonce(doc: Document = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
}

/** Gives every <style> element inserted into `head` the nonce before the browser applies it. */
export function stampStyleNonces(head: HTMLHeadElement, nonce: string): void {
  if (!nonce) return;
  const stamp = (node: Node): void => {
    if (node instanceof HTMLStyleElement && !node.nonce) node.nonce = nonce;
  };
  const insertBefore = head.insertBefore.bind(head);
  const appendChild = head.appendChild.bind(head);
  head.insertBefore = <T extends Node>(node: T, child: Node | null): T => {
    stamp(node);
    return insertBefore(node, child);
  };
  head.appendChild = <T extends Node>(node: T): T => {
    stamp(node);
    return appendChild(node);
  };
}
