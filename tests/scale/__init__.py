"""Several server processes on PostgreSQL and Redis."""
