// The service worker: every file of this build, cached under its version,
// served from the cache (the app starts with the network off once it has
// loaded). A new build installs beside the old one and takes over on the next
// start, once no page of the old one is open: never in the middle of a game.
const VERSION = "__VERSION__";
const FILES = __FILES__;

self.addEventListener("install", (e) => {
  // Past the browser's HTTP cache, which may still hold the build before's
  // files (they are kept a day): this build's cache holds this build.
  const files = ["./", ...FILES].map((f) => new Request(f, { cache: "reload" }));
  e.waitUntil(caches.open(VERSION).then((c) => c.addAll(files)));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k)))));
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== self.location.origin) return;
  e.respondWith(caches.open(VERSION).then((c) => c.match(e.request, { ignoreSearch: true }))
    .then((hit) => hit || fetch(e.request)));
});
