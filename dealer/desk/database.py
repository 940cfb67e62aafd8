"""Setting a floor's shared audit database up: `dealer db init`."""

from __future__ import annotations

from dealer.audit import is_postgres_url
from dealer.kernel.errors import DealerError


def init(url: str) -> list[str]:
    """Create the audit log's schema, the terminals' role `dealer_app` and the read-only role
    `dealer_auditor` in the PostgreSQL database at `url` (connected as the database's owner,
    who may create roles); return what was done, one line each. Running it again only makes
    the functions and the grants again. The server computes the floor's sums itself, by the
    desk's SQL (`floor_sums_sql`), made here with the log's own functions. An SQLite log needs
    no set-up: it is made on first use."""
    from dealer.audit.postgres import init as init_postgres
    from dealer.desk.floor_sums_sql import FLOOR_SUMS

    text = url.strip()
    if not is_postgres_url(text):
        raise DealerError(
            "URL: expected a postgresql:// URL, e.g. postgresql://owner@host/dbname "
            "(an SQLite log needs no set-up: it is made on first use)"
        )
    return init_postgres(text, FLOOR_SUMS.server)
