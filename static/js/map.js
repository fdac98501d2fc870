/* The village's maps (issue 17). Two parts:
   - PoquottMap.drawBase: the offline base map (static/geo/poquott.geojson): the
     village outline, and without tiles the street names as permanent labels.
     The report form (report-form.js) draws it too.
   - the staff map and the public map: a page with #village-map and a
     json_script #map-layers ([{key, label, url}]) gets one overlay per layer,
     fetched as GeoJSON, with a layer control and a popup per point.
   No inline script anywhere (CSP): all data comes from data- attributes, the
   json_script block and same-origin fetches. Popups are built as DOM text,
   never HTML, because addresses are typed by residents. */
(function () {
  "use strict";
  if (typeof window.L === "undefined") { return; }
  var L = window.L;

  var BASE_STYLE = {
    outline: { className: "map-outline", color: "#2b6e4f", weight: 2, dashArray: "6 4", fill: true, fillColor: "#f3f7f1", fillOpacity: 0.7 },
    street: { className: "map-street", color: "#8a8f96", weight: 4, opacity: 0.9 }
  };

  function drawBase(map, url, options) {
    var labels = !(options && options.labels === false);
    if (!url || !window.fetch) { return Promise.resolve(null); }
    return fetch(url, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) { return null; }
        var layer = L.geoJSON(data, {
          interactive: false,
          style: function (feature) { return BASE_STYLE[feature.properties.kind] || BASE_STYLE.street; },
          pointToLayer: function (feature, latlng) {
            return L.circleMarker(latlng, { radius: 0, opacity: 0, fillOpacity: 0, interactive: false });
          },
          onEachFeature: function (feature, part) {
            var kind = feature.properties.kind;
            if (labels && (kind === "street" || kind === "water")) {
              part.bindTooltip(feature.properties.name, {
                permanent: true, direction: "center", interactive: false,
                className: "map-label map-label-" + kind
              });
            }
          }
        }).addTo(map);
        layer.bringToBack();
        return layer;
      })
      .catch(function () { return null; });
  }

  window.PoquottMap = { drawBase: drawBase };

  // --- the staff and public maps -----------------------------------------------
  var COLOURS = {
    cases: "#0d6efd", reports: "#6f42c1", public: "#6f42c1",
    due: "#198754", overdue: "#d63384",
    unscreened: "#6c757d", none: "#20c997", potential: "#ffc107", suspect: "#fd7e14", obvious: "#dc3545"
  };

  function colourOf(layerKey, properties) {
    if (layerKey === "outfalls" || layerKey === "inspections") {
      return COLOURS[properties.style] || COLOURS.unscreened;
    }
    return COLOURS[layerKey] || COLOURS.cases;
  }

  function publicLines(p) {
    var when = "";
    if (p.requested_datetime) {
      when = "Reported " + new Date(p.requested_datetime).toLocaleDateString("en-US", {
        timeZone: "America/New_York", weekday: "short", month: "short", day: "numeric", year: "numeric"
      });
    }
    return [p.status_notes, p.address, when];
  }

  function popupOf(feature) {
    var p = feature.properties || {};
    var box = document.createElement("div");
    box.className = "map-popup";
    var title = document.createElement("strong");
    title.textContent = p.title || p.service_name || "Report";
    box.appendChild(title);
    (p.details !== undefined ? String(p.details).split("\n") : publicLines(p)).forEach(function (line) {
      if (!line) { return; }
      var row = document.createElement("div");
      row.textContent = line;
      box.appendChild(row);
    });
    if (p.url) {
      var link = document.createElement("a");
      link.href = p.url;
      link.textContent = p.link || "Open the record";
      box.appendChild(link);
    }
    return box;
  }

  function start(box, layers) {
    var d = box.dataset;
    var bounds = L.latLngBounds([parseFloat(d.south), parseFloat(d.west)], [parseFloat(d.north), parseFloat(d.east)]);
    var status = document.getElementById("map-status");
    box.classList.remove("d-none");
    var map = L.map(box, { maxBounds: bounds.pad(0.5), minZoom: 12 })
      .setView([parseFloat(d.centreLat), parseFloat(d.centreLng)], 15);
    if (d.tileUrl) {
      L.tileLayer(d.tileUrl, { maxZoom: 19, attribution: "&copy; map contributors" }).addTo(map);
    }
    drawBase(map, d.geoUrl, { labels: !d.tileUrl });
    var control = L.control.layers(null, null, {
      collapsed: false,
      sortLayers: true,  // in the page's order, whichever layer loads first
      sortFunction: function (a, b) { return a.mapOrder - b.mapOrder; }
    }).addTo(map);
    var shown = {};
    var failed = [];

    function say() {
      if (!status) { return; }
      var parts = layers.map(function (layer) {
        return layer.label + ": " + (layer.key in shown ? shown[layer.key] : "loading…");
      });
      status.textContent = parts.join(" · ") + (failed.length ? " — could not load: " + failed.join(", ") + "." : "");
    }

    layers.forEach(function (layer, order) {
      // One pane per layer, above the street labels (650) and under the
      // popups (700), the first layer on top: where a case and an inspection
      // share a premises, the case is what a click opens first.
      var pane = map.createPane("points-" + layer.key);
      pane.style.zIndex = String(690 - order);
      var group = L.featureGroup().addTo(map);
      group.mapOrder = order;
      control.addOverlay(group, layer.label);
      fetch(layer.url, { credentials: "same-origin", headers: { Accept: "application/geo+json" } })
        .then(function (response) {
          if (!response.ok) { throw new Error(String(response.status)); }
          return response.json();
        })
        .then(function (data) {
          L.geoJSON(data, {
            pointToLayer: function (feature, latlng) {
              return L.circleMarker(latlng, {
                pane: "points-" + layer.key,
                radius: 8, weight: 2, color: "#ffffff", fillOpacity: 0.95,
                fillColor: colourOf(layer.key, feature.properties || {}),
                className: "map-point map-point-" + layer.key
              });
            },
            onEachFeature: function (feature, point) {
              point.bindPopup(function () { return popupOf(feature); });
            }
          }).addTo(group);
          shown[layer.key] = data.features.length + (data.truncated ? "+ (first shown)" : "");
          control.removeLayer(group);
          control.addOverlay(group, layer.label + " (" + shown[layer.key] + ")");
          box.dataset.loaded = String(Object.keys(shown).length);
          say();
        })
        .catch(function () {
          failed.push(layer.label);
          shown[layer.key] = "not loaded";
          say();
        });
    });
    say();
  }

  var box = document.getElementById("village-map");
  var config = document.getElementById("map-layers");
  if (box && config) { start(box, JSON.parse(config.textContent)); }
})();
