/* tactica's service worker, served at /sw.js (its scope: the whole app). It keeps one
 * page, /offline, with its style and script, and shows it when a page cannot be loaded
 * because the server is unreachable. Nothing else is kept: every page and every number
 * comes from the server, so a phone never shows an old result as current. */
"use strict";
const VERSION = "__VERSION__";
const CACHE = "tactica-offline-" + VERSION;
const KEPT = ["/offline", `/static/style.css?v=${VERSION}`, `/static/site.js?v=${VERSION}`,
              "/static/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tactica-") && k !== CACHE)
                                    .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {  // a page: the server's, or the offline page
    event.respondWith(fetch(request).catch(() => caches.match("/offline")));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && KEPT.includes(url.pathname + url.search)) {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});
