// sw.js: the web board's service worker (issue 44, item 6), served at
// /sw.js with no-cache so the browser sees a new build at its next load.
// mk/embed.c writes in the build's hash (the /s/<hash>/ of its files) and
// the list of those files: they are precached in a cache named after the
// build and served from it first (a hashed name never changes). The page
// (/) is asked of the server first, its copy kept; when the server cannot
// be reached the kept page is served with its note that the board needs
// the server shown (#offline in index.html). A new build's worker takes
// over at once and deletes every other cache, so no old page or file
// outlives an upgrade past the load that brought it.
const BUILD = '@BUILD@';
const ASSETS = ['@ASSETS@'];
const CACHE = `gomokud-${BUILD}`;

self.addEventListener('install', (e) => {
  e.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...ASSETS, '/']);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The kept page with its offline note shown.
async function offlineShell(cache) {
  const kept = await cache.match('/');
  if (!kept) return Response.error();
  const html = (await kept.text()).replace(/(id="offline"[^>]*) hidden/, '$1');
  return new Response(new Blob([html], { type: kept.headers.get('content-type') }));
}

async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put('/', answer.clone());
    return answer;
  } catch {
    return offlineShell(cache);
  }
}

async function file(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok && ASSETS.includes(new URL(request.url).pathname)) await cache.put(request, answer.clone());
  return answer;
}

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname === '/') e.respondWith(page(e.request));
  else if (url.pathname.startsWith('/s/')) e.respondWith(file(e.request));
});
