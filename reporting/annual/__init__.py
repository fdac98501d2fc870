"""The annual MS4 report, its IDDE part (issue 17): counts computed from the
records as they stood at a moment (`selectors`), the reporting year
(`year`), the frozen report (`models.AnnualReport`, `services`), its charts
(`charts`, server-rendered SVG) and its document facts (`documents`)."""
