"""Server-side sessions: the cookie holds only a random id; the server can end a session at once.

A session remembers the user's *stamp* (a digest of the stored role and password hash, see
:class:`~hintline.web._users.User`). Every request looks the user up again in the users file:
a removed user, a new password or a new role (``hintline users add`` writes a new hash) changes
or removes the stamp, and the session ends on that request, in every process that reads the file.
Logout deletes the session from the store, so a copy of the cookie made before logout is dead.

Sessions live in the serving process's memory: a restart logs everyone out.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hintline.web._security import new_token

__all__ = ["Session", "SessionStore"]


@dataclass
class Session:
    """One logged-in browser.

    Attributes:
        sid: the id in the cookie (random, 256 bits).
        user: the user's name.
        stamp: the user's stamp at login.
        csrf: the token every form of this session posts back.
        created: when it was made (the store's clock).
        seen: when it was last used.
    """

    sid: str
    user: str
    stamp: str
    csrf: str
    created: float
    seen: float


class SessionStore:
    """The sessions of one server, bounded in number and in time.

    Args:
        max_age: a session ends this many seconds after login, however busy.
        idle: a session ends after this many seconds without a request.
        max_sessions: the oldest sessions are dropped beyond this many.
        clock: the time source (tests move it).
    """

    def __init__(
        self,
        *,
        max_age: float = 8 * 3600,
        idle: float = 3600,
        max_sessions: int = 1000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_age = max_age
        self.idle = idle
        self.max_sessions = max_sessions
        self.clock = clock
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, user: str, stamp: str) -> Session:
        """A new session for ``user``."""
        now = self.clock()
        session = Session(new_token(), user, stamp, new_token(), now, now)
        with self._lock:
            self._sessions[session.sid] = session
            if len(self._sessions) > self.max_sessions:
                for sid in sorted(self._sessions, key=lambda s: self._sessions[s].seen)[
                    : len(self._sessions) - self.max_sessions
                ]:
                    del self._sessions[sid]
        return session

    def get(self, sid: str | None) -> Session | None:
        """The live session with this id, or ``None`` (unknown, ended or expired)."""
        if not sid:
            return None
        now = self.clock()
        with self._lock:
            session = self._sessions.get(sid)
            if session is None:
                return None
            if now - session.created >= self.max_age or now - session.seen >= self.idle:
                del self._sessions[sid]
                return None
            session.seen = now
            return session

    def end(self, sid: str | None) -> None:
        """End one session (logout)."""
        if sid:
            with self._lock:
                self._sessions.pop(sid, None)

    def end_user(self, user: str) -> int:
        """End every session of ``user``; return how many there were."""
        with self._lock:
            gone = [sid for sid, s in self._sessions.items() if s.user == user]
            for sid in gone:
                del self._sessions[sid]
        return len(gone)

    def __len__(self) -> int:
        return len(self._sessions)
