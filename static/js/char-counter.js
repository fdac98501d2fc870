/* A character counter under each <textarea data-char-counter maxlength="N">.
   Progressive enhancement: without this script the field still has its
   maxlength and the server checks the length. The count is the server's: a
   line break is sent as two characters (CR LF), an emoji counts as one. */
(function () {
  "use strict";

  function serverLength(text) {
    return Array.from(text.replace(/\r?\n/g, "\r\n")).length;
  }

  function words(left) {
    if (left >= 0) {
      return left.toLocaleString("en-US") + (left === 1 ? " character left" : " characters left");
    }
    var over = -left;
    return over.toLocaleString("en-US") + (over === 1 ? " character too many" : " characters too many");
  }

  function attach(field) {
    var limit = parseInt(field.getAttribute("maxlength"), 10);
    if (!limit) { return; }
    var shown = document.createElement("p");
    shown.className = "form-text char-counter";
    shown.id = (field.id || field.name) + "-counter";
    shown.setAttribute("data-counter-for", field.name);
    // Screen readers hear the count after a pause in typing, not at every key.
    var spoken = document.createElement("p");
    spoken.className = "visually-hidden";
    spoken.setAttribute("aria-live", "polite");
    field.insertAdjacentElement("afterend", spoken);
    field.insertAdjacentElement("afterend", shown);
    var described = field.getAttribute("aria-describedby");
    field.setAttribute("aria-describedby", (described ? described + " " : "") + shown.id);

    var pause = null;
    function update(announce) {
      var left = limit - serverLength(field.value);
      shown.textContent = words(left) + " (of " + limit.toLocaleString("en-US") + ")";
      shown.classList.toggle("text-danger", left < 0);
      if (announce) {
        window.clearTimeout(pause);
        pause = window.setTimeout(function () { spoken.textContent = words(left); }, 1000);
      }
    }
    field.addEventListener("input", function () { update(true); });
    update(false);
  }

  var fields = document.querySelectorAll("textarea[data-char-counter][maxlength]");
  for (var i = 0; i < fields.length; i++) { attach(fields[i]); }
})();
