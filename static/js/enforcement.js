// Enforcement screens: choosing the notice on the appeal form reloads it with
// that notice's parties (no inline script: CSP is script-src 'self').
(function () {
  "use strict";
  var form = document.getElementById("appeal-form");
  if (!form || form.method.toLowerCase() !== "get") return;
  var select = form.querySelector("select[name=notice]");
  if (select) {
    select.addEventListener("change", function () {
      if (select.value) form.submit();
    });
  }
})();
