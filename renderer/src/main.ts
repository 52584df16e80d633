// First, before any other module runs: the page's CSP rules for run-time styles.
import './security/page-policy';
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { onEvent } from './bridge';
import { listenForVoiceovers } from './composables/editor-voiceover';
import { prepareFirstScreen } from './composables/first-screen';
import { waitForStartup } from './startup/wait-for-startup';
import { warmPreviewsAsYouEdit } from './composables/preview-warmup';
import { useEditorAssetsStore } from './stores/editor-assets';
import { useProjectStore } from './stores/project';

// The web host's address carries an access token; once the page has loaded, the host has set a cookie,
// so the token is taken out of the address bar (and out of history, bookmarks and screenshots).
const url = new URL(window.location.href);
if (url.searchParams.has('token')) {
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

const pinia = createPinia();
const app = createApp(App).use(pinia);
// A host still taking its records in (the first start after an update) shows how far it is first.
const root = document.getElementById('app') as HTMLElement;
void waitForStartup(root)
  .then(() => prepareFirstScreen(pinia))
  .then(() => app.mount(root));
// Finished voiceovers reach the open project whatever the page shows (the editor may not be mounted).
listenForVoiceovers(useProjectStore(pinia));
// Media are made ready for Preview while the user edits, not when they press it.
warmPreviewsAsYouEdit(useProjectStore(pinia));
// Uploaded avatars and cloned voices appear without a reload.
onEvent('catalogue.changed', () => void useEditorAssetsStore(pinia).load());
