"""``hintline users``: manage the web page's users (argon2 password hashes)."""

from __future__ import annotations

import argparse
import getpass
import sys

from hintline.cli._io import error

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``users`` subcommand."""
    p = sub.add_parser(
        "users",
        help="manage the users of the web page",
        description="Add, remove or list the users of the error hints page (`hintline serve`); "
        "passwords are stored as argon2 hashes. Needs the web extra: pip install 'hintline[web]'.",
    )
    p.add_argument("--users", help="users file (default: see the README)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser(
        "add",
        help="add or replace a user (prompts for the password)",
        description="Add a user, or replace one of that name; the password is asked twice on a "
        "terminal, else read from the first line of standard input.",
    )
    add.add_argument("name")
    add.add_argument("--role", choices=("admin", "viewer"), default="viewer")
    add.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    rm = actions.add_parser("remove", help="remove a user", description="Remove a user.")
    rm.add_argument("name")
    actions.add_parser(
        "list", help="list the users and their roles", description="List the users and their roles."
    )
    p.set_defaults(func=run)


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin or not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("Password: ")
    if first != getpass.getpass("Repeat: "):
        raise ValueError("the passwords differ")
    return first


def run(args: argparse.Namespace) -> int:
    """Run the users action."""
    from hintline.exceptions import ConfigError
    from hintline.web._users import UserStore, default_users_path  # the `web` extra

    store = UserStore(default_users_path(args.users))
    try:
        if args.action == "add":
            replaced = args.name in store.names()
            user = store.add(args.name, _password(args), args.role)
            note = "; their open sessions end" if replaced else ""
            print(f"{user.name}: {user.role} (in {store.path}{note})")
        elif args.action == "remove":
            if not store.remove(args.name):
                error("users", f"no user {args.name!r} in {store.path}")
                return 1
            print(f"removed {args.name} (a running page ends their sessions on their next request)")
        else:
            for name in store.names():
                found = store.get(name)
                print(f"{name}\t{found.role if found else 'invalid role'}")
    except (ConfigError, ValueError, OSError) as exc:
        error("users", f"{exc}")
        return 2
    return 0
