// The appeal page while its notice of hearing renders (data-rendering="true"):
// ask its JSON status every 3 seconds, quietly, and reload the page once the
// PDF is ready, so the page offers "Record the sending" (no timed page refresh,
// WCAG 2.2.1). Without JavaScript the "Check again" link does the same.
(function () {
  "use strict";
  var box = document.querySelector("[data-hearing-notice-status][data-rendering='true']");
  if (!box) return;
  var url = box.getAttribute("data-hearing-notice-status");
  var tries = 0;
  function again(delay) {
    if (tries < 100) window.setTimeout(check, delay);
  }
  function check() {
    tries += 1;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (!r.ok) throw new Error("status " + r.status);
        return r.json();
      })
      .then(function (status) {
        if (status.rendering) {
          again(3000);
        } else {
          box.setAttribute("data-rendering", "false");
          window.location.reload();
        }
      })
      .catch(function () { again(6000); });
  }
  again(3000);
})();
