/* Signing out deletes what the field-work page kept on this phone (issue 31): the
   day's work downloaded and the records made on site. When records are not sent
   yet (js/fieldwork.js counts them), it asks first; they are never dropped
   silently. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-signout]");
  if (!form) { return; }
  var UNSENT_KEY = "ms4-fieldwork-unsent";

  function forget() {
    var done = [];
    try { window.localStorage.removeItem(UNSENT_KEY); } catch (e) { /* private mode */ }
    if (window.indexedDB) {
      done.push(new Promise(function (resolve) {
        var request = window.indexedDB.deleteDatabase("ms4-fieldwork");
        request.onsuccess = request.onerror = request.onblocked = resolve;
      }));
    }
    if (window.caches) { done.push(window.caches.delete("fieldwork-page").catch(function () {})); }
    // Never hold the sign-out for long.
    done.push(new Promise(function (resolve) { window.setTimeout(resolve, 1500); }));
    return Promise.race([Promise.all(done.slice(0, -1)), done[done.length - 1]]);
  }

  form.addEventListener("submit", function (event) {
    if (form.dataset.forgotten === "yes" || !window.Promise) { return; }
    var kept = null;
    try { kept = window.localStorage.getItem(UNSENT_KEY); } catch (e) { kept = null; }
    if (kept === null) { return; }  // the field-work page never kept anything here
    var unsent = parseInt(kept, 10) || 0;
    if (unsent > 0 && !window.confirm(
      unsent + " record(s) made on this phone are not sent yet. Signing out deletes them " +
      "from this phone. Sign out anyway?")) {
      event.preventDefault();
      return;
    }
    event.preventDefault();
    forget().then(function () {
      form.dataset.forgotten = "yes";
      form.submit();
    });
  });
}());
