"""The API's JSON answers, written by orjson: the same values as Flask's own provider writes (keys
sorted), compact and in UTF-8, several times faster. What orjson does not write itself (a date, a
number beyond 64 bits, a key that is not a string) goes to Flask's provider, as does an answer
asked for with options (pretty-printed)."""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _refuse(value: Any) -> Any:
    raise TypeError(f"left to Flask's provider: {type(value).__name__}")


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider, with orjson writing what it can."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON answer (``jsonify``): orjson's bytes as the body, unless debug mode asks for
        indented JSON or orjson cannot write the value (then Flask's own way)."""
        obj = self._prepare_response_obj(args, kwargs)
        if self.compact is not False and not self._app.debug:
            try:
                body = orjson.dumps(obj, default=_refuse, option=_OPTIONS | orjson.OPT_APPEND_NEWLINE)
            except orjson.JSONEncodeError:
                pass
            else:
                # The provider knows its app as a sans-IO one; a Flask app's answers are Flask's.
                respond = cast("type[Response]", self._app.response_class)
                return respond(body, mimetype=self.mimetype)
        return cast(Response, super().response(obj))

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """Compact JSON with sorted keys; Flask's provider for anything orjson leaves."""
        # Flask asks for compact separators outside debug mode: orjson's own.
        if not kwargs or kwargs == {"separators": (",", ":")}:
            try:
                return orjson.dumps(obj, default=_refuse, option=_OPTIONS).decode()
            except orjson.JSONEncodeError:
                pass
        return super().dumps(obj, **kwargs)
