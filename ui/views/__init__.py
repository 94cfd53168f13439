"""One module per page; each exposes render(sel). Controls are frozen dataclasses."""
