/* Keeps a resident's report on the phone until the site has it (issue 31).

   The report form is sent with fetch(). When the phone is offline, or the site
   does not answer, or answers 5xx (a database restarting), the answers and
   photos stay in this browser's IndexedDB (idb, static/vendor/idb) and are sent
   again when the connection comes back, on "Send now", every half minute while
   the page is open, and when the report form is opened again. Each report
   carries the key report-form.js made for it, so a report sent twice is stored
   once (kernel.idempotency). What the site answers is what the resident sees:
   the report's page with its tracking code, or the form with what to correct.
   With the form closed, its service worker (public/report_sw.js) sends them on
   a background sync when the signal returns, where the browser has it; the
   form then says, when opened next, that the report went, with its code.
   Without this script, IndexedDB or fetch, the form is sent as a plain form. */
(function () {
  "use strict";

  var form = document.getElementById("report-form");
  var box = document.getElementById("outbox-status");
  if (!form || !box || !window.idb || !window.reportEntries || !window.fetch ||
      !window.indexedDB || !window.FormData || !window.Promise) { return; }

  var STORE = window.reportEntries.STORE;
  var RETRY_MS = 30000;
  var SYNC_TAG = "report-send";
  var backgroundSync = "serviceWorker" in navigator && "SyncManager" in window;
  var text = document.getElementById("outbox-text");
  var sendNow = document.getElementById("outbox-send");
  var sending = false;
  var timer = null;
  var typing = false;  // the resident has started another report on this page
  form.addEventListener("input", function () { typing = true; });
  var db = window.reportEntries.openDatabase();

  function show(message, canSend) {
    text.textContent = message;
    sendNow.classList.toggle("d-none", !canSend);
    box.classList.remove("d-none");
    box.scrollIntoView({ block: "nearest" });
  }

  // The form's fields as [name, value] pairs; photos are kept as files.
  function entriesOf(data) {
    var out = [];
    data.forEach(function (value, name) { out.push([name, value]); });
    return out;
  }

  // A sending of a kept report, with this page's CSRF token (the kept one may
  // be older than the cookie).
  function formDataOf(entries) {
    var token = form.querySelector('input[name="csrfmiddlewaretoken"]');
    return window.reportEntries.formData(entries, token ? token.value : "");
  }

  // With the form closed, the service worker sends when the signal returns.
  // True once the browser has promised to; false where it cannot: no
  // background sync, or a service worker not installed yet (the phone lost
  // its signal before it was). Then the form sends when opened again.
  function sendLater() {
    if (!backgroundSync) { return Promise.resolve(false); }
    return navigator.serviceWorker.getRegistration(box.dataset.formUrl)
      .then(function (registration) {
        if (!registration || !registration.active) { return false; }
        return registration.sync.register(SYNC_TAG).then(function () { return true; });
      })
      .catch(function () { return false; });
  }

  // Put a kept report's answers and photos back in the form (a report kept on an
  // earlier visit, which the site answered with something to correct).
  function fill(entries) {
    var files = {};
    entries.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (name === "csrfmiddlewaretoken") { return; }
      if (value instanceof Blob) {
        if (value.size) { (files[name] = files[name] || []).push(value); }
        return;
      }
      form.querySelectorAll('[name="' + name + '"]').forEach(function (field) {
        if (field.type === "checkbox" || field.type === "radio") {
          if (field.value === value) { field.checked = true; }
        } else if (field.type !== "file") {
          field.value = value;
        }
      });
    });
    Object.keys(files).forEach(function (name) {
      var input = form.querySelector('input[type="file"][name="' + name + '"]');
      if (!input || !window.DataTransfer) { return; }
      var list = new DataTransfer();
      files[name].forEach(function (file) { list.items.add(file); });
      input.files = list.files;
    });
  }

  // One sending: "stored" (go to the report's page), "answered" (the site sent
  // the form back with something to correct) or "waiting" (no answer, or 5xx).
  function send(record) {
    return fetch(form.action, {
      method: "POST", body: formDataOf(record.entries), credentials: "same-origin"
    }).then(function (response) {
      if (response.status >= 500) { return { state: "waiting" }; }
      return { state: response.redirected ? "stored" : "answered", url: response.url };
    }, function () { return { state: "waiting" }; });
  }

  // Say "even if you close this page" only when the browser will send it.
  function waiting() {
    window.clearTimeout(timer);
    timer = window.setTimeout(sendWaiting, RETRY_MS);
    return sendLater().then(function (later) {
      if (sending) { return; }  // sent again meanwhile: that says what happened
      show(later
        ? "Saved on this phone. It will be sent when you are back online, even if " +
          "you close this page."
        : "Saved on this phone. It will be sent when you are back online: keep " +
          "this page open, or open the report form again later.", true);
    });
  }

  function currentKey() {
    var key = form.querySelector('input[name="client_key"]');
    return key ? key.value : "";
  }

  // `record` is the report on screen (its key is the form's), or one kept on
  // an earlier visit.
  function attempt(record) {
    if (sending) { return Promise.resolve(); }
    var onScreen = record.key === currentKey();
    sending = true;
    show("Sending your report…", false);
    return send(record).then(function (result) {
      sending = false;
      if (result.state === "waiting") { waiting(); return null; }
      if (result.state === "answered" && !onScreen && typing) {
        // Its answers would replace the ones being typed: keep it for later.
        show("A report saved on this phone earlier needs a correction: send " +
             "this one first, then open the report form again to see it.", false);
        return null;
      }
      return db.then(function (base) { return base.delete(STORE, record.key); })
        .then(function () {
          if (result.state === "stored") {
            if (onScreen || !typing) { window.location.assign(result.url); return; }
            // Never take away a report being typed: say the kept one went.
            show("The report saved on this phone earlier has been sent.", false);
            var link = document.createElement("a");
            link.href = result.url;
            link.textContent = "See its tracking code";
            text.appendChild(document.createTextNode(" "));
            text.appendChild(link);
            return;
          }
          // The site's answer is the form with what to correct: send it as a
          // plain form so the page shows the site's own messages.
          if (!onScreen) { fill(record.entries); }
          form.submit();
        });
    });
  }

  // The oldest report kept on this phone, sent again.
  function sendWaiting() {
    return db.then(function (base) { return base.getAll(STORE); }).then(function (records) {
      records = records.filter(function (r) { return !r.sent; });
      if (!records.length) { return null; }
      records.sort(function (a, b) { return a.savedAt - b.savedAt; });
      return attempt(records[0]);
    });
  }

  form.addEventListener("submit", function (event) {
    var key = form.querySelector('input[name="client_key"]');
    if (!key || !key.value) { return; }  // no key: a plain form
    event.preventDefault();
    var record = { key: key.value, entries: entriesOf(new FormData(form)), savedAt: Date.now() };
    db.then(function (base) { return base.put(STORE, record); })
      .then(function () { return attempt(record); },
            function () { form.submit(); });  // the phone cannot keep it: send it plainly
  });

  sendNow.addEventListener("click", sendWaiting);
  window.addEventListener("online", sendWaiting);

  // A report the service worker sent while the form was closed: say so, with
  // its tracking code, and let it go.
  function sentMeanwhile(records) {
    var sent = records.filter(function (r) { return r.sent; });
    if (!sent.length) { return Promise.resolve(); }
    show("", false);
    sent.forEach(function (record) {
      var line = document.createElement("span");
      line.className = "d-block";
      line.dataset.testid = "sent-meanwhile";
      line.textContent = "The report saved on this phone " +
        new Date(record.savedAt).toLocaleString() + " has been sent. Its tracking code is " +
        (record.sent.code || "in the e-mail we sent, if you gave an address") + ". ";
      if (record.sent.code) {
        var link = document.createElement("a");
        link.href = box.dataset.statusUrl + "?code=" + encodeURIComponent(record.sent.code);
        link.textContent = "Check its status";
        line.appendChild(link);
      }
      text.appendChild(line);
    });
    return db.then(function (base) {
      return Promise.all(sent.map(function (r) { return base.delete(STORE, r.key); }));
    });
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(box.dataset.swUrl, { scope: box.dataset.formUrl })
      .catch(function () { /* the form sends by itself while open */ });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "hidden") { return; }
    db.then(function (base) { return base.count(STORE); }).then(function (count) {
      if (count) { sendLater(); }
    });
  });

  // Reports kept on an earlier visit: say so, and send them.
  db.then(function (base) { return base.getAll(STORE); }).then(function (records) {
    return sentMeanwhile(records).then(function () {
      return records.filter(function (r) { return !r.sent; }).length;
    });
  }).then(function (count) {
    if (!count) { return; }
    show(count === 1 ? "A report saved on this phone is waiting to be sent." :
         count + " reports saved on this phone are waiting to be sent.", true);
    if (navigator.onLine !== false) { sendWaiting(); }
  });
})();
