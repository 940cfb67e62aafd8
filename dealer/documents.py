"""Reading the YAML documents casinos write (profiles, House Ways, pay tables)."""

from __future__ import annotations

from typing import Any

import yaml

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster


def load_yaml(text: str) -> Any:
    """Parse one YAML document safely (no Python objects); raises yaml.YAMLError."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader
