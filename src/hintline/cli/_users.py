"""``hintline users``: manage the web page's users (argon2 password hashes)."""

from __future__ import annotations

import argparse
import getpass
import sys

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``users`` subcommand."""
    p = sub.add_parser("users", help="manage the users of the web page")
    p.add_argument("--users", help="users file (default: see the README)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="add or replace a user (prompts for the password)")
    add.add_argument("name")
    add.add_argument("--role", choices=("admin", "viewer"), default="viewer")
    add.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    rm = actions.add_parser("remove", help="remove a user")
    rm.add_argument("name")
    actions.add_parser("list", help="list the users and their roles")
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
    try:
        from hintline.exceptions import ConfigError
        from hintline.web._users import UserStore, default_users_path
    except ImportError as exc:
        print(f"hintline: {exc}", file=sys.stderr)
        return 2
    store = UserStore(default_users_path(args.users))
    try:
        if args.action == "add":
            replaced = args.name in store.names()
            user = store.add(args.name, _password(args), args.role)
            note = "; their open sessions end" if replaced else ""
            print(f"{user.name}: {user.role} (in {store.path}{note})")
        elif args.action == "remove":
            if not store.remove(args.name):
                print(f"hintline: no user {args.name!r} in {store.path}", file=sys.stderr)
                return 1
            print(f"removed {args.name} (a running page ends their sessions on their next request)")
        else:
            for name in store.names():
                found = store.get(name)
                print(f"{name}\t{found.role if found else 'invalid role'}")
    except (ConfigError, ValueError, OSError) as exc:
        print(f"hintline: {exc}", file=sys.stderr)
        return 2
    return 0
