"""The engine contract every game implements, and helpers the engines share.

Engines are pure: no I/O, no clock, no global random, no framework import. The server
treats every game alike through :class:`Engine`.

    >>> from geniusnight.engines import get_engine
    >>> eng = get_engine("ingenious")                          # doctest: +SKIP
    >>> s0 = eng.setup(players=2, options={}, seed=42)         # doctest: +SKIP
    >>> s1 = eng.apply(s0, 0, {"type": "place", ...})          # doctest: +SKIP

Conventions every engine follows:

- ``apply`` returns a NEW state and never changes the one it was given.
- Every rule violation raises :class:`IllegalAction` with a stable ``code`` and a message a
  player can read; nothing else is raised for bad input (wrong types, unknown keys ...).
- The system acts with ``seat=None``. ``{"type": "timeout"}`` from the system applies the
  documented default for the current phase (see ``GameInfo.timed_phases``).
- ``view`` returns a JSON-safe dict with at least ``phase``, ``to_act`` (sorted list),
  ``scores`` (a list indexed by seat), ``over`` and, once over, ``result``
  (``{"winners": [...], "scores": [...]}``). The seed and PRNG state never appear in it.
- All randomness comes from :class:`Rng`, whose state is part of the game state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any, Protocol, TypeGuard, TypeVar, runtime_checkable

JSON = Any
Action = dict[str, Any]
T = TypeVar("T")


class IllegalAction(ValueError):
    """An action that breaks a rule. ``code`` is stable; ``message`` is for the player.

    >>> e = IllegalAction("not_your_turn", "It is seat 1's turn.")
    >>> e.code, str(e)
    ('not_your_turn', "It is seat 1's turn.")
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check(condition: object, code: str, message: str) -> None:
    """Raise :class:`IllegalAction` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(code, message)


@dataclass(frozen=True)
class OptionSpec:
    """One room option, described as data so the UI can draw a form for it.

    ``kind`` is one of ``choice`` (``choices`` lists the values), ``int`` (``min``/``max``),
    ``bool``, ``seat`` (a seat number or null), ``json`` (free-form, e.g. a custom deck or a
    fixed deal; ``advanced`` options are hidden behind a toggle in the UI).
    """

    name: str
    kind: str
    default: JSON = None
    label: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    advanced: bool = False


@dataclass(frozen=True)
class BotSpec:
    """A bot policy a host can pick for a bot seat."""

    id: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data (after OpenSpiel's GameType)."""

    id: str
    title: str
    min_players: int
    max_players: int
    summary: str = ""
    options: tuple[OptionSpec, ...] = ()
    bots: tuple[BotSpec, ...] = (BotSpec("random", "Random", "Plays a random legal move."),)
    # the bot a host gets when they name none, and the one that stands in for a player who
    # is away or was removed mid-game: the game's best
    default_bot: str = "random"
    # phase name -> what the system does when that phase's time limit passes
    timed_phases: Mapping[str, str] = field(default_factory=dict)
    # phase name -> seconds: the time limits a new room starts with (the host may change them)
    default_time_limits: Mapping[str, int] = field(default_factory=dict)
    simultaneous: bool = False
    chance: bool = True
    hidden_information: bool = True

    def __post_init__(self) -> None:
        if self.default_bot not in {b.id for b in self.bots}:
            raise ValueError(f"{self.id}: default_bot {self.default_bot!r} is not one of its bots")
        if not set(self.default_time_limits) <= set(self.timed_phases):
            raise ValueError(f"{self.id}: default_time_limits name phases that are not timed")

    def to_json(self) -> dict[str, JSON]:
        d = asdict(self)
        d["timed_phases"] = dict(self.timed_phases)
        d["default_time_limits"] = dict(self.default_time_limits)
        return d


@runtime_checkable
class Engine(Protocol):
    """The interface between a game's rules and the server (docs/engine-contract.md)."""

    info: GameInfo

    def player_range(self, options: Mapping[str, JSON]) -> tuple[int, int]:
        """Min and max players for these options (a variant may fix the count)."""
        ...

    def validate_options(self, players: int | None, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return the options with defaults filled in, or raise IllegalAction('bad_option').

        ``players`` is None while the lobby is still filling (check what can be checked).
        """
        ...

    def setup(self, players: int, options: Mapping[str, JSON] | None = None, seed: int = 0) -> Any: ...

    def apply(self, state: Any, seat: int | None, action: Action) -> Any: ...

    def view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may know: ``{**shared_view(state), **seat_view(state, seat)}``."""
        ...

    def shared_view(self, state: Any) -> dict[str, JSON]:
        """The part of the view every seat and spectator sees alike."""
        ...

    def seat_view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        """The rest of ``seat``'s view; its keys are never keys of ``shared_view``."""
        ...

    def to_act(self, state: Any) -> set[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action] | None: ...

    def outcome(self, state: Any) -> dict[str, JSON] | None:
        """None while running; else ``{"winners": [seats], "scores": [by seat]}``."""
        ...

    def phase(self, state: Any) -> str:
        """The current phase name (the key for per-phase time limits)."""
        ...

    def bot_action(self, state: Any, seat: int, bot: str, seed: int) -> Action | None:
        """The move bot policy ``bot`` makes for ``seat`` now, or None to wait (e.g. a bot
        Solver that would rather let the race run). ``seed`` seeds the bot's own choices."""
        ...

    def import_option(self, name: str, data: bytes, filename: str) -> JSON:
        """The value of ``json`` option ``name`` read from an uploaded file (a word list, a
        question pack), or IllegalAction. An engine with no format of its own reads JSON
        (:func:`read_json_option`)."""
        ...

    def dump(self, state: Any) -> dict[str, JSON]: ...

    def load(self, data: Mapping[str, JSON]) -> Any: ...


# --- deterministic PRNG --------------------------------------------------------------

_MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: tiny, fast, the same on every machine, and its whole state is one int.

    Engines keep ``rng.state`` inside their game state and build an ``Rng`` from it when they
    need randomness, so copying a state copies its PRNG.

    >>> r = Rng.from_seed(42)
    >>> [r.randbelow(10) for _ in range(5)]
    [3, 8, 1, 0, 6]
    >>> Rng.from_seed(42).shuffled([1, 2, 3, 4]) == Rng.from_seed(42).shuffled([1, 2, 3, 4])
    True
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        if isinstance(seed, str):
            h = 1469598103934665603  # FNV-1a, so string seeds are stable across runs
            for b in seed.encode():
                h = ((h ^ b) * 1099511628211) & _MASK64
            seed = h
        return cls((seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK64)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out


# --- small shared helpers ---------------------------------------------------------------


def is_int(x: object) -> TypeGuard[int]:
    """An integer as JSON gives one: ``True`` and ``False`` are not seat numbers or counts.

    >>> is_int(3), is_int(True), is_int(3.0), is_int(None)
    (True, False, False, False)
    """
    return isinstance(x, int) and not isinstance(x, bool)


def is_seat(x: object, players: int) -> TypeGuard[int]:
    """``x`` is a player's seat in a game of ``players``: not a spectator's None, nor a seat
    the game does not have (nor ``True``, see ``is_int``).

    >>> is_seat(2, 3), is_seat(3, 3), is_seat(None, 3), is_seat(True, 3)
    (True, False, False, False)
    """
    return is_int(x) and 0 <= x < players


def to_act_ops(was: Iterable[int], now: Iterable[int]) -> list[dict[str, Any]]:
    """The view operation on ``/to_act`` (every engine's shared view lists who is to act,
    sorted) between two positions where ``was`` and then ``now`` are to act: none if the
    same seats are.

    >>> to_act_ops({2, 0}, {0, 2}), to_act_ops({0}, {2, 1})
    ([], [{'op': 'replace', 'path': '/to_act', 'value': [1, 2]}])
    """
    acting = sorted(now)
    return [] if sorted(was) == acting else [{"op": "replace", "path": "/to_act", "value": acting}]


def seats_from(start: int, players: int) -> list[int]:
    """Seats in table order beginning at ``start``.

    >>> seats_from(2, 4)
    [2, 3, 0, 1]
    """
    return [(start + i) % players for i in range(players)]


def require_type(action: object, *types: str) -> str:
    """Check an action is a dict with a known ``type`` and return that type.

    >>> require_type({"type": "place"}, "place", "swap")
    'place'
    >>> require_type({"type": "fly"}, "place")
    Traceback (most recent call last):
    geniusnight.engines.base.IllegalAction: Unknown action type 'fly'.
    """
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "An action must be a JSON object.")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("malformed", "An action needs a 'type'.")
    if kind not in types:  # the message is formatted only here: every move passes this way
        raise IllegalAction("unknown_action", f"Unknown action type {kind!r}.")
    return kind


def winners_by_max(scores: Sequence[int | float]) -> list[int]:
    """Every seat with the top score (ties share).

    >>> winners_by_max([3, 7, 7])
    [1, 2]
    """
    top = max(scores)
    return [s for s, v in enumerate(scores) if v == top]


def read_json_option(info: GameInfo, name: str, data: bytes) -> JSON:
    """An uploaded file for ``json`` option ``name``, read as JSON (UTF-8, a BOM allowed).

    >>> read_json_option(GameInfo("g", "G", 1, 2, options=(OptionSpec("deal", "json"),)), "deal", b"[1, 2]")
    [1, 2]
    """
    spec = next((o for o in info.options if o.name == name), None)
    check(spec is not None and spec.kind == "json", "bad_option", f"Option {name!r} can't be loaded from a file.")
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as e:
        raise IllegalAction("bad_file", f"That file is not JSON: {e}") from None


# --- content languages ---------------------------------------------------------------------

LANGUAGE_OPTION = "language"
DEFAULT_LANGUAGE = "en"


def content_languages(package: str) -> tuple[str, ...]:
    """The languages a game's built-in content comes in: the folders of ``<package>/content/``
    (one per language code, each holding that language's deck or bank), English first. A
    third language is a new folder, found here without a code change (docs/i18n.md)."""
    root = resources.files(package).joinpath("content")
    found = sorted(p.name for p in root.iterdir() if p.is_dir() and p.name.isalpha() and p.name.islower())
    return tuple(sorted(found, key=lambda code: code != DEFAULT_LANGUAGE))


def language_option(languages: Sequence[str]) -> OptionSpec:
    """The room's content language, the option ``language``: which built-in cards or questions
    the game deals. The lobby preselects the host's page language where the game has it; each
    player's page keeps its own language.

    >>> language_option(("en", "de")).choices
    ('en', 'de')
    """
    return OptionSpec(
        LANGUAGE_OPTION,
        "choice",
        default=DEFAULT_LANGUAGE,
        label="Language of the cards",
        help="The language the game's own words and questions are in. Names and chat are never translated.",
        choices=tuple(languages),
    )


def option_language(options: Mapping[str, JSON], languages: Sequence[str]) -> str:
    """The room's content language, checked against the languages the game has."""
    value = options.get(LANGUAGE_OPTION, DEFAULT_LANGUAGE)
    check(value in languages, "bad_option", f"Option 'language' must be one of {', '.join(languages)}.")
    return str(value)


def option_bool(options: Mapping[str, JSON], name: str, default: bool) -> bool:
    value = options.get(name, default)
    check(isinstance(value, bool), "bad_option", f"Option {name!r} must be true or false.")
    return bool(value)


def option_seat(options: Mapping[str, JSON], name: str, players: int | None) -> int:
    value = options.get(name, 0)
    if value is None:
        return 0
    check(
        isinstance(value, int) and not isinstance(value, bool) and value >= 0,
        "bad_option",
        f"Option {name!r} must be a seat number.",
    )
    assert isinstance(value, int)
    if players is not None:
        check(value < players, "bad_option", f"Option {name!r}: there is no seat {value}.")
    return value
