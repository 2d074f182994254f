"""The ``loregraph`` command line (typer): :mod:`.app` mounts one sub-app per command group."""
