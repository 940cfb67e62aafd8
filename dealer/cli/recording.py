"""Putting rulings on the record: a `Ruling` becomes an audit `Entry`, written in one
transaction before anything is shown as final."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dealer.ruling import Ruling


def record_rulings(db: Path, user: str, table: str, rulings: Sequence[Ruling]) -> list[int]:
    """Append the rulings atomically; their record ids (the ruling ids shown to people)."""
    from dealer.audit import AuditLog, Entry

    with AuditLog.open(db) as log:
        role = log.role_of(user)
        with log.transaction() as tx:
            return [
                tx.append(
                    Entry(
                        kind="ruling",
                        user_id=user,
                        role=role,
                        table_id=table,
                        game=r.game,
                        action=r.action,
                        input_text=r.input_text,
                        cards=list(r.cards),
                        result=dict(r.result),
                        explanation=list(r.explanation),
                        settings=dict(r.settings),
                        seat=r.seat,
                    )
                )
                for r in rulings
            ]
