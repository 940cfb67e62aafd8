"""The fixed, read-only queries a supervisor asks for in the browser, beside its pages, in
SQLite's dialect (the browser serves SQLite log files only). Here, in the audit layer, because
only the log's own modules write SQL; the browser's server hands them to Datasette as canned
queries (`dealer.cli.browse.server`)."""

from __future__ import annotations

QUERIES: dict[str, dict[str, str]] = {
    "overrides_and_voids_by_user": {
        "title": "Overrides and voids, by the supervisor who made them",
        "sql": (
            "SELECT id, recorded_at, user_id, kind, table_id, seat, links_to AS of_record, reason"
            " FROM records WHERE kind IN ('override', 'void')"
            " AND (:user = '' OR user_id = :user) ORDER BY id"
        ),
    },
    "large_pays_by_user": {
        "title": "Large pays (over the table's sign-off line), by who ruled or signed them off",
        "sql": (
            "SELECT r.id, r.recorded_at, r.table_id, r.user_id AS ruled_by,"
            " json_extract(r.result, '$.signoff_required.seats') AS seats,"
            " json_extract(r.result, '$.signoff_required.over') AS line,"
            " (SELECT s.user_id || ' (#' || s.id || ')' FROM records s"
            "  WHERE s.kind = 'signoff' AND s.links_to = r.id) AS signed_off_by"
            " FROM records r WHERE r.kind = 'ruling'"
            " AND json_extract(r.result, '$.signoff_required') IS NOT NULL"
            " AND (:user = '' OR r.user_id = :user OR EXISTS (SELECT 1 FROM records s"
            "  WHERE s.kind = 'signoff' AND s.links_to = r.id AND s.user_id = :user))"
            " ORDER BY r.id"
        ),
    },
    "records_by_user": {
        "title": "Every record a user made",
        "sql": (
            "SELECT id, recorded_at, kind, game, action, table_id, seat, reason"
            " FROM records WHERE user_id = :user ORDER BY id"
        ),
    },
}
"""Fixed, read-only queries a supervisor asks for, beside the pages of the plugin."""
