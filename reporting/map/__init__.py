"""The map of the village (issue 17): the staff map's layers and the public map
of reports, as GeoJSON built in `geo`, drawn by static/js/map.js."""
