/* The report form's enhancements. Without this script the form still works:
   the address field is enough, and the 911 warning is repeated by the server. */
(function () {
  "use strict";

  var form = document.getElementById("report-form");
  if (!form) { return; }

  // --- the key that makes a resend one report (kernel.idempotency) ------------
  // Made once per report on this phone. The server echoes it while nothing was
  // stored, so pressing "Send" again after the signal dropped stores the report
  // once; after a refusal it comes back empty and a new one is made.
  var clientKey = form.querySelector('input[name="client_key"]');
  if (clientKey && !clientKey.value) { clientKey.value = newKey(); }
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // --- the 911 warning, repeated when a hazardous category is ticked ---------
  var hazardBox = document.getElementById("hazard-repeat");
  function updateHazard() {
    var picked = form.querySelectorAll('input[name="pollutant_categories"][data-hazardous="true"]:checked');
    if (hazardBox) { hazardBox.classList.toggle("d-none", picked.length === 0); }
  }
  form.addEventListener("change", function (event) {
    if (event.target && event.target.name === "pollutant_categories") { updateHazard(); }
  });
  updateHazard();

  // --- photo count ------------------------------------------------------------
  var photos = form.querySelector('input[name="photos"]');
  var photoCount = document.getElementById("photo-count");
  if (photos && photoCount) {
    photos.addEventListener("change", function () {
      var n = photos.files ? photos.files.length : 0;
      photoCount.textContent = n > 5 ? "Please choose at most 5 photos (" + n + " chosen)." :
        (n ? n + (n === 1 ? " photo" : " photos") + " chosen." : "");
    });
  }

  // --- the map pin --------------------------------------------------------------
  var mapBox = document.getElementById("report-map");
  var lat = form.querySelector('input[name="latitude"]');
  var lng = form.querySelector('input[name="longitude"]');
  if (!mapBox || !lat || !lng || typeof window.L === "undefined") { return; }
  var L = window.L;
  var d = mapBox.dataset;
  var bounds = L.latLngBounds([parseFloat(d.south), parseFloat(d.west)], [parseFloat(d.north), parseFloat(d.east)]);
  var status = document.getElementById("pin-status");
  var useLocation = document.getElementById("use-location");
  var clearPin = document.getElementById("clear-pin");

  mapBox.classList.remove("d-none");
  document.getElementById("map-help").classList.remove("d-none");
  mapBox.tabIndex = 0;

  var map = L.map(mapBox, { maxBounds: bounds.pad(0.5), minZoom: 12 })
    .setView([parseFloat(d.centreLat), parseFloat(d.centreLng)], 15);
  if (d.tileUrl) {
    L.tileLayer(d.tileUrl, { maxZoom: 19, attribution: "&copy; map contributors" }).addTo(map);
  }
  // The area a pin is accepted in (cases.reports.validation.BOUNDS, from the
  // data- attributes: the same box the server checks).
  L.rectangle(bounds, { color: "#0d6efd", weight: 2, fill: false, interactive: false }).addTo(map);
  // The village outline, and without tiles its street names (static/js/map.js,
  // static/geo/poquott.geojson): landmarks to place the pin by.
  if (window.PoquottMap && d.geoUrl) { window.PoquottMap.drawBase(map, d.geoUrl, { labels: !d.tileUrl }); }
  L.circleMarker([parseFloat(d.centreLat), parseFloat(d.centreLng)], { radius: 4, interactive: false })
    .addTo(map).bindTooltip("Village Hall", { permanent: !d.tileUrl, direction: "right" });

  var marker = null;
  function show(message) { if (status) { status.textContent = message; } }
  function setPin(latlng, fromUser) {
    if (!bounds.contains(latlng)) {
      show("That spot is outside the Village of Poquott; tap inside the blue outline, or type the address.");
      return;
    }
    lat.value = latlng.lat.toFixed(6);
    lng.value = latlng.lng.toFixed(6);
    if (marker) { marker.setLatLng(latlng); } else {
      marker = L.marker(latlng, { draggable: true, keyboard: true, title: "Where you saw it" }).addTo(map);
      marker.on("dragend", function () { setPin(marker.getLatLng(), true); });
    }
    if (clearPin) { clearPin.classList.remove("d-none"); }
    show("Pin set at " + lat.value + ", " + lng.value + ".");
    if (fromUser) { mapBox.dataset.pinned = "true"; }
  }
  map.on("click", function (event) { setPin(event.latlng, true); });
  if (lat.value && lng.value) { setPin(L.latLng(parseFloat(lat.value), parseFloat(lng.value)), false); }

  // Keyboard: Enter drops the pin at the centre of the view.
  mapBox.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); setPin(map.getCenter(), true); }
  });

  if (clearPin) {
    clearPin.addEventListener("click", function () {
      if (marker) { map.removeLayer(marker); marker = null; }
      lat.value = ""; lng.value = "";
      clearPin.classList.add("d-none");
      show("Pin removed.");
    });
  }
  if (useLocation && navigator.geolocation) {
    useLocation.classList.remove("d-none");
    useLocation.addEventListener("click", function () {
      show("Finding your location…");
      navigator.geolocation.getCurrentPosition(function (pos) {
        var here = L.latLng(pos.coords.latitude, pos.coords.longitude);
        setPin(here, true);
        if (bounds.contains(here)) { map.setView(here, 17); }
      }, function () { show("Your location is not available; tap the map or type the address."); },
      { enableHighAccuracy: true, timeout: 10000 });
    });
  }
})();
