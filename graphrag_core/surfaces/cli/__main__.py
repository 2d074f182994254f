"""``python -m graphrag_core.surfaces.cli``: the ``loregraph`` command line."""

from graphrag_core.surfaces.cli.app import app

app()
