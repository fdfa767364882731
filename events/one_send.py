"""The common write's one send: the append script run on one Redis in a single send, on a
connection this process keeps, with the writer's own work done while the script is on its way.

This is the write path's speed, set apart from its logic (``EventStore.append`` says what an
append does; docs/design.md lists each of these optimisations with its benchmark and its test):

- the command is packed by hiredis itself and sent on a connection an earlier append gave back,
  not checked out of the client's pool (whose poll and bookkeeping cost an append more than the
  rest of its own work);
- the work only a written batch needs (``meanwhile``: the writer's answer) runs between the send
  and the read of the reply;
- an append that carries a large projection (``events.defaults.CARRY_INLINE_BYTES``; a smaller
  one goes among the script's arguments) sends the HSET of it and the script as one transaction
  (MULTI, EXEC) in the same send: no other client's command comes between the two, so of two
  writers of one match at once the one whose append is written renames its own projection,
  never the other's;
- a write alone in its process sends its projection right behind the append instead
  (``then``, ``following``), worked out while Redis appends and sent before the append's reply
  is read, with its reply skipped (``CLIENT REPLY SKIP``): the write waits for one round trip
  and nothing is left to read on the connection.

Whatever goes wrong on the way (a connection lost, a server that no longer has the script) sends
the script again through the client, which loads the script and retries as it does for any
command, carrying no projection then (a carried hash left behind is replaced by the match's next
one): the version the batch is conditional on makes a repeated append a conflict, never a second
batch.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import hiredis
import redis
from redis.commands.core import Script

from events.defaults import CONNECTIONS_KEPT

_MULTI, _EXEC = hiredis.pack_command(("MULTI",)), hiredis.pack_command(("EXEC",))
_SKIP = hiredis.pack_command(("CLIENT", "REPLY", "SKIP"))  # type: ignore[arg-type]

# This process's id, as the kept connections are told apart by (``OneSend._checkout``): read
# again in every forked child, not asked of the system at each append.
_pid = os.getpid()


def _forked() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_forked)


class OneSend:
    """Runs one script on one Redis in one send, on connections this process keeps."""

    def __init__(self, client: redis.Redis, script: Script) -> None:
        self.client = client
        self.script = script
        # Connections of the client's pool whose last reply was read, kept for the next appends
        # of this process (``_checkout``).
        self._kept: list[Any] = []
        self._kept_by = _pid

    def run(
        self,
        keys: list[str],
        argv: list[str],
        meanwhile: Callable[[], object] | None,
        carried_hset: Sequence[Any] = (),
        carrying_none: Callable[[], list[str]] | None = None,
        then: Callable[[], bytes | None] | None = None,
    ) -> tuple[Any, Exception | None]:
        """The script's reply, ``meanwhile`` run between sending it and reading it, and what
        ``meanwhile`` raised. ``carried_hset``: the HSET arguments of a carried projection, sent
        ahead of the script in one transaction; ``carrying_none``: the script's arguments without
        it, for the send again through the client; ``then``: the packed command that follows the
        script on the same connection (``following``), worked out after ``meanwhile`` and sent
        before the reply is read."""
        if meanwhile is None:
            return self.script(keys=keys, args=argv), None
        failed: Exception | None = None
        ran = False
        reply: Any = None
        conn = self._checkout()
        # A reply left unread on a pooled connection would be the next command's: such a
        # connection is closed, never given back as it is.
        unread = False
        lost = False
        try:
            try:
                conn.send_packed_command([packed_append(self.script.sha, keys, argv, carried_hset)])
                unread = True
            except (redis.ConnectionError, redis.TimeoutError):
                conn.disconnect()
                lost = True
            else:
                failed, ran = attempt(meanwhile), True
                if then is not None:
                    follow = then()
                    if follow is not None:
                        # A lost connection fails the read of the reply, below, as well.
                        try:
                            conn.send_packed_command([follow])
                        except (redis.ConnectionError, redis.TimeoutError):
                            pass
                try:
                    reply = _transaction_reply(conn) if carried_hset else conn.read_response()
                    unread = False
                except redis.exceptions.NoScriptError:
                    unread = False
                except (redis.ConnectionError, redis.TimeoutError):
                    conn.disconnect()
                    unread, lost = False, True
        finally:
            if unread:
                conn.disconnect()
            self._checkin(conn, clean=not (unread or lost))
        if reply is None:
            if carrying_none is not None:
                argv = carrying_none()
            reply = self.script(keys=keys, args=argv)
        if not ran:
            failed = attempt(meanwhile)
        return reply, failed

    def _checkout(self) -> Any:
        """A connection for an append: one an earlier append of this process gave back, else one
        of the client's pool.

        A kept connection is one whose last reply was read; one the server closed since fails on
        its send or its read, and the append goes again through the client (``run``),
        conditional on the same version, so it cannot be written twice.
        """
        if self._kept_by != _pid:
            # Forked: the parent's connections are not this process's (its pool starts anew).
            self._kept, self._kept_by = [], _pid
        try:
            return self._kept.pop()
        except IndexError:
            return self.client.connection_pool.get_connection()

    def _checkin(self, conn: Any, clean: bool) -> None:
        """Keep a connection for the next append, or give it back to the pool (a connection that
        failed, or one more than the store keeps)."""
        if clean and len(self._kept) < CONNECTIONS_KEPT and self._kept_by == _pid:
            self._kept.append(conn)
        else:
            self.client.connection_pool.release(conn)


def following(sha: str, keys: list[str], argv: list[str]) -> bytes:
    """The bytes of a script's EVALSHA sent with its reply skipped (``CLIENT REPLY SKIP``): what
    follows an append on its connection (``OneSend.run``'s ``then``) leaves nothing to read."""
    return _SKIP + _packed("EVALSHA", sha, len(keys), *keys, *argv)


def packed_append(sha: str, keys: list[str], argv: list[str], carried_hset: Sequence[Any] = ()) -> bytes:
    """The bytes of one send: the script's EVALSHA, alone or, with ``carried_hset``, behind the
    HSET of the staged projection in one transaction (MULTI, HSET, EVALSHA, EXEC)."""
    sent = _packed("EVALSHA", sha, len(keys), *keys, *argv)
    if carried_hset:
        sent = b"".join((_MULTI, _packed("HSET", *carried_hset), sent, _EXEC))
    return sent


def attempt(work: Callable[[], object] | None) -> Exception | None:
    """Run ``work`` (if any); what it raised, or None."""
    try:
        if work is not None:
            work()
    except Exception as exc:
        return exc
    return None


def _transaction_reply(conn: Any) -> Any:
    """The script's reply in a MULTI, HSET, EVALSHA, EXEC sent at once, every reply of the four
    read; the error that refused a command, raised."""
    refused: Exception | None = None
    for _ in range(3):  # OK, then QUEUED for each command, or why it was refused (an OOM)
        try:
            conn.read_response()
        except redis.ResponseError as exc:
            refused = refused or exc
    try:
        done = conn.read_response()
    except redis.ResponseError as exc:  # EXECABORT: a command was refused, nothing ran
        raise (refused or exc) from None
    if isinstance(done[1], Exception):  # the script's own error (NOSCRIPT: not loaded)
        raise done[1]
    return done[1]


def _packed(*args: Any) -> bytes:
    """One command in Redis's protocol, packed by hiredis itself (redis-py's packers go over
    every argument once more first, which costs an append a few microseconds)."""
    # hiredis's stubs name a tuple of one argument; it packs any number.
    return hiredis.pack_command(args)  # type: ignore[arg-type]
