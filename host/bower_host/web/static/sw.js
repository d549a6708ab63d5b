// The service worker: every file of this build, cached under its version,
// served from the cache (the app starts with the network off once it has
// loaded). A new build installs beside the old one and takes over on the next
// start, once no page of the old one is open: never in the middle of a game.
const VERSION = "__VERSION__";
const FILES = __FILES__;        // name: SHA-256 of this build's file

async function hex(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function keep(cache, url, sha) {
  // The browser's HTTP cache first (a first install: the page fetched it a
  // moment ago, no second download), then past it when that copy is not
  // this build's (it keeps files a day: an update). A copy that is still
  // not this build's fails the install (a site caught mid-upload): the next
  // start tries again, and the old build goes on meanwhile.
  for (const mode of ["default", "reload"]) {
    const r = await fetch(new Request(url, { cache: mode }));
    if (r.ok && await hex(r) === sha) return cache.put(url, r);
  }
  throw new Error(`${url}: not this build's file`);
}

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(VERSION).then((c) => Promise.all(
    [["./", FILES["index.html"]], ...Object.entries(FILES)].map(([f, sha]) => keep(c, f, sha)))));
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
