"""Balance reports: the statistics of a simulation or of two compared (stats), and
HTML pages with plots (html, plots; these need matplotlib, the `report` extra)."""
