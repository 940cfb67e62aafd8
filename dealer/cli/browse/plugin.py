"""Our Datasette plugin: the supervisor's pages under `/-/dealer`, the chain banner on every
page, and the guard that makes the server read-only.

Decisions: each page parses its query through `dealer.inputs` (a bad value is one `Error: …`
line naming it, status 400; a record or dispute that is not there, 404), calls one desk
function and renders it (`pages.py`). Only GET and HEAD reach Datasette: any other method is
refused with 405 before a route sees it, so no form, debug page or future write route can
change anything; the database itself is served immutable."""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path
from typing import Any

from datasette import hookimpl
from datasette.utils.asgi import Base400, Response
from datasette.views.base import DatasetteError

from dealer import inputs
from dealer.cli.browse import pages
from dealer.desk import browse, packet, records, shift, supervision
from dealer.desk.records import RecordFilter, RecordKind
from dealer.kernel.errors import DealerError

READ_METHODS = ("GET", "HEAD")

Scope = dict[str, Any]
App = Callable[[Scope, Any, Any], Awaitable[None]]


def _read_only(app: App) -> App:
    async def guarded(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] not in READ_METHODS:
            body = b"Error: the audit log is browsed read-only: nothing can be written here\n"
            await send(
                {
                    "type": "http.response.start",
                    "status": 405,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"allow", b"GET, HEAD"),
                    ],  # fmt: skip
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)

    return guarded


def _given(request: Any, name: str) -> str | None:
    value = request.args.get(name, "").strip()
    return value or None


class DealerPlugin:
    """The plugin for one log: `db`, and the chain's state read when the server started.
    Datasette knows a plugin by its `__name__`, and finds its `templates/` through it: this
    package's (`base.html` adds the chain banner to every page)."""

    __name__ = "dealer.cli.browse"

    def __init__(self, db: Path, chain: browse.ChainState) -> None:
        self.db = db
        self.banner = pages.chain_banner(chain)

    @hookimpl
    def asgi_wrapper(self) -> Callable[[App], App]:
        return _read_only

    @hookimpl
    def extra_template_vars(self) -> dict[str, str]:
        return {"dealer_chain": self.banner, "dealer_css": pages.CSS}

    @hookimpl
    def menu_links(self) -> list[dict[str, str]]:
        return [{"href": href, "label": label} for href, label in pages.NAV]

    @hookimpl
    def handle_exception(
        self, datasette: Any, request: Any, exception: Exception
    ) -> Awaitable[Response]:
        """Every error page (it replaces Datasette's, blocked in `server.build`, which breaks
        on a 404 when `rich` is installed): a page not found or not allowed as one `Error: …`
        line with its status (so is a query Datasette refuses); anything else as an internal
        error, its traceback on stderr."""
        if isinstance(exception, Base400 | DatasetteError):
            message = str(exception.args[0]) if exception.args else "404"
            message = f"there is no page {request.path}" if message == "404" else message
            return self._error(datasette, request, DealerError(message), exception.status)
        traceback.print_exception(exception)
        error = DealerError(f"internal error ({type(exception).__name__})")
        return self._error(datasette, request, error, 500)

    @hookimpl
    def register_routes(self) -> list[tuple[str, Callable[..., Awaitable[Response]]]]:
        return [
            (r"^/-/dealer$", self.home),
            (r"^/-/dealer/record/(?P<record_id>[^/]+)$", self.record),
            (r"^/-/dealer/seat$", self.seat),
            (r"^/-/dealer/disputes$", self.disputes),
            (r"^/-/dealer/packet/(?P<dispute_id>[^/]+)$", self.packet),
            (r"^/-/dealer/meters$", self.meters),
            (r"^/-/dealer/shift$", self.shift),
        ]

    async def _page(
        self, datasette: Any, request: Any, title: str, body: str, status: int = 200
    ) -> Response:
        html = await datasette.render_template(
            "dealer_page.html", {"title": title, "body": body}, request=request
        )
        return Response.html(html, status=status)

    async def _error(self, datasette: Any, request: Any, exc: DealerError, status: int) -> Response:
        body = f'<p class="message-error">Error: {escape(str(exc))}</p>'
        return await self._page(datasette, request, "Error", body, status)

    async def home(self, datasette: Any, request: Any) -> Response:
        links = "".join(f'<li><a href="{h}">{label}</a></li>' for h, label in pages.NAV[1:])
        body = (
            "<h1>The audit log, for supervisors</h1>"
            "<p>Read-only: nothing can be written here. Every table of the log is also "
            f'browsable as it is stored: <a href="/">the database</a>.</p><ul>{links}</ul>'
        )
        return await self._page(datasette, request, "Dealer pages", body)

    async def record(self, datasette: Any, request: Any) -> Response:
        try:
            wanted = inputs.record_id(request.url_vars["record_id"])
            title, body = pages.record_page(records.show(self.db, wanted))
        except DealerError as exc:
            return await self._error(datasette, request, exc, 404)
        return await self._page(datasette, request, title, body)

    async def seat(self, datasette: Any, request: Any) -> Response:
        """A seat's history at a table over a time range, or a patron's (at any table, or at
        the seat given), as `dealer audit search --table --seat` / `--patron`."""
        table, seat = _given(request, "table"), _given(request, "seat")
        patron = _given(request, "patron")
        since, until = _given(request, "since"), _given(request, "until")
        body = "<h1>A seat's history</h1>" + pages.form(
            "/-/dealer/seat",
            [
                pages.field("table", "table", table),
                pages.field("seat", "seat", seat),
                pages.field("patron", "or patron id", patron),
                pages.field("since", "since (UTC)", since),
                pages.field("until", "until", until),
            ],
        )
        if table is None and seat is None and patron is None:
            return await self._page(datasette, request, "Seat history", body)
        try:
            by_patron = patron is not None
            flt = RecordFilter(
                table_id=inputs.table_id(table) if table is not None or not by_patron else None,
                seat=inputs.seat(seat or "", records.ANY_GAME_SEATS)
                if seat is not None or not by_patron
                else None,
                patron=inputs.patron_id(patron) if by_patron else None,
                since=inputs.time(since) if since else None,
                until=inputs.time(until, end_of_day=True) if until else None,
            )
            found = browse.with_status(self.db, flt)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        return await self._page(datasette, request, "Seat history",
                                body + pages.records_table(found))  # fmt: skip

    async def disputes(self, datasette: Any, request: Any) -> Response:
        found = supervision.list_disputes(self.db)
        body = "<h1>Open disputes</h1>" + pages.disputes_table(found)
        return await self._page(datasette, request, "Open disputes", body)

    async def packet(self, datasette: Any, request: Any) -> Response:
        try:
            wanted = inputs.record_id(request.url_vars["dispute_id"], "dispute")
            made = packet.packet(self.db, wanted)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 404)
        title = f"Dispute {wanted}: the packet"
        body = f"<h1>{title}</h1>" + pages.packet_body(made)
        return await self._page(datasette, request, title, body)

    async def meters(self, datasette: Any, request: Any) -> Response:
        table = _given(request, "table")
        body = "<h1>The meter book</h1>" + pages.form(
            "/-/dealer/meters", [pages.field("table", "table", table)]
        )
        try:
            flt = RecordFilter(
                kind=RecordKind.METER, table_id=inputs.table_id(table) if table else None
            )
            found = records.search(self.db, flt, linked=False)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        return await self._page(datasette, request, "Meter book", body + pages.meter_book(found))

    async def shift(self, datasette: Any, request: Any) -> Response:
        table = _given(request, "table")
        since, until = _given(request, "since"), _given(request, "until")
        body = "<h1>Shift summary</h1>" + pages.form(
            "/-/dealer/shift",
            [
                pages.field("table", "table", table),
                pages.field("since", "since (UTC)", since),
                pages.field("until", "until", until),
            ],
        )
        if table is None:
            return await self._page(datasette, request, "Shift summary", body)
        try:
            start = inputs.time(since) if since else None
            end = inputs.time(until, end_of_day=True) if until else None
            summary = shift.shift_summary(self.db, inputs.table_id(table), since=start, until=end)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        return await self._page(datasette, request, "Shift summary",
                                body + pages.shift_body(summary))  # fmt: skip
