// A background job's page (issue 29): ask its JSON status every 2 seconds and
// move the progress bar and its sentence (read out by screen readers, politely);
// when the file is ready show the download link, when it failed the reason and
// "Try again". No reload; without JavaScript the "Check again" link does it.
(function () {
  "use strict";
  var box = document.querySelector("[data-job-status]");
  if (!box) return;
  var url = box.getAttribute("data-job-status");
  var bar = box.querySelector("progress");
  var text = box.querySelector("[data-job-text]");
  var download = box.querySelector("[data-job-download]");
  var failed = box.querySelector("[data-job-failed]");
  var check = box.querySelector("[data-job-check]");
  var tries = 0;
  function again(delay) {
    if (tries < 1800) window.setTimeout(ask, delay);
  }
  function show(status) {
    box.setAttribute("data-state", status.state);
    if (bar) {
      bar.value = status.percent;
      bar.textContent = status.percent + "%";
    }
    if (text.textContent !== status.text) text.textContent = status.text;
    if (status.done) {
      var link = download.querySelector("a");
      if (link && status.download) link.setAttribute("href", status.download);
      download.hidden = false;
    }
    if (status.failed) {
      if (bar) bar.hidden = true;
      failed.hidden = false;
    }
    if ((status.done || status.failed) && check) check.hidden = true;
  }
  function ask() {
    tries += 1;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (!r.ok) throw new Error("status " + r.status);
        return r.json();
      })
      .then(function (status) {
        show(status);
        if (!status.done && !status.failed) again(2000);
      })
      .catch(function () { again(5000); });
  }
  again(1000);
})();
