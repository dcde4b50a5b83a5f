"""Alembic's environment: run programmatically by `db.migrate` on a connection it hands over."""

from __future__ import annotations

from alembic import context

from teocalli.server.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
