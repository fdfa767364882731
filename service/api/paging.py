"""The links of a page, the same on every list: self, first, prev, next and last."""

from __future__ import annotations

from collections.abc import Callable


def page_links(
    link: Callable[[int], str], start: int, size: int, count: int, origin: int = 0
) -> dict[str, str | None]:
    """Links of the page of ``size`` items from ``start``, among ``count`` items numbered from ``origin``.

    ``link(n)`` is the URL of the page starting at item ``n``; a page that does not exist is None.
    """
    end = origin + max(count, 1) - 1
    last = origin + ((max(count, 1) - 1) // size) * size
    return {
        "self": link(start),
        "first": link(origin),
        "prev": link(max(origin, start - size)) if start > origin else None,
        "next": link(start + size) if start + size <= end else None,
        "last": link(last),
    }
