"""Bot specifications as people type them: one parser for ``play``, ``arena``, ``serve`` and the demo.

Accepted forms (see :func:`parse_bot`): a kind (``"mcts"``, with the game's
presets), a kind with options (``"mcts(iterations=500, rollout=policy)"``,
values read as JSON when they parse), a JSON object (``'{"kind": "mcts",
"iterations": 500}'``), ``@file.json``, a mapping like the JSON, or a
:class:`BotSpec`. ``presets=false`` drops the game's presets and ``name=...``
labels the bot in reports.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from aiplay.errors import InvalidOptionError
from aiplay.limits import check_bool, check_mapping, check_text, finite_number, shown
from aiplay.search import make_bot
from aiplay.search.kinds import strongest_kind  # noqa: F401 - re-exported (its old home)
from aiplay.search.level import NUM_LEVELS, levels_for, search_kind

#: Option names read as a bot's budget, in order, for plots (see :meth:`BotSpec.budget`).
BUDGET_KEYS = ("iterations", "depth", "nodes", "seconds")


@dataclass(frozen=True)
class BotSpec:
    """One bot of an arena: its kind (a key of :data:`aiplay.search.BOTS`) and options.

    ``presets``: start from the game's recommended options for the kind
    (``game.bot_presets``) as ``aiplay play`` does; ``options`` override them.
    ``name``: the label in reports (by default the kind and its options).
    """

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)
    presets: bool = True
    name: str = ""

    def __post_init__(self) -> None:
        # The types here; the kind and the options' values when the bot is built (make_bot).
        check_text("kind", self.kind)
        check_mapping("options", self.options, allow_none=False)
        check_bool("presets", self.presets)
        check_text("name", self.name)

    @property
    def label(self) -> str:
        """The bot's name in tables and plots."""
        return self.name or _describe(self.kind, self.options)

    def budget(self, game: Any = None) -> Optional[Tuple[str, float]]:
        """``(option, value)`` of the bot's budget (iterations, depth, nodes or seconds), or None.

        With ``game`` and ``presets``, a budget in the game's presets counts.
        """
        options = dict(self.options)
        if game is not None and self.presets:
            options = {**game.bot_presets.get(self.kind, {}), **options}
        for key in BUDGET_KEYS:
            value = finite_number(options.get(key))
            if value is not None:  # a bad value is reported when the bot is built, not here
                return key, value
        return None

    def to_dict(self) -> Dict[str, Any]:
        """The JSON configuration of the bot (what :func:`parse_bot` reads back)."""
        data: Dict[str, Any] = {"kind": self.kind, **dict(self.options)}
        if not self.presets:
            data["presets"] = False
        if self.name:
            data["name"] = self.name
        return data

    def settings(self, game: Any) -> Dict[str, Any]:
        """What the bot plays with on ``game`` beyond its own options (JSON-ready).

        ``presets``: the game's presets for its kind (when the spec takes
        them). A level bot adds ``level`` (its ``iterations``, ``mistake_rate``,
        ``width`` and ``ties`` in the game's level table) and ``search`` (the kind and
        presets of its inner search). An arena's results file records these,
        so a rerun after a change of presets or of a level table plays again
        instead of resuming from games played with the old settings.
        """
        out: Dict[str, Any] = {}
        if self.presets and game.bot_presets.get(self.kind):
            out["presets"] = dict(game.bot_presets[self.kind])
        if self.kind == "level":
            level = self.options.get("level", NUM_LEVELS)
            table = levels_for(game)
            if isinstance(level, int) and 1 <= level <= len(table):  # make() reports a bad level
                out["level"] = asdict(table[level - 1])
            inner = search_kind(game)
            out["search"] = {"kind": inner, **dict(game.bot_presets.get(inner, {}))}
        return out

    def make(self, game: Any, seed: int, **defaults: Any) -> Any:
        """Build the bot for ``game`` with ``seed``; ``defaults`` are options under the spec's own.

        A ``seed`` among the spec's own options (``"mcts(seed=3)"``) wins over ``seed``, like
        every option of the spec; :func:`make_bot` checks it.
        """
        options = {"seed": seed, **defaults, **dict(self.options)}
        return make_bot(self.kind, game=game if self.presets else None, **options)


def _literal(text: str) -> Any:
    """A command-line option value: JSON when it parses (numbers, true, null...), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _split_top_level(text: str, sep: str = ",") -> List[str]:
    """Split at ``sep`` outside brackets, braces, parentheses and strings."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(text):
        if quote:
            if char == quote and text[i - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_bot(spec: Union[str, Mapping[str, Any], BotSpec], *, files: bool = True) -> BotSpec:
    """A :class:`BotSpec` from a kind, a kind with options, or a JSON configuration.

    Accepted: ``"mcts"`` (the game's presets for MCTS), ``"mcts(iterations=500,
    rollout=policy)"`` (options over the presets; values read as JSON when they
    parse), ``'{"kind": "mcts", "iterations": 500, "presets": false, "name":
    "mcts-500"}'``, ``"@bot.json"`` (that JSON in a file), a dict like the JSON,
    or a :class:`BotSpec`. ``files=False`` refuses the ``@file`` form (what a
    server reads from its clients). Unknown kinds and options are reported when the
    arena starts (the options depend on the kind).
    """
    if isinstance(spec, BotSpec):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        if text.startswith("@"):
            if not files:  # a server must not read its own files on a client's word
                raise InvalidOptionError(f"bot {text!r}: @file configurations are read only on the command line")
            try:
                with open(text[1:], encoding="utf-8") as f:
                    text = f.read().strip()
            except (OSError, UnicodeDecodeError) as exc:
                raise InvalidOptionError(f"bot {text!r}: cannot read {text[1:]!r}: {exc}") from None
        if text.startswith("{"):
            try:
                spec = json.loads(text)
            except ValueError as exc:
                raise InvalidOptionError(f"bot configuration {text!r} is not valid JSON: {exc}") from None
        else:
            kind, _, rest = text.partition("(")
            options: Dict[str, Any] = {}
            if rest:
                if not rest.endswith(")"):
                    raise InvalidOptionError(f"bot {text!r}: options must look like kind(name=value,...)")
                for item in _split_top_level(rest[:-1]):
                    key, eq, value = item.partition("=")
                    if not eq or not key.strip():
                        raise InvalidOptionError(f"bot {text!r}: option {item!r} must look like name=value")
                    options[key.strip()] = _literal(value.strip())
            return _spec(kind.strip(), options)
    if not isinstance(spec, Mapping) or not isinstance(spec.get("kind"), str):
        raise InvalidOptionError(f"bot configuration {shown(spec)} needs a \"kind\" (random, mcts, ismcts, ...)")
    data = dict(spec)
    return _spec(data.pop("kind"), data)


def _spec(kind: str, options: Dict[str, Any]) -> BotSpec:
    """The spec of ``kind`` with ``options``, its own ``presets`` and ``name`` taken out (BotSpec checks them)."""
    presets = options.pop("presets", True)
    name = options.pop("name", "")
    return BotSpec(kind, options, presets, name)


def parse_bots(text: str) -> List[BotSpec]:
    """The bots of ``--bots A,B,...``: commas inside ``(...)`` or ``{...}`` belong to one bot."""
    return [parse_bot(part) for part in _split_top_level(text)]


def _describe(kind: str, options: Mapping[str, Any]) -> str:
    if not options:
        return kind
    return kind + "(" + ", ".join(f"{k}={v}" for k, v in sorted(options.items())) + ")"


__all__ = ["BUDGET_KEYS", "BotSpec", "parse_bot", "parse_bots", "strongest_kind"]
