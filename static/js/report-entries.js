/* A resident's report kept on the phone (issue 31), as the page
   (js/report-outbox.js) and its service worker (public/report_sw.js) both
   send it: the form's fields as [name, value] pairs, photos as files.

   self.reportEntries.formData(entries, token): a sending of the kept report,
   with `token` as its CSRF token (the page's, which may be newer than the kept
   one), or the kept token when none is given.
   self.reportEntries.trackingCode(html): the tracking code on the page the
   site answers with once it has stored the report ("" when not found).
   self.reportEntries.openDatabase(): where the page and the worker keep the
   reports (idb), in the store reportEntries.STORE, by key. */
(function (scope) {
  "use strict";

  var TOKEN = "csrfmiddlewaretoken";

  function formData(entries, token) {
    var data = new FormData();
    entries.forEach(function (pair) {
      if (pair[0] === TOKEN && token) { return; }
      if (pair[1] instanceof Blob) { data.append(pair[0], pair[1], pair[1].name || ""); }
      else { data.append(pair[0], pair[1]); }
    });
    if (token) { data.append(TOKEN, token); }
    return data;
  }

  function trackingCode(html) {
    var found = /id="tracking-code">\s*([^<\s]+)\s*</.exec(html || "");
    return found ? found[1] : "";
  }

  var STORE = "reports";

  function openDatabase() {
    return scope.idb.openDB("poquott-reports-waiting", 1, {
      upgrade: function (base) { base.createObjectStore(STORE, { keyPath: "key" }); }
    });
  }

  scope.reportEntries = {
    formData: formData,
    trackingCode: trackingCode,
    openDatabase: openDatabase,
    STORE: STORE
  };
}(self));
