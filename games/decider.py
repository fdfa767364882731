"""The generic decider every game shares: what the framework, not each game, owns.

Modelled on boardgame.io's reducer and flow: the refusals that do not depend on a game's rules
(a finished match, an unknown action), the dispatch of actions to a game's handlers and of events
to its evolvers, the loop that derives events until nothing more follows, and the checks every
setup needs (the number of players, the options' defaults). A game then holds only its own moves.

Return convention: a handler returns the events its action causes; an evolver takes the state and
an event's data and returns the state to use from then on (it may change the state in place).
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.contract import Action, Event, Game, InvalidAction, State, fail, words
from games.validation import with_defaults
from games.words import and_words

Handler = Callable[[State, Action], list[Event]]
Evolver = Callable[[State, dict[str, Any]], State]
Evolve = Callable[[State, Event], State]
Derive = Callable[[State], list[Event]]
Setup = Callable[[list[str], dict[str, Any], dict[str, Any]], list[Event]]

# The eight modules every game package holds, one idea each (docs/design.md, "games/").
MODULES = ("__init__", "constants", "schemas", "rules", "evolve", "view", "legal", "example")

# --- decide ----------------------------------------------------------------------------------


def refuse_finished(state: State) -> None:
    """Refuse any action on a finished match (``match_finished``): the one place it is raised,
    by every game's decide and by whoever checks it before the shape of an action."""
    if state.get("finished"):
        winners = state.get("winners") or []
        won = words(" (won by {winners})", winners=and_words(winners)) if winners else ""
        fail("match_finished", "the match is over{won}; undo to change its end", won=won)


def unknown_action(title: str, kind: Any, actions: Iterable[str]) -> InvalidAction:
    """The refusal of an action type a game has none of (``unknown_action``), naming those it has."""
    return InvalidAction(
        "unknown_action",
        "{title} has no action {kind!r}; the actions are: {known}",
        # The game's title as the reader's catalog names it (the registry's titles are extracted).
        title=words(title),
        kind=kind,
        known=sorted(actions),
    )


def decide_with(handlers: Mapping[str, Handler], title: str, state: State, action: Action) -> list[Event]:
    """The events ``action`` causes, after the refusals every game shares."""
    refuse_finished(state)
    kind = action.get("type", "")
    handler = handlers.get(kind)
    if handler is None:
        raise unknown_action(title, kind, handlers)
    return handler(state, action)


def derive(
    state: State,
    events: list[Event],
    evolve: Evolve,
    follows: Derive,
    working_copy: Callable[[State], State] = copy.deepcopy,
) -> list[Event]:
    """``events`` and every event derived after them, until nothing more follows.

    The events are folded into a copy of ``state`` (decide never changes the state it is given;
    a game whose evolve only appends may pass a cheaper ``working_copy``); ``follows`` reads the
    copy and returns what follows from it, or nothing once nothing more does.
    """
    work = working_copy(state)
    derived: list[Event] = []
    pending = list(events)
    while pending:
        for ev in pending:
            work = evolve(work, ev)
        derived += pending
        pending = follows(work)
    return derived


# --- evolve ----------------------------------------------------------------------------------


class Evolvers(dict[str, Evolver]):
    """A game's evolve: its evolvers by event type, each registered with ``@evolve.on(type)``.

    Like a ``singledispatch`` mutator, calling it folds one event into the state.
    """

    def __call__(self, state: State, event: Event) -> State:
        """The state after ``event``; an event type the game does not know leaves it as it was."""
        return evolve_with(self, state, event)

    def on(self, event_type: str) -> Callable[[Evolver], Evolver]:
        """Register the decorated function as the evolver of ``event_type``."""

        def register(evolver: Evolver) -> Evolver:
            self[event_type] = evolver
            return evolver

        return register

    def sets(self, event_type: str, /, **fields: Any) -> None:
        """Register the evolver of an event that only sets ``fields`` of the state (a new phase,
        the match finished): its data changes nothing more."""

        def set_fields(state: State, _: dict[str, Any]) -> State:
            state.update(fields)
            return state

        self[event_type] = set_fields


def evolve_with(evolvers: Mapping[str, Evolver], state: State, event: Event) -> State:
    """The state after ``event``; an event type the game does not know leaves it as it was."""
    apply = evolvers.get(event.get("type", ""))
    return state if apply is None else apply(state, event.get("data", {}))


# --- setup -----------------------------------------------------------------------------------


def setup_with(
    own: Setup, title: str, players_allowed: tuple[int, int], options_schema: Mapping[str, Any]
) -> Setup:
    """A game's setup behind the checks every setup shares: player count, option defaults."""
    least, most = players_allowed

    def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
        if not least <= len(players) <= most:
            span = str(least) if least == most else f"{least} to {most}"
            fail(
                "player_count",
                "{title} is played by {span} players, not {count}",
                title=title,
                span=span,
                count=len(players),
            )
        return own(players, setup, with_defaults(options_schema, options))

    setup.__doc__ = own.__doc__
    return setup


# --- registration ----------------------------------------------------------------------------


def assemble(package: str, source: str) -> Game:
    """The ``Game`` of a package, read from its modules by their shared names."""
    constants, schemas, rules, evolve, view, legal, example = (
        importlib.import_module(f"{package}.{module}") for module in MODULES[1:]
    )
    title, allowed = constants.TITLE, (constants.MIN_PLAYERS, constants.MAX_PLAYERS)
    return Game(
        id=constants.GAME_ID,
        title=title,
        min_players=allowed[0],
        max_players=allowed[1],
        source=source,
        actions=schemas.ACTIONS,
        setup_schema=schemas.SETUP,
        options_schema=schemas.OPTIONS,
        setup=setup_with(rules.setup, title, allowed, schemas.OPTIONS),
        decide=rules.decide,
        evolve=evolve.evolve,
        view=view.view,
        scores=view.scores,
        example=example.example,
        event_schemas=getattr(evolve, "EVENT_SCHEMAS", {}),
        upcasters=getattr(evolve, "UPCASTERS", {}),
        figures=getattr(view, "figures", None),
        public=getattr(view, "public", None),
        legal=legal.legal,
        public_view=getattr(view, "public_view", None),
        announced=getattr(view, "announced", None),
    )
