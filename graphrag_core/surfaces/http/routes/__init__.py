"""The HTTP routes, one module per resource group; each parses, calls the service, renders."""
