"""The list of the documents the package ships, written again by one command:

    python -m dealer.kernel.manifest

`dealer/shipped-documents.txt` (`dealer.kernel.documents.SHIPPED_MANIFEST`) names each shipped
document with the SHA-256 of its text and of its parsed form: the parsed-document cache serves
only these, and a ruling made under a shipped profile or pay table needs no supervisor's
approval because its text is listed here. So after a shipped document is edited (the default
profile, a House Way, a pay table under `paytables/`, Empire's combination table) the list is
written again with this command, in the source tree; until then
`tests/test_cache_decides_nothing.py` fails naming it (else the next ruling would be refused,
its profile "not approved").
"""

from __future__ import annotations

import json
from pathlib import Path

from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import SHIPPED_MANIFEST, load_yaml

COMMAND = "python -m dealer.kernel.manifest"
"""The command that writes the list again."""
HEADER = (
    "# Documents the package ships: SHA-256 of the text, SHA-256 of the parsed form (JSON), path.\n"
    "# Only these are served from the parsed-document cache.\n"
)
PAYTABLES = SHIPPED_MANIFEST.parents[1] / "paytables"
"""The shipped pay tables in the source tree: `paytables/` beside the package."""


def shipped_files(package: Path, paytables: Path) -> list[tuple[str, Path]]:
    """Every shipped document by the path the list names it by: each `*.yaml` under the
    package, then each pay table of `paytables` (`paytables/NAME`), each part in name order."""
    own = sorted((p.relative_to(package).as_posix(), p) for p in package.rglob("*.yaml"))
    return own + sorted((f"paytables/{p.name}", p) for p in paytables.glob("*.yaml"))


def manifest_text(package: Path = SHIPPED_MANIFEST.parent, paytables: Path = PAYTABLES) -> str:
    """The list as it should read for the documents as they are now."""
    lines = []
    for name, path in shipped_files(package, paytables):
        text = path.read_text(encoding="utf-8")
        parsed = sha256_hex(json.dumps(load_yaml(text, cache=False)))
        lines.append(f"{sha256_hex(text)} {parsed} {name}\n")
    return HEADER + "".join(lines)


if __name__ == "__main__":
    SHIPPED_MANIFEST.write_text(manifest_text(), encoding="utf-8")
