import { describe, expect, it } from 'vitest';
import { pageCspNonce, stampStyleNonces } from '@/security/style-nonce';

describe('run-time style nonce', () => {
  it('reads the nonce the host put in the page', () => {
    const doc = document.implementation.createHTMLDocument('page');
    expect(pageCspNonce(doc)).toBe('');
    const meta = doc.createElement('meta');
    meta.setAttribute('property', 'csp-nonce');
    meta.nonce = 'abc123';
    doc.head.appendChild(meta);
    expect(pageCspNonce(doc)).toBe('abc123');
  });

  it('gives the nonce to each <style> inserted into <head>, and to nothing else', () => {
    const doc = document.implementation.createHTMLDocument('page');
    stampStyleNonces(doc.head, 'n0nce');
    const anchor = doc.createElement('meta');
    doc.head.appendChild(anchor);
    const before = doc.createElement('style');
    doc.head.insertBefore(before, anchor);
    const appended = doc.createElement('style');
    doc.head.appendChild(appended);
    const own = doc.createElement('style');
    own.nonce = 'kept';
    doc.head.appendChild(own);
    const elsewhere = doc.createElement('style');
    doc.body.appendChild(elsewhere);
    // (happy-dom reports an absent nonce as undefined, a browser as '')
    expect([before, appended, own, elsewhere, anchor].map((e) => e.nonce || '')).toEqual([
      'n0nce',
      'n0nce',
      'kept',
      '',
      '',
    ]);
    expect([...doc.head.children].map((e) => e.tagName)).toEqual(['STYLE', 'META', 'STYLE', 'STYLE']);
  });

  it('changes nothing when the page has no nonce', () => {
    const doc = document.implementation.createHTMLDocument('page');
    const insert = doc.head.appendChild;
    stampStyleNonces(doc.head, '');
    expect(doc.head.appendChild).toBe(insert);
  });
});
