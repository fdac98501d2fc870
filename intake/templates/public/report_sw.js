{% load static %}/* The service worker of the report form (issue 31): when the signal returns
   with the form closed, the browser wakes it (a background sync, where the
   browser has it) and it sends the reports kept on this phone
   (js/report-outbox.js keeps them in IndexedDB), each with the key made for it,
   so a report the page sends again later is still stored once. A report the
   site stored is marked with its tracking code, which the form shows when it
   is opened next; one the site answers with something to correct waits for the
   form to show it. */
importScripts(
  "{% static 'vendor/idb/idb.umd.js' %}",
  "{% static 'js/report-entries.js' %}"
);

var FORM = "{{ form_url|escapejs }}";
var SYNC_TAG = "report-send";
var STORE = reportEntries.STORE;
var db = reportEntries.openDatabase();

// The form open on screen sends by itself.
function formOnScreen() {
  return self.clients.matchAll({ type: "window" }).then(function (windows) {
    return windows.some(function (w) {
      return w.visibilityState === "visible" && new URL(w.url).pathname === FORM;
    });
  });
}

function sendOne(record) {
  return fetch(FORM, {
    method: "POST",
    credentials: "same-origin",
    body: reportEntries.formData(record.entries, "")
  }).then(function (response) {
    if (response.status >= 500) { throw new Error(String(response.status)); }
    if (!response.redirected) { return null; }  // something to correct: the form shows it
    return response.text().then(function (html) {
      record.sent = { code: reportEntries.trackingCode(html), at: Date.now() };
      return db.then(function (base) { return base.put(STORE, record); });
    });
  });
}

// Oldest first; one that does not get through fails the sync, so that the
// browser tries again later.
function sendKept() {
  return db.then(function (base) { return base.getAll(STORE); }).then(function (records) {
    return records
      .filter(function (r) { return !r.sent; })
      .sort(function (a, b) { return a.savedAt - b.savedAt; })
      .reduce(function (chain, record) {
        return chain.then(function () { return sendOne(record); });
      }, Promise.resolve());
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag !== SYNC_TAG) { return; }
  event.waitUntil(formOnScreen().then(function (onScreen) {
    return onScreen ? null : sendKept();
  }));
});

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
