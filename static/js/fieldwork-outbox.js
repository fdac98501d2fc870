/* Sending what an inspector recorded on the phone (issue 31): the records kept
   in IndexedDB ("ms4-fieldwork", store "records") and their photos, one at a
   time, each with the key made for it on the phone, so that sending twice
   stores one (kernel.idempotency). Used by the page (js/fieldwork.js) while it
   is open, and by its service worker (fieldwork/sw.js) on a background sync,
   when the signal returns with the page closed: both read and write the same
   records, so the page shows what the service worker sent.

   self.fieldworkDatabase(): the database (idb), opened as the page and the
   worker both keep it: "package" (the day's work, the CSRF token) and
   "records" (by key).

   self.fieldworkOutbox({db, sendUrl, photosUrl, csrfToken, changed, signedOut})
   - db: fieldworkDatabase(); sendUrl, photosUrl (with KEY for the
     record's key); csrfToken(): the token to send;
   - changed(): after each record or photo changes state (the page redraws);
   - signedOut(): the office answered 401 (the session ended).
   Returns {allRecords, putRecord, unsent, sendWaiting(user)};
   sendWaiting resolves {tried, failed} (failed: no answer or 5xx, to retry). */
(function (scope) {
  "use strict";

  var UNSENT = { waiting: true, sending: true, refused: true };
  var SIGNED_OUT = "signed out";

  scope.fieldworkDatabase = function () {
    return scope.idb.openDB("ms4-fieldwork", 1, {
      upgrade: function (base) {
        base.createObjectStore("package");
        base.createObjectStore("records", { keyPath: "key" });
      }
    });
  };

  scope.fieldworkOutbox = function (options) {
    var db = options.db;
    var changed = options.changed || function () { return Promise.resolve(); };

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

    function stored(record) {
      return putRecord(record).then(changed);
    }

    // A record is unsent while it, or one of its photos, waits.
    function photosWaiting(record) {
      return (record.photos || []).some(function (p) { return p.state !== "sent" && p.state !== "refused"; });
    }

    function unsent(record) {
      return UNSENT[record.state] || photosWaiting(record);
    }

    function signedOut() {
      return Promise.resolve(options.signedOut && options.signedOut()).then(function () {
        throw new Error(SIGNED_OUT);
      });
    }

    function post(url, init) {
      init.method = "POST";
      init.credentials = "same-origin";
      init.headers = init.headers || {};
      init.headers["X-CSRFToken"] = options.csrfToken();
      return fetch(url, init);
    }

    // The office's answer to a record: null when signed out; an error (to
    // try again) when it did not answer or answered 5xx.
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

    function photoAnswer(photo, response) {
      if (response.status === 401) { return Promise.resolve(null); }
      if (response.status >= 500) { throw new Error(String(response.status)); }
      return response.json().then(function (body) {
        if (response.ok) {
          photo.state = "sent";
          photo.words = "sent, " + body.state_words;
          photo.blob = null;  // the office has it: the phone's copy is let go
        } else {
          photo.state = "refused";
          photo.words = [body.message].concat(Object.keys(body.errors || {}).map(function (f) {
            return body.errors[f].join(" ");
          })).filter(Boolean).join(" ");
        }
        return photo;
      });
    }

    // After the record has its answer: its photos, one at a time.
    function sendPhotos(record) {
      var url = options.photosUrl.replace("KEY", encodeURIComponent(record.key));
      return (record.photos || []).filter(function (p) { return p.state === "waiting"; })
        .reduce(function (chain, photo) {
          return chain.then(function () {
            var body = new FormData();
            body.append("key", photo.key);
            body.append("photo", photo.blob, photo.name);
            return post(url, { body: body }).then(function (response) {
              return photoAnswer(photo, response);
            }).then(function (done) {
              return done === null ? signedOut() : stored(record);
            });
          });
        }, Promise.resolve());
    }

    function sendOne(record) {
      if (record.state === "sent" || record.state === "attention") { return sendPhotos(record); }
      record.state = "sending";
      return stored(record).then(function () {
        return post(options.sendUrl, {
          headers: { "Content-Type": "application/json" },
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
          return putRecord(record).then(signedOut);
        }
        return stored(done).then(function () {
          return done.state === "refused" ? null : sendPhotos(done);
        });
      }, function (error) {
        record.state = "waiting";
        record.message = "Not sent yet: it will be sent when the office answers.";
        return stored(record).then(function () { throw error; });
      });
    }

    // The records `user` made that wait, one at a time; one that does not get
    // through (its answer lost, the office busy) waits for the next round
    // without holding the others. Rejects when the session ended.
    function sendWaiting(user) {
      return allRecords().then(function (records) {
        var mine = records.filter(function (r) {
          return r.user === user && (r.state === "waiting" || r.state === "sending" || photosWaiting(r));
        });
        var failed = 0;
        return mine.reduce(function (chain, record) {
          return chain.then(function () {
            return sendOne(record).catch(function (error) {
              if (error.message === SIGNED_OUT) { throw error; }
              failed += 1;
            });
          });
        }, Promise.resolve()).then(function () {
          return { tried: mine.length, failed: failed };
        });
      });
    }

    return {
      allRecords: allRecords,
      putRecord: putRecord,
      unsent: unsent,
      sendWaiting: sendWaiting
    };
  };
}(self));
