"""The web table: an HTTP + WebSocket server where people play each other and the bots.

`create_app(database_url)` builds the Starlette app; `teocalli serve` runs it with uvicorn.
"""

from .app import create_app

__all__ = ["create_app"]
