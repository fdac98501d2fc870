"""Open311 GeoReport v2 (http://wiki.open311.org/GeoReport_v2) at /open311/v2/."""
