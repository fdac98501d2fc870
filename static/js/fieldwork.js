/* The inspector's day without signal (issue 31).

   "Take today's work offline" downloads the inspector's inspections of the next
   days and the outfalls to screen (fieldwork/package.py) into this browser's
   IndexedDB (idb, static/vendor/idb). Each visit or screening recorded here is
   saved on the phone at once, listed as waiting, and sent by itself when there
   is signal: on "Send now", when the phone comes back online, every half minute
   while the page is open and when the page is opened; with the page closed, by
   the service worker on a background sync (js/fieldwork-outbox.js does the
   sending for both). Each record carries the
   key made for it here, so a record sent twice is stored once
   (kernel.idempotency). The office's answer is shown beside the record: sent,
   kept for the SMO (the office changed the item since the download), or what to
   correct (then "Correct it" opens it again, nothing else lost).

   Photos taken with a record are made smaller here (at most PHOTO_SIDE pixels
   on the long side, JPEG, which also leaves the camera's metadata behind),
   kept with the record as it waits, and sent one by one after its record has
   its answer, each with its own key.

   The service worker (fieldwork/templates/fieldwork/sw.js, Workbox) keeps this
   page and its files, so the page opens without signal. Signing out deletes
   what is kept here (js/signout-guard.js warns first when records are unsent). */
(function () {
  "use strict";

  var root = document.getElementById("fieldwork");
  if (!root || !window.idb || !window.fieldworkOutbox || !window.fetch || !window.indexedDB ||
      !window.Promise) { return; }

  var USER = root.dataset.user;
  var RETRY_MS = 30000;
  var PHOTO_SIDE = 1600;
  var UNSENT_KEY = "ms4-fieldwork-unsent";
  var WORDS = {
    waiting: "waiting to send",
    sending: "sending",
    sent: "sent",
    attention: "kept for the SMO",
    refused: "needs attention"
  };
  var BADGES = {
    waiting: "bg-secondary", sending: "bg-info text-dark", sent: "bg-success",
    attention: "bg-warning text-dark", refused: "bg-danger"
  };

  var db = window.fieldworkDatabase();

  var el = function (id) { return document.getElementById(id); };
  var status = el("fw-status");
  var editor = el("fw-editor");
  var forms = { visit: el("fw-visit"), screening: el("fw-screening") };
  var SYNC_TAG = "fieldwork-send";
  var sending = false;
  var again = false;  // "Send now" (or the signal back) while a round was on
  var editing = null;  // {kind, item, key} of the record in the editor

  function say(message, kind) {
    status.textContent = message;
    status.className = "alert alert-" + (kind || "info");
  }

  function node(tag, text, className) {
    var made = document.createElement(tag);
    if (text) { made.textContent = text; }
    if (className) { made.className = className; }
    return made;
  }

  function button(text, className, onClick) {
    var made = node("button", text, className);
    made.type = "button";
    made.addEventListener("click", onClick);
    return made;
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // --- what is kept on the phone ------------------------------------------------
  var outbox = window.fieldworkOutbox({
    db: db,
    sendUrl: root.dataset.sendUrl,
    photosUrl: root.dataset.photosUrl,
    csrfToken: csrfToken,
    changed: function () { return render(); },
    signedOut: function () { return signedOut(); }
  });
  var putRecord = outbox.putRecord;

  function getPackage() {
    return db.then(function (base) { return base.get("package", "day"); });
  }

  // --- the lists -------------------------------------------------------------------
  function line(parent, text, className) {
    if (text) { parent.appendChild(node("div", text, className || "small")); }
  }

  // The last visit's or screening's photos, kept on the phone as thumbnails.
  function thumbnails(parent, photos, what) {
    if (!photos || !photos.length) { return; }
    var row = node("div", "", "d-flex flex-wrap gap-2 my-1");
    row.dataset.testid = "fw-thumbnails";
    photos.forEach(function (photo) {
      var img = node("img", "", "rounded");
      img.src = photo.src;
      img.width = photo.width;
      img.height = photo.height;
      img.alt = photo.caption || what;
      row.appendChild(img);
    });
    parent.appendChild(row);
  }

  function renderInspection(item) {
    var li = node("li", "", "list-group-item");
    li.dataset.testid = "fw-inspection-" + item.id;
    li.appendChild(node("strong", item.kind + " inspection · " + item.scheduled_words));
    line(li, [item.premises, item.facility, item.case].filter(Boolean).join(" · "));
    line(li, item.purpose);
    if (item.parties.length) {
      line(li, "Parties: " + item.parties.map(function (p) {
        return p.name + " (" + p.role + ")";
      }).join("; "));
    }
    item.requirements.forEach(function (r) {
      line(li, r.notice + ", " + r.requirement + ": " + r.particulars);
    });
    item.deadlines.forEach(function (d) { line(li, d.label + ": by " + d.due); });
    if (item.last_visit) {
      line(li, "Last visit " + item.last_visit.when + " (" + item.last_visit.access + "): " +
        (item.last_visit.findings || "no findings written"));
      thumbnails(li, item.last_visit.photos, "Photo of the last visit");
    }
    li.appendChild(button("Record the visit", "btn btn-primary btn-sm mt-2", function () {
      openEditor("visit", item, null);
    }));
    return li;
  }

  function renderOutfall(item) {
    var li = node("li", "", "list-group-item");
    li.dataset.testid = "fw-outfall-" + item.id;
    li.appendChild(node("strong", "Outfall " + item.code));
    line(li, [item.location, item.receiving_water].filter(Boolean).join(" · "));
    line(li, item.last_screening
      ? "Last screened " + item.last_screening.when + ": " + item.last_screening.severity
      : "Never screened.");
    if (item.last_screening) { thumbnails(li, item.last_screening.photos, "Photo of the last screening"); }
    li.appendChild(button("Record a screening", "btn btn-primary btn-sm mt-2", function () {
      openEditor("screening", item, null);
    }));
    return li;
  }

  function renderRecord(record, items) {
    var li = node("li", "", "list-group-item");
    li.dataset.testid = "fw-record";
    li.dataset.state = record.state;
    var badge = node("span", WORDS[record.state] || record.state, "badge me-2 " + (BADGES[record.state] || ""));
    li.appendChild(badge);
    li.appendChild(node("strong", record.label));
    line(li, "Recorded on this phone " + new Date(record.recorded_on_site_at).toLocaleString());
    if (record.user !== USER) {
      line(li, "Recorded by " + record.user + ": they sign in on this phone to send it.", "small text-danger");
    }
    line(li, record.message, record.state === "refused" ? "small text-danger" : "small");
    Object.keys(record.errors || {}).forEach(function (field) {
      line(li, labelOf(record.kind, field) + ": " + record.errors[field].join(" "), "small text-danger");
    });
    (record.photos || []).forEach(function (photo, index) {
      var row = node("div", "Photo " + (index + 1) + " (" + photo.name + "): " +
        (photo.words || WORDS[photo.state] || photo.state), "small" + (photo.state === "refused" ? " text-danger" : ""));
      row.dataset.testid = "fw-photo";
      row.dataset.state = photo.state;
      if (photo.state === "refused") {
        row.appendChild(document.createTextNode(" "));
        row.appendChild(button("Remove it", "btn btn-link btn-sm p-0 align-baseline", function () {
          record.photos = record.photos.filter(function (p) { return p.key !== photo.key; });
          putRecord(record).then(render);
        }));
      }
      li.appendChild(row);
    });
    if (record.state === "refused" && record.user === USER) {
      li.appendChild(button("Correct it", "btn btn-outline-primary btn-sm mt-2", function () {
        openEditor(record.kind, items[record.kind + record.item] || {
          id: record.item, version: record.version, title: record.label
        }, record);
      }));
    }
    return li;
  }

  function labelOf(kind, field) {
    var label = forms[kind] && forms[kind].querySelector('label[for="' + kind + "_" + field + '"]');
    return label ? label.textContent.replace("*", "").trim() : field.replace(/_/g, " ");
  }

  function render() {
    return Promise.all([getPackage(), outbox.allRecords()]).then(function (both) {
      var day = both[0];
      var records = both[1];
      var items = {};
      var inspections = el("fw-inspections");
      var outfalls = el("fw-outfalls");
      inspections.textContent = "";
      outfalls.textContent = "";
      if (day && day.user === USER) {
        el("fw-downloaded").textContent = "Downloaded " + day.downloaded_words + ": " +
          day.inspections.length + " inspection(s), " + day.outfalls.length + " outfall(s).";
        day.inspections.forEach(function (item) {
          items["visit" + item.id] = item;
          inspections.appendChild(renderInspection(item));
        });
        day.outfalls.forEach(function (item) {
          items["screening" + item.id] = item;
          outfalls.appendChild(renderOutfall(item));
        });
        if (!day.inspections.length) { inspections.appendChild(node("li", "No inspection assigned to you in the next days.", "list-group-item text-muted")); }
      } else {
        el("fw-downloaded").textContent = "Nothing downloaded on this phone yet.";
      }
      var list = el("fw-outbox");
      list.textContent = "";
      records.forEach(function (record) { list.appendChild(renderRecord(record, items)); });
      el("fw-outbox-empty").classList.toggle("d-none", records.length > 0);
      var waiting = records.filter(outbox.unsent).length;
      try { window.localStorage.setItem(UNSENT_KEY, String(waiting)); } catch (e) { /* private mode */ }
    });
  }

  // --- the download ----------------------------------------------------------------
  function signedOut() {
    return db.then(function (base) { return base.delete("package", "day"); }).then(render).then(function () {
      say("You are signed out: the work downloaded was removed from this phone. What you " +
        "recorded here stays until you sign in again and it is sent.", "warning");
    });
  }

  function download() {
    if (!navigator.onLine) {
      say("No signal: download when you have signal. What was downloaded before stays on this phone.", "warning");
      return;
    }
    say("Downloading…");
    fetch(root.dataset.dayUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 401 || response.status === 403) { return signedOut(); }
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.json().then(function (day) {
          day.user = USER;
          return db.then(function (base) { return base.put("package", day, "day"); })
            .then(render)
            .then(function () {
              say("Downloaded: " + day.inspections.length + " inspection(s) and " +
                day.outfalls.length + " outfall(s) are on this phone.", "success");
            });
        });
      })
      .catch(function () {
        say("The download did not finish: try again. What was downloaded before stays on this phone.", "warning");
      });
  }

  // --- the editor ------------------------------------------------------------------
  function sampleRow(values) {
    var row = el("fw-sample-row").content.firstElementChild.cloneNode(true);
    row.querySelector('[name="parameter"]').value = (values && values.parameter) || "";
    row.querySelector('[name="bottle"]').value = (values && values.bottle) || "";
    el("fw-samples").appendChild(row);
  }

  function openEditor(kind, item, record) {
    editing = { kind: kind, item: item, key: record ? record.key : null, record: record };
    var form = forms[kind];
    Object.keys(forms).forEach(function (k) { forms[k].classList.toggle("d-none", k !== kind); });
    form.reset();
    form.querySelector(".fw-photos").value = "";
    el("fw-samples").textContent = "";
    el("fw-editor-h").textContent = record ? "Correct: " + record.label : titleOf(kind, item);
    var fields = record ? record.fields : {};
    Object.keys(fields).forEach(function (name) {
      var input = form.elements[name];
      if (!input || name === "samples") { return; }
      if (input.type === "checkbox") { input.checked = !!fields[name]; } else { input.value = fields[name]; }
    });
    (fields.samples || []).forEach(sampleRow);
    locate(editing);
    editor.classList.remove("d-none");
    editor.scrollIntoView({ block: "start" });
    var first = form.querySelector("input, select, textarea");
    if (first) { first.focus(); }
  }

  // The phone's position, when the inspector allows it: asked as the form opens,
  // so that saving never waits for it.
  function locate(target) {
    var shown = el("fw-position");
    var kept = target.record && target.record.fields.position;
    if (kept) {
      target.position = kept;
      shown.textContent = "Position kept: ±" + Math.round(kept.accuracy) + " m.";
      return;
    }
    if (!navigator.geolocation) { shown.textContent = "This phone gives no position."; return; }
    shown.textContent = "Finding the position…";
    navigator.geolocation.getCurrentPosition(function (found) {
      target.position = {
        latitude: found.coords.latitude,
        longitude: found.coords.longitude,
        accuracy: found.coords.accuracy
      };
      shown.textContent = "Position found: ±" + Math.round(found.coords.accuracy) + " m.";
    }, function () {
      shown.textContent = "No position (not allowed or not found): the record is saved without it.";
    }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 120000 });
  }

  function titleOf(kind, item) {
    return kind === "visit"
      ? "Inspection " + item.id + " · " + item.premises
      : "Outfall " + item.code + " screening";
  }

  function fieldsOf(form) {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.closest(".fw-sample")) { return; }
      fields[input.name] = input.type === "checkbox" ? input.checked : input.value;
    });
    if (form === forms.visit) {
      fields.samples = Array.prototype.map.call(el("fw-samples").querySelectorAll(".fw-sample"), function (row) {
        return {
          parameter: row.querySelector('[name="parameter"]').value.trim(),
          bottle: row.querySelector('[name="bottle"]').value.trim()
        };
      }).filter(function (s) { return s.parameter || s.bottle; });
    }
    return fields;
  }

  function withPosition(fields, position) {
    if (position) { fields.position = position; }
    return fields;
  }

  // A photo made smaller on the phone: drawn on a canvas at most PHOTO_SIDE on
  // its long side and kept as a JPEG (no camera metadata). A file the phone
  // cannot draw is kept as it is: the office says what is wrong with it.
  function smaller(file) {
    if (!window.createImageBitmap) { return Promise.resolve(file); }
    return window.createImageBitmap(file).then(function (bitmap) {
      var scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      if (bitmap.close) { bitmap.close(); }
      return new Promise(function (resolve) {
        canvas.toBlob(function (blob) { resolve(blob || file); }, "image/jpeg", 0.85);
      });
    }, function () { return file; });
  }

  function photosOf(form) {
    var files = Array.prototype.slice.call(form.querySelector(".fw-photos").files || []);
    return Promise.all(files.map(function (file) {
      return smaller(file).then(function (blob) {
        return { key: newKey(), name: file.name || "photo.jpg", blob: blob, state: "waiting", words: "" };
      });
    }));
  }

  function save(event) {
    event.preventDefault();
    var form = event.target;
    if (!form.reportValidity()) { return; }
    var kind = editing.kind;
    var item = editing.item;
    var kept = editing.record ? (editing.record.photos || []) : [];
    var record = {
      key: editing.key || newKey(),
      user: USER,
      kind: kind,
      item: item.id,
      version: item.version,
      label: editing.record ? editing.record.label : titleOf(kind, item),
      recorded_on_site_at: editing.record ? editing.record.recorded_on_site_at : new Date().toISOString(),
      fields: withPosition(fieldsOf(form), editing.position),
      state: "waiting",
      message: "",
      errors: {},
      photos: kept
    };
    var saved = editing;
    var button = form.querySelector('button[type="submit"]');
    button.disabled = true;  // the photos take a moment to make smaller
    say("Saving on this phone…");
    photosOf(form).then(function (taken) {
      record.photos = kept.concat(taken);
      return putRecord(record);
    }).then(function () {
      button.disabled = false;
      if (editing === saved) {  // not another item opened meanwhile
        editor.classList.add("d-none");
        editing = null;
      }
      return render();
    }).then(function () {
      say(navigator.onLine
        ? "Saved on this phone; sending…"
        : "Saved on this phone. It will be sent when you are back online.", "success");
      sendAll();
    });
  }

  // --- sending (js/fieldwork-outbox.js) ----------------------------------------------
  // With the page closed, the service worker sends when the signal returns
  // (a background sync, where the browser has it).
  function sendLater() {
    if (!("serviceWorker" in navigator)) { return; }
    navigator.serviceWorker.getRegistration(root.dataset.pageUrl).then(function (registration) {
      return registration && registration.sync && registration.sync.register(SYNC_TAG);
    }).catch(function () { /* no background sync: the page sends when opened */ });
  }

  function sendAll() {
    if (sending) { again = true; return; }  // one more round after this one
    if (!navigator.onLine) { sendLater(); return; }
    sending = true;
    again = false;
    outbox.sendWaiting(USER).then(function (result) {
      if (!result.tried) { return; }
      if (result.failed) {
        sendLater();
        say(result.failed + " record(s) did not get through; they are sent again by themselves, or press Send now.", "warning");
      } else {
        say("Sent. The office's answer is beside each record.", "success");
      }
    }).catch(function () {
      /* signed out: the records are kept until the inspector signs in again */
    }).then(function () {
      sending = false;
      return render();
    }).then(function () {
      if (again) { sendAll(); }
    });
  }

  // --- the service worker keeps the page and its files -------------------------------
  function keepPageOffline() {
    if (!("serviceWorker" in navigator) || !window.caches) { return; }
    navigator.serviceWorker.register(root.dataset.swUrl, { scope: root.dataset.pageUrl })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function () {
        if (!navigator.onLine) { return; }
        var files = Array.prototype.map.call(
          document.querySelectorAll("script[src], link[rel='stylesheet'][href]"),
          function (e) { return e.src || e.href; });
        return Promise.all([
          caches.open("fieldwork-static").then(function (c) { return c.addAll(files); }),
          caches.open("fieldwork-page").then(function (c) { return c.add(root.dataset.pageUrl); })
        ]).then(function () { root.dataset.offlineReady = "yes"; });
      })
      .catch(function () { /* the page still works while online */ });
  }

  el("fw-download").addEventListener("click", download);
  el("fw-send").addEventListener("click", function () {
    if (!navigator.onLine) { say("No signal: the records wait on this phone.", "warning"); return; }
    sendAll();
  });
  el("fw-add-sample").addEventListener("click", function () { sampleRow(null); });
  Object.keys(forms).forEach(function (k) { forms[k].addEventListener("submit", save); });
  Array.prototype.forEach.call(document.querySelectorAll(".fw-close"), function (b) {
    b.addEventListener("click", function () { editor.classList.add("d-none"); editing = null; });
  });
  window.addEventListener("online", sendAll);
  // Put away or closed with something unsent: the service worker takes over.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "hidden") { return; }
    outbox.allRecords().then(function (records) {
      if (records.some(outbox.unsent)) { sendLater(); }
    });
  });
  window.setInterval(sendAll, RETRY_MS);
  // The service worker sends with the token of the last page opened.
  db.then(function (base) { return base.put("package", csrfToken(), "csrf"); });
  keepPageOffline();
  render().then(sendAll);
}());
