{% load static %}/* The service worker of the inspector's field-work page (issue 31): it keeps
   the page and its static files, so that the page opens without signal.
   Workbox from npm, served from our own static files (static/vendor/workbox). The
   day's work and the records made on site live in IndexedDB (js/fieldwork.js). */
importScripts("{% static 'vendor/workbox/workbox-sw.js' %}");

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

workbox.core.skipWaiting();
workbox.core.clientsClaim();
