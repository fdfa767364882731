"""Join message templates into one: ``python -m service.language.merge OUT IN...`` (make translations).

The Python and template sources are extracted with their keywords and the pages' JavaScript with
``t``/``tn`` (a Python ``t[...]`` is no message); the catalogs take one template holding both.
"""

from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po


def merge(out: str, sources: list[str]) -> None:
    """Write the messages of every template in ``sources`` into ``out``."""
    with open(sources[0], "rb") as first:
        joined = read_po(first)
    for path in sources[1:]:
        with open(path, "rb") as more:
            for message in read_po(more):
                if message.id and message.id not in joined:
                    joined[message.id] = message
    with open(out, "wb") as written:
        write_po(written, joined, sort_output=True, omit_header=False, no_location=True)


if __name__ == "__main__":
    merge(sys.argv[1], sys.argv[2:])
