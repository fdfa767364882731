"""The rules contract: every game is a decider over plain, JSON-serialisable values.

A game module exposes one constant, ``GAME``, built from five pure functions:

    setup(players, setup, options) -> [events]      the match's first events, or RuleViolation
    decide(state, action)          -> [events]      what the action causes, or RuleViolation
    evolve(state, event)           -> state         total and deterministic; never validates
    view(state)                    -> JSON          what the API shows of the state
    scores(state)                  -> JSON          the scoreboard

Values are plain ``dict``/``list``/``str``/``int``/``bool``/``None``, with string keys only, so that
``json.loads(json.dumps(x)) == x`` holds for every state, event and action.

Events are ``{"type": "BidPlaced", "data": {...}}`` (past tense). The first event of every match is
``MatchCreated`` with ``data = {"players": [...], "setup": {...}, "options": {...}}`` (options with
their defaults filled in). The fold starts from ``{}``: ``evolve({}, MatchCreated)`` builds the
initial state.

Actions are ``{"type": "bid", ...fields}`` (imperative). Before ``decide`` sees an action, its fields
have been checked against the JSON Schema the game publishes for that action type (see
``games.validation``), so ``decide`` may rely on types and required fields and checks the rules.

Ownership: ``decide`` never changes the state it is given. ``evolve`` owns the state it is given: it
may change it in place and returns the state to use from then on (callers that need the old state
keep a copy). ``view`` and ``scores`` only read the state, and their answers may share parts of
it: a caller that keeps an answer while the state moves on keeps a copy
(``projections.positions.rewind.frozen``).

Every state holds at least ``players`` (names in seat order), ``finished`` (bool) and
``disputes`` (a list of ``{"code", "message", "player", ...}``: contradictions found after the
fact, which are recorded, never silently accepted, and never refuse the action that revealed them).
A game raises one with a ``DisputeRaised`` event whose data is ``{"dispute": <that entry>}``.

``games.decider`` holds what every game shares (the generic refusals, dispatch, the
derive-until-quiet loop, the setup checks); each game package holds only its own moves.

``scores(state)`` returns at least ``finished`` and ``winners`` (player names; every player of a
winning side or team; empty while unfinished or on a draw), and ``totals`` ({player: points})
where the game has points.

``figures(state)`` (optional) returns per-player figures of a finished match, e.g. Wizard's
``{"ann": {"bid_accuracy": 0.75}}``; player statistics average each figure over a player's
finished matches of the game.

``legal(state, sees_hidden)`` (optional) says what may be recorded now: who is to act, and every
legal action type with its legal values (``games.legal`` holds the shape). Without
``sees_hidden`` it uses public facts only, so it never tells what a hidden hand holds.

``example(seed)`` returns a complete, legal, finished match as a script
``{"players", "setup", "options", "actions": [...]}``, different for different seeds (options and
recording styles vary), deterministic for one seed. Tests, benchmarks and the fault-injection
suite drive every registered game through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

JSON = Any
State = dict[str, Any]
Event = dict[str, Any]
Action = dict[str, Any]
Script = dict[str, Any]
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class Message:
    """A sentence with NAMED placeholders and their values, translatable as a whole.

    ``str()`` is the English sentence (``template.format(**values)``). A reader's language is
    put in at the HTTP edge (``service.http.language``): the template is looked up in the
    catalogs, then formatted with the same values, so a translation may reorder them. A value
    that is itself a Message (a phrase such as "the match is over") is translated the same way.
    With ``plural``, the template is the singular and ``values["count"]`` chooses the form.
    """

    __slots__ = ("template", "plural", "values")

    def __init__(self, template: str, /, *, plural: str | None = None, **values: Any) -> None:
        self.template = template
        self.plural = plural
        self.values = values

    def render(self, translate: Callable[[Message], str] | None = None) -> str:
        """The sentence, each template passed through ``translate`` (English when none)."""
        if translate is not None:
            text = translate(self)
        elif self.plural is not None and self.values.get("count") != 1:
            text = self.plural
        else:
            text = self.template
        if not self.values:
            return text
        return text.format(**{k: _rendered(v, translate) for k, v in self.values.items()})

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:
        return format(self.render(), spec)

    def __repr__(self) -> str:
        return f"Message({self.render()!r})"

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other) if isinstance(other, Message | str) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


def _rendered(value: Any, translate: Callable[[Message], str] | None) -> Any:
    """A value as it goes into a sentence: a Message rendered, a list joined (", " in English,
    "、" in Chinese and Japanese: the catalogs' translation of ", ")."""
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, list | tuple):
        separator = translate(Message(", ")) if translate is not None else ", "
        return separator.join(str(_rendered(v, translate)) for v in value)
    return value


def N_(text: str) -> str:
    """Mark an English msgid for the catalogs where it is written (translated where it is shown)."""
    return text


def words(template: str, /, **values: Any) -> Message:
    """A phrase for a refusal's sentence (a value of another Message), translated with it."""
    return Message(template, **values)


def plural(singular: str, plural_: str, /, count: int, **values: Any) -> Message:
    """A phrase whose form follows ``count`` (the catalogs' plural forms in each language)."""
    return Message(singular, plural=plural_, count=count, **values)


class RuleViolation(Exception):
    """An action or setup the rules refuse: a stable ``code`` and a sentence a person understands.

    The sentence is a template with named placeholders plus their values (``fail("not_your_turn",
    "it is {player}'s turn", player="ann")``): ``message`` is its English rendering, ``sentence``
    the Message the HTTP edge translates.
    """

    status = 422

    def __init__(self, code: str, message: str | Message, /, **values: Any) -> None:
        sentence = message if isinstance(message, Message) else Message(message, **values)
        english = str(sentence)
        super().__init__(english)
        self.code = code
        self.message = english
        self.sentence = sentence
        # Members for programs that the problem answer carries beside the sentence.
        self.extra: dict[str, Any] = {}


class InvalidAction(RuleViolation):
    """An action, setup or options whose shape is wrong (missing field, wrong type, unknown type)."""

    status = 400


def fail(code: str, message: str | Message, /, **values: Any) -> NoReturn:
    """Refuse with a RuleViolation: ``message`` is a template, ``values`` fill its placeholders."""
    raise RuleViolation(code, message, **values)


def require(condition: bool, code: str, message: str | Message, /, **values: Any) -> None:
    """Refuse with a RuleViolation unless ``condition`` holds."""
    if not condition:
        raise RuleViolation(code, message, **values)


def event(type_: str, **data: Any) -> Event:
    """Build an event value."""
    return {"type": type_, "data": data}


@dataclass(frozen=True)
class Game:
    """One registered game: its description, its JSON Schemas and its pure rules."""

    id: str
    title: str
    min_players: int
    max_players: int
    source: str
    actions: Mapping[str, Mapping[str, Any]]
    setup_schema: Mapping[str, Any]
    options_schema: Mapping[str, Any]
    setup: Callable[[list[str], dict[str, Any], dict[str, Any]], list[Event]]
    decide: Callable[[State, Action], list[Event]]
    evolve: Callable[[State, Event], State]
    view: Callable[[State], JSON]
    scores: Callable[[State], JSON]
    example: Callable[[int], Script]
    # Current schema number of each event type (absent: 1), and upcasters keyed by
    # (event type, schema number they upgrade from) that return the data one schema newer.
    event_schemas: Mapping[str, int] = field(default_factory=dict)
    upcasters: Mapping[tuple[str, int], Upcaster] = field(default_factory=dict)
    # Per-player figures of a finished match ({player: {figure: number}}), averaged by statistics.
    figures: Callable[[State], dict[str, dict[str, float]]] | None = None
    # Hidden information (docs/hidden-information.md). ``public(now, shown, event, effective)``:
    # what a reader without the write token may see of a logged event ({"seq", "type", "data",
    # "meta"}), given the match's state now, ``shown``, the facts the table was shown and an undo
    # took back since (keys from ``announced``), and whether the event is in the effective
    # history; a held-back fact is a copy with it as null and ``"hidden": true`` in its data (an
    # import knows a partial export by it).
    # ``public_view(now, shown, view)``: the same for the game's view at any step.
    # ``announced(state)``: the keys of the facts the table has been shown in ``state`` (e.g.
    # ``"bids:2"``, ``"deal"``); the tape keeps those an undo takes back, since what a table was
    # shown stays shown. Absent: everything is public.
    public: Callable[[State, Sequence[str], dict[str, Any], bool], dict[str, Any]] | None = None
    public_view: Callable[[State, Sequence[str], JSON], JSON] | None = None
    announced: Callable[[State], list[str]] | None = None
    # What may be recorded now (games.legal): who is to act and every legal action with its
    # values; the bool says whether facts the table recorded but hides (hands) may be used.
    legal: Callable[[State, bool], dict[str, Any]] | None = None

    def describe(self) -> dict[str, Any]:
        """What GET /v1/games says of this game."""
        return {
            "id": self.id,
            "title": self.title,
            "players": {"min": self.min_players, "max": self.max_players},
            "source": self.source,
            "actions": {name: dict(schema) for name, schema in self.actions.items()},
            "setup": dict(self.setup_schema),
            "options": dict(self.options_schema),
        }
