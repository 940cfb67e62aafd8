"""A dispute packet: everything about one dispute, gathered once from the log opened read-only,
for a person to print or hand over.

It holds the dispute as it stands, the dispute's own record, where each disputed ruling stands
(in effect, overridden, voided: `audit.status`), the disputed rulings as recorded
(cards, explanation, settings), every record linked to the dispute or to a disputed ruling
(overrides, voids, the resolution, corrections; not the meter movements of a ruling, which the
ruling's own record shows) oldest first, the nearest
checkpoint recorded after the newest of these records (None when there is none yet: then the
chain's verification is the only proof), and the verification of the whole chain."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dealer.audit import disputes, entries, status
from dealer.audit.chain import VerifyResult
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.desk.context import LogLocation, open_desk_log
from dealer.desk.records import verified, write_whole
from dealer.kernel.tuples import NamedTuple

__all__ = ["Packet", "packet", "save"]

DECIDING_SETTINGS = ("profile", "profile_source", "profile_sha256", "house_way", "paytables")
"""The settings of a ruling that say which rules decided it: the profile with its source and
hash, the House Way name and version, the pay table of each wager; any other setting whose name
says it is a version or a hash is shown too (`deciding`)."""


def deciding(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that name the rules, versions and hashes a ruling was decided under."""
    return {
        name: value
        for name, value in settings.items()
        if name in DECIDING_SETTINGS or "sha256" in name or "version" in name
    }


class Packet(NamedTuple):
    """One dispute's packet; `standings` are where its rulings stand (by ruling, in order;
    None for a record that has no status), `last` is the newest record in it, `checkpoint`
    the first checkpoint record after `last` (None when none is recorded yet)."""

    dispute: disputes.Dispute
    claim: Record
    rulings: list[Record]
    standings: list[status.Status | None]
    linked: list[Record]
    last: int
    checkpoint: Record | None
    verified: VerifyResult

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the dispute as `dispute list --json` gives it, the records as `audit show
        --json` does, each ruling with its `deciding` settings and its `status` (as `audit show
        --json` gives it)."""
        return {
            "dispute": self.dispute.to_dict(),
            "claim": self.claim.to_dict(),
            "rulings": [
                r.to_dict()
                | {"deciding": deciding(r.settings), "status": None if s is None else s.to_dict()}
                for r, s in zip(self.rulings, self.standings, strict=True)
            ],
            "linked": [r.to_dict() for r in self.linked],
            "last_record": self.last,
            "checkpoint": self.checkpoint.to_dict() if self.checkpoint else None,
            "verify": self.verified.to_dict(),
        }


def packet(db: LogLocation | None, dispute_id: int) -> Packet:
    """The packet of dispute `dispute_id`; AuditError if there is no such dispute."""
    with open_desk_log(db, read_only=True) as log:
        found = disputes.dispute(log, dispute_id)
        claim = entries.get(log, dispute_id)
        rulings = [entries.get(log, ruling_id) for ruling_id in found.rulings]
        linked = {
            r.id: r
            for source in (dispute_id, *found.rulings)
            for r in entries.links(log, source)
            if r.id != dispute_id and r.kind != RecordKind.METER
        }
        in_packet = [claim, *rulings, *linked.values()]
        last = max(r.id for r in in_packet)
        after = (c for c in log.records(RecordFilter(kind=RecordKind.CHECKPOINT)) if c.id > last)
        return Packet(
            dispute=found,
            claim=claim,
            rulings=rulings,
            standings=[status.status(log, r) for r in rulings],
            linked=[linked[i] for i in sorted(linked)],
            last=last,
            checkpoint=next(after, None),
            verified=verified(log),
        )


def save(path: Path, text: str, db: LogLocation | None) -> None:
    """The packet's page written to `path` whole and private, as an export is (never over the
    log at `db`)."""
    write_whole(path, text, db)
