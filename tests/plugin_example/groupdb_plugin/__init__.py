"""A research group's own database as a citecheck-tex source, and a CSV report."""
