"""Our Datasette plugin: the supervisor's pages under `/-/dealer`, the chain banner on every
page, and the gate before Datasette (`guard`).

Decisions: each page parses its query through `dealer.inputs` (a bad value is one `Error: …`
line naming it, status 400; a record or dispute that is not there, 404), calls one desk
function and renders its template with the values of `pages.py`. The gate answers only
requests named for this server (`allowed_hosts`: no DNS rebinding), only GET and HEAD (405
for anything else, before a route sees it, so no form, debug page or future write route can
change anything), none of Datasette's pages of paths, versions and settings, and puts a
Content-Security-Policy allowing no script on every answer."""

from __future__ import annotations

import os
import traceback
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlencode

from datasette import hookimpl
from datasette.utils.asgi import Base400, Response
from datasette.views.base import DatasetteError

from dealer import inputs
from dealer.cli.browse import pages
from dealer.desk import browse, packet, records, shift, stats, stats_pages, supervision, training
from dealer.desk.records import RecordFilter, RecordKind
from dealer.kernel.errors import DealerError

READ_METHODS = ("GET", "HEAD")
STATIC = "/-/static-plugins/dealer.cli.browse/"
"""Where the plugin's own files (`static/`: the style sheet) are served."""
OPEN_PATHS = ("/-/dealer/", "/-/static/", STATIC)
"""Datasette's `/-/` pages that are answered: ours, and the style sheets. Every other one
(databases and their paths, versions, settings, metadata, plugins, the actor, threads,
permissions, messages, log-in tokens) is a 404."""
POLICY = (
    "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every answer: no script at all (the pages need none; the
column menus of Datasette's table view go with it), style sheets from the server only (inline
style is ignored), images from the server and Datasette's `data:` icons, forms to the server,
no framing."""
HEADERS = (
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
"""The headers put on every answer, replacing any of the same name."""

Scope = dict[str, Any]
App = Callable[[Scope, Any, Any], Awaitable[None]]


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The `Host` headers answered: 127.0.0.1, localhost and `host` (the `--host` name, an IPv6
    address in brackets), each with `port` (and without it on port 80), lower-cased. Any other
    is a page asked for under another site's name (DNS rebinding) and refused."""
    names = {"127.0.0.1", "localhost", f"[{host}]" if ":" in host else host}
    named = {f"{name.lower()}:{port}" for name in names}
    return frozenset(named | ({name.lower() for name in names} if port == 80 else set()))


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


async def _refuse(send: Any, status: int, message: str, extra: tuple[Any, ...] = ()) -> None:
    """Answer with one `Error: …` line and nothing else."""
    headers = [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS, *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": f"Error: {message}\n".encode()})


def guard(hosts: frozenset[str]) -> Callable[[App], App]:
    """The server's gate, before Datasette sees a request: a `Host` not in `hosts` is refused
    (421), any method but GET and HEAD (405: nothing can be written, whatever route a form or a
    future Datasette adds), and a `/-/` page that is not in `OPEN_PATHS` or a path that climbs
    (404); every answer that passes gets `HEADERS`. Only HTTP is served."""

    def wrap(app: App) -> App:
        async def guarded(scope: Scope, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                return
            if _header(scope, b"host").lower() not in hosts:
                await _refuse(send, 421, "this server answers only for its own address")
                return
            if scope["method"] not in READ_METHODS:
                message = "the audit log is browsed read-only: nothing can be written here"
                await _refuse(send, 405, message, ((b"allow", b"GET, HEAD"),))
                return
            path = scope["path"]
            hidden = path.startswith("/-/") and not path.startswith(OPEN_PATHS)
            if (hidden and path != "/-/dealer") or os.pardir in path.split("/"):
                await _refuse(send, 404, f"there is no page {path}")
                return

            async def with_headers(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    ours = {name for name, _ in HEADERS}
                    kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in ours]
                    message = {**message, "headers": [*kept, *HEADERS]}
                await send(message)

            await app(scope, receive, with_headers)

        return guarded

    return wrap


def _given(request: Any, name: str) -> str | None:
    value = request.args.get(name, "").strip()
    return value or None


class DealerPlugin:
    """The plugin for one log: `db` (the copy verified when the server started, see
    `server.serve`), the chain's state read then, and the `Host` names answered. Datasette
    knows a plugin by its `__name__`, and finds its `templates/` and `static/` through it:
    this package's (`base.html` adds the chain banner to every page, Datasette's own too).
    Every page is a template rendered by Datasette's Jinja environment (autoescaped) from the
    plain values of `pages.py`."""

    __name__ = "dealer.cli.browse"

    def __init__(
        self, db: Path, chain: browse.ChainState, hosts: frozenset[str], rounds: int
    ) -> None:
        self.db = db
        self.banner = pages.chain_banner(chain)
        self.hosts = hosts
        self.rounds = rounds
        """The simulated rounds of the base wager's edge on the statistics pages."""

    @hookimpl
    def asgi_wrapper(self) -> Callable[[App], App]:
        return guard(self.hosts)

    @hookimpl
    def extra_template_vars(self) -> dict[str, Any]:
        return {"dealer_chain": self.banner}

    @hookimpl
    def extra_css_urls(self) -> list[str]:
        return [f"{STATIC}dealer.css"]

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
            (r"^/-/dealer/training$", self.training),
            (r"^/-/dealer/stats$", self.stats),
            (r"^/-/dealer/stats/flags$", self.flags),
            (r"^/-/dealer/stats/(?P<kind>table|dealer|patron)/(?P<key>[^/]+)$", self.stats_of),
        ]

    async def _page(
        self,
        datasette: Any,
        request: Any,
        template: str,
        values: dict[str, Any],
        status: int = 200,
    ) -> Response:
        html = await datasette.render_template(f"dealer_{template}.html", values, request=request)
        return Response.html(html, status=status)

    async def _error(self, datasette: Any, request: Any, exc: DealerError, status: int) -> Response:
        values = {"title": "Error", "message": str(exc)}
        return await self._page(datasette, request, "error", values, status)

    async def home(self, datasette: Any, request: Any) -> Response:
        values = {"title": "Dealer pages", "nav": pages.NAV[1:]}
        values |= pages.front_page(browse.front_page(self.db))
        return await self._page(datasette, request, "home", values)

    async def record(self, datasette: Any, request: Any) -> Response:
        try:
            wanted = inputs.record_id(request.url_vars["record_id"])
            shown = records.show(self.db, wanted)
            move = None
            if shown.record.kind == RecordKind.METER:
                (move,) = supervision.meter_book(self.db, RecordFilter(ids=(wanted,)))
            values = pages.record_page(shown, move)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 404)
        return await self._page(datasette, request, "record", values)

    async def seat(self, datasette: Any, request: Any) -> Response:
        """A seat's history at a table over a time range, or a patron's (at any table, or at
        the seat given), as `dealer audit search --table --seat` / `--patron`."""
        table, seat = _given(request, "table"), _given(request, "seat")
        patron = _given(request, "patron")
        since, until = _given(request, "since"), _given(request, "until")
        values: dict[str, Any] = {
            "title": "Seat history",
            "rows": None,
            "fields": pages.fields(
                ("table", "table", table),
                ("seat", "seat", seat),
                ("patron", "or patron id", patron),
                ("since", "since (UTC)", since),
                ("until", "until", until),
            ),
        }
        if table is None and seat is None and patron is None:
            return await self._page(datasette, request, "seat", values)
        try:
            by_patron = patron is not None
            start, end = inputs.time_range(since, until)
            flt = RecordFilter(
                table_id=inputs.table_id(table) if table is not None or not by_patron else None,
                seat=inputs.seat(seat or "", records.ANY_GAME_SEATS)
                if seat is not None or not by_patron
                else None,
                patron=inputs.patron_id(patron) if by_patron else None,
                since=start,
                until=end,
            )
            found = browse.with_status(self.db, flt)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        values["rows"] = pages.record_rows(found, flt.seat, flt.patron)
        return await self._page(datasette, request, "seat", values)

    async def disputes(self, datasette: Any, request: Any) -> Response:
        rows = pages.dispute_rows(supervision.list_disputes(self.db))
        return await self._page(datasette, request, "disputes",
                                {"title": "Open disputes", "rows": rows})  # fmt: skip

    async def packet(self, datasette: Any, request: Any) -> Response:
        try:
            wanted = inputs.record_id(request.url_vars["dispute_id"], "dispute")
            made = packet.packet(self.db, wanted)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 404)
        values = {
            "title": f"Dispute {wanted}: the packet",
            "sections": pages.packet_sections(made),
        }
        return await self._page(datasette, request, "packet", values)

    async def meters(self, datasette: Any, request: Any) -> Response:
        table = _given(request, "table")
        try:
            flt = RecordFilter(
                kind=RecordKind.METER, table_id=inputs.table_id(table) if table else None
            )
            found = supervision.meter_book(self.db, flt)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        values = {
            "title": "Meter book",
            "fields": pages.fields(("table", "table", table)),
            "rows": pages.meter_rows(found),
        }
        return await self._page(datasette, request, "meters", values)

    async def shift(self, datasette: Any, request: Any) -> Response:
        table = _given(request, "table")
        since, until = _given(request, "since"), _given(request, "until")
        values: dict[str, Any] = {
            "title": "Shift summary",
            "text": None,
            "fields": pages.fields(
                ("table", "table", table),
                ("since", "since (UTC)", since),
                ("until", "until", until),
            ),
        }
        if table is None:
            return await self._page(datasette, request, "shift", values)
        try:
            start, end = inputs.time_range(since, until)
            summary = shift.shift_summary(self.db, inputs.table_id(table), since=start, until=end)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        values["text"] = pages.shift_text(summary)
        return await self._page(datasette, request, "shift", values)

    async def training(self, datasette: Any, request: Any) -> Response:
        trainee = _given(request, "trainee")
        try:
            found = training.report(
                self.db, inputs.user_id(trainee, "trainee") if trainee else None
            )
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        values = {
            "title": "Trainees and certificates",
            "fields": pages.fields(("trainee", "trainee", trainee)),
            "trainees": found,
        }
        return await self._page(datasette, request, "training", values)

    async def stats(self, datasette: Any, request: Any) -> Response:
        """`dealer stats tables|dealers|patrons` over the range asked for, each row linked."""
        values: dict[str, Any] = {"title": "Statistics", "fields": _period_fields(request)}
        try:
            since, until = _period(request)
            result = stats.statistics(self.db, since=since, until=until, rounds=self.rounds)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        values |= pages.stats_overview(result, _period_query(request))
        return await self._page(datasette, request, "stats", values)

    async def flags(self, datasette: Any, request: Any) -> Response:
        """`dealer stats flags` over the range asked for: each flag's figures, what it is about
        and the rulings behind it, linked."""
        try:
            since, until = _period(request)
            result = stats.statistics(self.db, since=since, until=until, rounds=self.rounds)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        values = {"title": "Flags", "fields": _period_fields(request)}
        values |= pages.flags_view(result, _period_query(request))
        return await self._page(datasette, request, "stats_flags", values)

    async def stats_of(self, datasette: Any, request: Any) -> Response:
        """A table's, dealer's or patron's statistics page (`stats_pages.group_page`): a bad
        id or range is a 400, one with no rulings in the range a 404."""
        kind, key = request.url_vars["kind"], unquote(request.url_vars["key"])
        group = {kind: group for group, kind in pages.STATS_KINDS.items()}[kind]
        try:
            wanted = (
                inputs.user_id(key, "dealer")
                if kind == "dealer"
                else (inputs.table_id if kind == "table" else inputs.patron_id)(key)
            )
            since, until = _period(request)
        except DealerError as exc:
            return await self._error(datasette, request, exc, 400)
        try:
            found = stats_pages.group_page(
                self.db, group, wanted, since=since, until=until, rounds=self.rounds
            )
        except DealerError as exc:
            return await self._error(datasette, request, exc, 404)
        values = {
            "title": f"Statistics of {kind} {wanted}",
            "fields": _period_fields(request),
        }
        values |= pages.group_view(found, _period_query(request))
        return await self._page(datasette, request, "stats_group", values)


PERIOD = ("period", "date", "since", "until")
"""The statistics pages' range, as `dealer stats` takes it (`--period`/`--date` or
`--since`/`--until`)."""


def _period(request: Any) -> tuple[str | None, str | None]:
    """The range of a statistics page: `period=day|month|year` with `date` (default: today,
    UTC), or `since`/`until`, never both (each read as `dealer stats` reads its options)."""
    period, day = _given(request, "period"), _given(request, "date")
    since, until = _given(request, "since"), _given(request, "until")
    if period is None:
        if day is not None:
            raise DealerError("date is the date of a period (day, month or year)")
        return inputs.time_range(since, until)
    if since is not None or until is not None:
        raise DealerError("give a period or since/until, not both")
    return inputs.period_range(period, day, datetime.now(UTC).date())


def _period_fields(request: Any) -> list[pages.Field]:
    return pages.fields(
        ("period", "period (day, month, year)", _given(request, "period")),
        ("date", "date", _given(request, "date")),
        ("since", "or since (UTC)", _given(request, "since")),
        ("until", "until", _given(request, "until")),
    )


def _period_query(request: Any) -> str:
    """The range asked for, as a query to put on the links between the statistics pages."""
    given = {name: value for name in PERIOD if (value := _given(request, name)) is not None}
    return f"?{urlencode(given)}" if given else ""
