"""Reading the YAML documents casinos write (profiles, House Ways, pay tables), and writing the
live table's round as a round file (`dump_yaml`): the one module that loads PyYAML.

A parsed document is kept as JSON in a cache keyed by the SHA-256 of its text, so a ruling
process reads a document it has seen before without loading PyYAML (about 15 ms of start-up).
The key is the content, so the cache can never serve a stale document; a cache that cannot be
written is simply not used. Where: `DEALER_CACHE`, else `$XDG_CACHE_HOME/dealer`, else
`~/.cache/dealer`, in a folder named for the checks (`CACHE_FORMAT`): an entry is written only
after a checked parse, so a document served from the cache passed the same checks.

The cache decides nothing: it serves only documents the package ships, each listed in
`dealer/shipped-documents.txt` (`SHIPPED_MANIFEST`) with the SHA-256 of its text and of its
parsed form. An entry is used only when its JSON has exactly the listed parsed SHA-256, so an
edited entry (its own digests recomputed or not) is ignored, the source parsed again and the
entry rewritten. Any other document — a property's profile, a pay table dropped in, a House Way
file — is parsed from its text every time (about 20 ms, PyYAML included). The rulings name what
they used by the source's own hash (`profile_sha256`, `paytables_sha256`), never by the cache.

The checks, before any document is built: a document may use at most `MAX_ALIASES` aliases
(`*name`), and its aliases may expand it to at most `MAX_NODES` values (a "billion laughs"
document is refused while it is being read, in milliseconds); a mapping may not give the same
key twice, and every key is text.

Every scalar is read as text: YAML 1.1's numbers (`012` is octal 10, `1:05` is
65, `0x19`, `1_000`, `2.5e+1`), dates and `yes`/`on` booleans are never guessed. Each field is
converted by its own rule where its document is checked (money and whole numbers by
`dealer.inputs`, which bounds them; ids exactly as written). Three spellings are not text:
`null`, `~` and nothing (None), and `true`/`false` (a yes or no). A document that asks for a
type by tag (`!!int 5`, `!!float`, `!!timestamp`, `!!binary`, `!tag`) is refused.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import ConfigError

MAX_ALIASES = 100
"""The most aliases (`*name`) one document may use. Nothing shipped uses any; a property's file
may repeat a few rows or settings by alias."""

MAX_NODES = 1_000_000
"""The most values (scalars, lists and mappings, counting each alias as what it expands to) one
document may hold. A 1 MiB document without aliases holds fewer; only aliases can reach it."""

CACHE_FORMAT = "checked-4"
"""The cache's folder: entries written by a parser with these checks, each carrying its digests
(a cache written before them is not read)."""

SHIPPED_MANIFEST = Path(__file__).resolve().parents[1] / "shipped-documents.txt"
"""One line per document the package ships: `SOURCE-SHA256 PARSED-SHA256 PATH` (the path under
the package, or under `paytables/` for the shipped pay tables). Tests check it against the files."""


class DocumentSyntaxError(ConfigError):
    """A document that is not valid YAML (or breaks a limit above), in one line and one wording:
    `line L, column C: not valid YAML: PROBLEM` (1-based; the place when the parser knows it),
    which `dealer.inputs.document` prefixes with the document's name."""

    def __init__(self, message: str, line: int | None, column: int | None, problem: str) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.problem = problem


_MISSING = object()


def _error(problem: str, mark: Any) -> DocumentSyntaxError:
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
    where = f"line {line}, column {column}: " if line is not None else ""
    return DocumentSyntaxError(f"{where}not valid YAML: {problem}", line, column, problem)


def _cache_dir() -> Path:
    chosen = os.environ.get("DEALER_CACHE")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dealer"


def cache_folder(name: str) -> Path:
    """The folder `name` of the program's cache (where parsed documents are kept): another
    figure kept by the content it was computed from, such as a simulation's tally."""
    return _cache_dir() / name


def _check_events(yaml: Any, text: str, loader: Any) -> None:
    """Count the aliases and the values they expand to, from the parser's events alone (nothing
    is built), and refuse a document over `MAX_ALIASES` or `MAX_NODES`."""
    sizes: dict[str, int] = {}  # an anchor's expanded size
    open_nodes: list[list[Any]] = []  # [anchor, size so far] of each list or mapping being read
    aliases = total = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _error(
                    f"more than {MAX_ALIASES} aliases (*name): a document may use at most "
                    f"{MAX_ALIASES}",
                    event.start_mark,
                )
            size = sizes.get(event.anchor or "", 1)
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            open_nodes.append([event.anchor, 1])
            continue
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_nodes.pop()
            if anchor:
                sizes[anchor] = size
        else:
            continue
        if open_nodes:
            open_nodes[-1][1] += size
            size = open_nodes[-1][1]
        else:
            total += size
            size = total
        if size > MAX_NODES:
            raise _error(
                f"its aliases expand it to more than {MAX_NODES:,} values "
                f"(a document may hold at most {MAX_NODES:,})",
                event.start_mark,
            )


def _loader(yaml: Any) -> Any:
    """The safe loader (libyaml when present) reading every scalar as text (module docstring) and
    refusing a key given twice in one mapping, or a key that is not text."""
    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    safe = yaml.constructor.SafeConstructor

    class CheckedLoader(base):
        yaml_implicit_resolvers: dict[Any, list[tuple[str, Any]]] = {}
        yaml_constructors: dict[Any, Any] = {}

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: dict[Any, int] = {}
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":
                        continue  # `<<: *defaults`: later keys override merged ones
                    key = self.construct_object(key_node, deep=True)
                    if not isinstance(key, str):
                        raise _error(
                            f"the key {key_node.value!r} is not a name: write a name, or quote "
                            "it to use it as one",
                            key_node.start_mark,
                        )
                    first = seen.get(key)
                    if first is None:
                        seen[key] = key_node.start_mark.line + 1
                    else:
                        raise _error(
                            f"duplicate key {key!r} (first given on line {first}): "
                            "each key may appear once in a mapping",
                            key_node.start_mark,
                        )
            return super().construct_mapping(node, deep=deep)

        def construct_named(self, node: Any) -> Any:
            """`null`/`~`/nothing as None, `true`/`false` as a yes or no; any other value under
            an explicit `!!null` or `!!bool` tag is refused."""
            value = self.construct_scalar(node)
            named = _NAMED.get((node.tag, value), _MISSING)
            if named is _MISSING:
                wanted = "true or false" if node.tag.endswith("bool") else "null, ~ or nothing"
                raise _error(f"{value!r} tagged {node.tag}: write {wanted}", node.start_mark)
            return named

    for tag, pattern, first in (
        ("tag:yaml.org,2002:null", "~|null|", ["~", "n", ""]),
        ("tag:yaml.org,2002:bool", "true|false", ["t", "f"]),
        ("tag:yaml.org,2002:merge", "<<", ["<"]),
    ):
        CheckedLoader.add_implicit_resolver(tag, re.compile(f"^(?:{pattern})$"), first)
    constructors: tuple[tuple[str | None, Any], ...] = (
        ("tag:yaml.org,2002:null", CheckedLoader.construct_named),
        ("tag:yaml.org,2002:bool", CheckedLoader.construct_named),
        ("tag:yaml.org,2002:str", safe.construct_yaml_str),
        ("tag:yaml.org,2002:seq", safe.construct_yaml_seq),
        ("tag:yaml.org,2002:map", safe.construct_yaml_map),
        (None, safe.construct_undefined),  # `!!int`, `!!float`, `!!timestamp`, `!foo`: refused
    )
    for named_tag, constructor in constructors:
        CheckedLoader.add_constructor(named_tag, constructor)
    return CheckedLoader


_NAMED: dict[tuple[str, str], Any] = {
    **{("tag:yaml.org,2002:null", v): None for v in ("~", "null", "")},
    ("tag:yaml.org,2002:bool", "true"): True,
    ("tag:yaml.org,2002:bool", "false"): False,
}
"""The scalars that are not text: nothing, yes and no, each in these spellings only."""


def _parse(text: str) -> Any:
    import yaml

    loader = _loader(yaml)
    try:
        _check_events(yaml, text, loader)
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or "cannot be parsed"
        context = getattr(exc, "context", None)
        raise _error(f"{context}: {problem}" if context else problem, mark) from None


@functools.cache
def shipped_documents() -> Mapping[str, str]:
    """{SHA-256 of a shipped document's text: SHA-256 of its parsed form}, from
    `SHIPPED_MANIFEST` (empty when the file is missing or unreadable: then nothing is cached)."""
    try:
        lines = SHIPPED_MANIFEST.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    listed = (line.split(" ", 2) for line in lines if line and not line.startswith("#"))
    return {parts[0]: parts[1] for parts in listed if len(parts) == 3}


def _cached(entry: Path, header: str, parsed: str) -> Any:
    """The value of a cache entry when it is exactly the listed parsed form; `_MISSING`
    otherwise."""
    try:
        first, _, stored = entry.read_text(encoding="utf-8").partition("\n")
        if first != header or sha256_hex(stored) != parsed:
            return _MISSING
        return json.loads(stored)
    except (OSError, ValueError):
        return _MISSING


def load_yaml(text: str, cache: bool = True) -> Any:
    """Parse one YAML document safely (no Python objects, no key twice, aliases within the
    limits). Raises DocumentSyntaxError, in one line. A shipped document may come from the
    cache (module docstring); any other is parsed from `text`."""
    source_sha256 = sha256_hex(text) if cache else ""
    parsed = shipped_documents().get(source_sha256) if cache else None
    if parsed is None:
        return _parse(text)
    header = f"{source_sha256} {parsed}"
    entry = _cache_dir() / CACHE_FORMAT / (source_sha256 + ".json")
    value = _cached(entry, header, parsed)
    if value is not _MISSING:
        return value
    value = _parse(text)
    try:
        stored = json.dumps(value)
        if sha256_hex(stored) == parsed:
            entry.parent.mkdir(parents=True, exist_ok=True)
            partial = entry.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(f"{header}\n{stored}", encoding="utf-8")
            os.replace(partial, entry)
    except (OSError, ValueError):
        pass
    return value


def dump_yaml(value: Any) -> str:
    """`value` (plain data: mappings, lists, text, numbers) as a YAML document, keys in their
    order and short lists on one line: the live table's round written as a round file would
    give it. PyYAML is loaded here alone, and only when a document is written."""
    import yaml

    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=None)
