/* The inspector's day without signal (issue 31).

   "Take today's work offline" downloads the inspector's inspections of the next
   days and the outfalls to screen (fieldwork/package.py) into this browser's
   IndexedDB (idb, static/vendor/idb). Each visit or screening recorded here is
   saved on the phone at once, listed as waiting, and sent by itself when there
   is signal: on "Send now", when the phone comes back online, every half minute
   while the page is open and when the page is opened. Each record carries the
   key made for it here, so a record sent twice is stored once
   (kernel.idempotency). The office's answer is shown beside the record: sent,
   kept for the SMO (the office changed the item since the download), or what to
   correct (then "Correct it" opens it again, nothing else lost).

   The service worker (fieldwork/templates/fieldwork/sw.js, Workbox) keeps this
   page and its files, so the page opens without signal. Signing out deletes
   what is kept here (js/signout-guard.js warns first when records are unsent). */
(function () {
  "use strict";

  var root = document.getElementById("fieldwork");
  if (!root || !window.idb || !window.fetch || !window.indexedDB || !window.Promise) { return; }

  var USER = root.dataset.user;
  var RETRY_MS = 30000;
  var UNSENT_KEY = "ms4-fieldwork-unsent";
  var UNSENT = { waiting: true, sending: true, refused: true };
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

  var db = window.idb.openDB("ms4-fieldwork", 1, {
    upgrade: function (base) {
      base.createObjectStore("package");
      base.createObjectStore("records", { keyPath: "key" });
    }
  });

  var el = function (id) { return document.getElementById(id); };
  var status = el("fw-status");
  var editor = el("fw-editor");
  var forms = { visit: el("fw-visit"), screening: el("fw-screening") };
  var sending = false;
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
  function getPackage() {
    return db.then(function (base) { return base.get("package", "day"); });
  }

  function allRecords() {
    return db.then(function (base) { return base.getAll("records"); }).then(function (rows) {
      return rows.sort(function (a, b) {
        return a.recorded_on_site_at < b.recorded_on_site_at ? -1 : 1;
      });
    });
  }

  function putRecord(record) {
    return db.then(function (base) { return base.put("records", record); });
  }

  // --- the lists -------------------------------------------------------------------
  function line(parent, text, className) {
    if (text) { parent.appendChild(node("div", text, className || "small")); }
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
    return Promise.all([getPackage(), allRecords()]).then(function (both) {
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
      var outbox = el("fw-outbox");
      outbox.textContent = "";
      records.forEach(function (record) { outbox.appendChild(renderRecord(record, items)); });
      el("fw-outbox-empty").classList.toggle("d-none", records.length > 0);
      var unsent = records.filter(function (r) { return UNSENT[r.state]; }).length;
      try { window.localStorage.setItem(UNSENT_KEY, String(unsent)); } catch (e) { /* private mode */ }
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

  function save(event) {
    event.preventDefault();
    var form = event.target;
    if (!form.reportValidity()) { return; }
    var kind = editing.kind;
    var item = editing.item;
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
      errors: {}
    };
    putRecord(record).then(function () {
      editor.classList.add("d-none");
      editing = null;
      return render();
    }).then(function () {
      say(navigator.onLine
        ? "Saved on this phone; sending…"
        : "Saved on this phone. It will be sent when you are back online.", "success");
      sendAll();
    });
  }

  // --- sending -----------------------------------------------------------------------
  function answer(record, response) {
    if (response.status === 401) { return null; }
    if (response.status >= 500) { throw new Error(String(response.status)); }
    return response.json().then(function (body) {
      if (response.ok) {
        record.state = body.state === "applied" ? "sent" : "attention";
        record.message = body.state === "applied" ? "" : body.problem;
        record.errors = {};
      } else {
        record.state = "refused";
        record.message = body.message || "Refused.";
        record.errors = body.errors || {};
      }
      return record;
    });
  }

  function sendOne(record) {
    record.state = "sending";
    return putRecord(record).then(render).then(function () {
      return fetch(root.dataset.sendUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({
          key: record.key,
          kind: record.kind,
          item: record.item,
          version: record.version,
          recorded_on_site_at: record.recorded_on_site_at,
          fields: record.fields
        })
      });
    }).then(function (response) {
      return answer(record, response);
    }).then(function (done) {
      if (done === null) {
        record.state = "waiting";
        return putRecord(record).then(signedOut).then(function () { throw new Error("signed out"); });
      }
      return putRecord(done);
    }, function (error) {
      record.state = "waiting";
      record.message = "Not sent yet: it will be sent when the office answers.";
      return putRecord(record).then(function () { throw error; });
    });
  }

  function sendAll() {
    if (sending || !navigator.onLine) { return; }
    sending = true;
    allRecords().then(function (records) {
      var mine = records.filter(function (r) {
        return r.user === USER && (r.state === "waiting" || r.state === "sending");
      });
      var failed = 0;
      // One at a time; one that does not get through (its answer lost, the
      // office busy) waits for the next round without holding the others.
      return mine.reduce(function (chain, record) {
        return chain.then(function () {
          return sendOne(record).catch(function (error) {
            if (error.message === "signed out") { throw error; }
            failed += 1;
          });
        });
      }, Promise.resolve()).then(function () {
        if (!mine.length) { return; }
        if (failed) {
          say(failed + " record(s) did not get through; they are sent again by themselves, or press Send now.", "warning");
        } else {
          say("Sent. The office's answer is beside each record.", "success");
        }
      });
    }).catch(function () {
      /* signed out: the records are kept until the inspector signs in again */
    }).then(function () {
      sending = false;
      return render();
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
  window.setInterval(sendAll, RETRY_MS);
  keepPageOffline();
  render().then(sendAll);
}());
