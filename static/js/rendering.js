// A document page while its PDF renders: ask the page again every 3 seconds,
// quietly, and show it once the PDF is ready (no timed page refresh, WCAG
// 2.2.1). Without JavaScript the "Check again" link does the same.
(function () {
  "use strict";
  var box = document.querySelector("[data-rendering]");
  if (!box) return;
  var url = box.getAttribute("data-rendering");
  var tries = 0;
  function check() {
    tries += 1;
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        if (html.indexOf("data-rendering=") === -1) {
          window.location.reload();
        } else if (tries < 100) {
          window.setTimeout(check, 3000);
        }
      })
      .catch(function () { if (tries < 100) window.setTimeout(check, 6000); });
  }
  window.setTimeout(check, 3000);
})();
