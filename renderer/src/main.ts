import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';

// The web host's address carries an access token; once the page has loaded, the host has set a cookie,
// so the token is taken out of the address bar (and out of history, bookmarks and screenshots).
const url = new URL(window.location.href);
if (url.searchParams.has('token')) {
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

createApp(App).use(createPinia()).mount('#app');
