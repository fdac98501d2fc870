{% load static %}/* The service worker of the inspector's field-work page (issue 31): it keeps
   the page and its static files, so that the page opens without signal, and
   sends the records made on site when the signal returns with the page closed
   (a background sync, where the browser has it). Workbox from npm, served from
   our own static files (static/vendor/workbox). The day's work and the records
   made on site live in IndexedDB (js/fieldwork.js, js/fieldwork-outbox.js). */
importScripts(
  "{% static 'vendor/workbox/workbox-sw.js' %}",
  "{% static 'vendor/idb/idb.umd.js' %}",
  "{% static 'js/fieldwork-outbox.js' %}"
);

var MODULES = {
  "workbox-core": "{% static 'vendor/workbox/workbox-core.prod.js' %}",
  "workbox-routing": "{% static 'vendor/workbox/workbox-routing.prod.js' %}",
  "workbox-strategies": "{% static 'vendor/workbox/workbox-strategies.prod.js' %}"
};
workbox.setConfig({ debug: false, modulePathCb: function (name) { return MODULES[name]; } });

var PAGE = "{{ page_url|escapejs }}";
var STATIC = "{% get_static_prefix %}";

// The page: the network when it answers within a few seconds, else the copy kept.
workbox.routing.registerRoute(
  function (o) { return o.request.mode === "navigate" && o.url.pathname === PAGE; },
  new workbox.strategies.NetworkFirst({
    cacheName: "fieldwork-page",
    networkTimeoutSeconds: 5,
    matchOptions: { ignoreVary: true }
  })
);
// Its scripts and styles (their names change with their contents).
workbox.routing.registerRoute(
  function (o) {
    return o.url.origin === self.location.origin && o.url.pathname.indexOf(STATIC) === 0;
  },
  new workbox.strategies.CacheFirst({
    cacheName: "fieldwork-static",
    matchOptions: { ignoreVary: true }
  })
);

// The records waiting, sent as the page sends them, for the inspector whose
// work is downloaded (none once signed out: sign-out deletes the database), with
// the CSRF token of the last page opened. What does not get through makes the
// sync fail, so that the browser tries again later.
var SYNC_TAG = "fieldwork-send";
var db = fieldworkDatabase();

function sendWaiting() {
  return db.then(function (base) {
    return Promise.all([base.get("package", "day"), base.get("package", "csrf")]);
  }).then(function (kept) {
    var day = kept[0];
    var token = kept[1] || "";
    if (!day || !day.user) { return; }
    return fieldworkOutbox({
      db: db,
      sendUrl: "{{ send_url|escapejs }}",
      photosUrl: "{{ photos_url|escapejs }}",
      csrfToken: function () { return token; },
      signedOut: function () {
        return db.then(function (base) { return base.delete("package", "day"); });
      }
    }).sendWaiting(day.user).then(function (result) {
      if (result.failed) { throw new Error(result.failed + " not sent"); }
    });
  });
}

// While the page is open on screen it sends by itself: the worker sends only
// for a page closed or put away.
function pageOnScreen() {
  return self.clients.matchAll({ type: "window" }).then(function (windows) {
    return windows.some(function (w) {
      return w.visibilityState === "visible" && new URL(w.url).pathname === PAGE;
    });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag !== SYNC_TAG) { return; }
  event.waitUntil(pageOnScreen().then(function (onScreen) {
    return onScreen ? null : sendWaiting();
  }));
});

workbox.core.skipWaiting();
workbox.core.clientsClaim();
