"""The administrator-only web page: ``hintline serve`` (the ``web`` extra).

Starlette was chosen for its size: an ASGI toolkit with server-rendered Jinja2 templates, cookies
and a test client, without an ORM or a plugin system the page does not need. Sessions are kept on
the server (:mod:`._sessions`), hints are made in the background (:mod:`._jobs`).
"""

from __future__ import annotations

from hintline.web._app import Settings, create_app

__all__ = ["Settings", "create_app"]
