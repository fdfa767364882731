"""marshmallow schemas: the HTTP boundary's shapes, one module per group of routes, and nothing else."""
