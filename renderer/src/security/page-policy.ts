// Imported first by main.ts, so that it runs before any other module of the page: run-time <style>
// elements apply under the page's CSP only with the page's nonce.
import { pageCspNonce, stampStyleNonces } from './style-nonce';

stampStyleNonces(document.head, pageCspNonce());
