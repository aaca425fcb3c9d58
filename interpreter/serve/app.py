"""The web server of `rulebook serve`: Starlette routes over the tables.

- `/?key=K`: the start page (tables, a new one, a save loaded); the key is
  the server's own, printed at start: only who was given it sees the links.
- `/tables/T?key=K`: a table's links, one per seat, the spectators' and the
  host's.
- `/t/T/TOKEN`: the page of whoever holds TOKEN (a seat, a spectator, the
  host); `/ws/T/TOKEN` its live updates and answers; `/t/T/HOST/save` the
  game as a save file; `/t/T/HOST/undo?to=N` a hot-seat table taken back.

Each websocket receives only the picture of the token it was opened with.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from pathlib import Path
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..run.engine import Program, with_players
from ..support.diagnostics import DiagnosticError
from .pages import fragment, render, static_file
from .replay import marks, rounds_of
from .replay import step as replay_step
from .seatview import DESIGNER, HOST, PUBLIC
from .tables import AGENTS, PERSON, Seat, Table, random_seed, seats_for

MAX_MESSAGE = 16_384  # characters of one websocket message from a browser
MAX_SAVE = 2_000_000  # bytes of a save file loaded from a browser


class Server:
    """The tables of one served ruleset, kept in `folder` (None: in memory)."""

    def __init__(self, program: Program, options: dict, players: int | None,
                 variant: str | None = None, folder: Path | None = None,
                 key: str | None = None):
        self.program = program
        self.options = dict(options)
        self.players = players
        self.variant = variant
        self.folder = folder
        self.tables: dict[str, Table] = {}
        self.conns: dict[str, set[tuple[WebSocket, str]]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.round_index: dict[tuple[str, int], list[tuple[int, str | None]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            keyfile = folder / "server-key"
            if key is None and keyfile.is_file():
                key = keyfile.read_text().strip()
            self.key = key or secrets.token_urlsafe(18)
            keyfile.write_text(self.key)
        else:
            self.key = key or secrets.token_urlsafe(18)

    # ---------------------------------------------------------------- tables
    def new_table(self, agents: list[str], players: int | None = None, seed: int | None = None,
                  hot_seat: bool = False, choices: list | None = None,
                  options: dict | None = None) -> Table:
        players = players if players is not None else self.players
        opts = with_players(self.program.rs, dict(options or self.options), players)
        seats = seats_for(self.program, opts, players, agents)
        tid = secrets.token_hex(4)
        while tid in self.tables:
            tid = secrets.token_hex(4)
        table = Table(tid, self.program, random_seed() if seed is None else seed, opts,
                      players, seats, self.folder, self.variant, hot_seat, choices,
                      publish=self.published)
        self.tables[tid] = table
        table.start()
        return table

    def resume(self) -> int:
        """Every table kept in the folder, replayed to where it was."""
        if self.folder is None:
            return 0
        n = 0
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                seats = [Seat(s["seat"], s["agent"], s["token"]) for s in data["seats"]]
                table = Table(data["table"], self.program, int(data["seed"]), data["options"],
                              data["players"], seats, self.folder, data.get("variant"),
                              bool(data.get("hot_seat")), [tuple(c) for c in data["choices"]],
                              data["spectator"], data["host"], publish=self.published,
                              seq=int(data.get("seq", 0)))
            except (ValueError, KeyError, TypeError, OSError):
                continue  # not a table of this server's
            table.created = data.get("created", table.created)
            self.tables[table.tid] = table
            table.start()
            n += 1
        return n

    def stop(self) -> None:
        for t in self.tables.values():
            t.stop()

    def rounds(self, table: Table) -> list[tuple[int, str | None]]:
        """(round, whose turn) at each recorded choice of a table (for the replay viewer)."""
        n = len(table.game.history) if table.game is not None else len(table.replay)
        key = (table.tid, n)
        if key not in self.round_index:
            self.round_index[key] = rounds_of(table)
        return self.round_index[key]

    def find(self, tid: str, token: str) -> tuple[Table, str] | None:
        """The table and what the token opens there: a seat id, PUBLIC or HOST."""
        table = self.tables.get(tid)
        if table is None or not isinstance(token, str):
            return None
        seat = table.seat_of(token)
        if seat is not None:
            return table, seat.sid
        if secrets.compare_digest(token, table.spectator):
            return table, PUBLIC
        if secrets.compare_digest(token, table.host):
            return table, HOST
        return None

    # ---------------------------------------------------------------- live updates
    def published(self, table: Table) -> None:
        """From a table's thread: its pictures changed; send them on."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.push(table)))

    async def push(self, table: Table) -> None:
        lock = self.locks.setdefault(table.tid, asyncio.Lock())
        async with lock:  # (each browser gets the pictures in the order made)
            for ws, key in list(self.conns.get(table.tid, ())):
                try:
                    await ws.send_text(self.message(table, key))
                except Exception:  # noqa: BLE001 - a browser gone away: it reconnects
                    self.conns.get(table.tid, set()).discard((ws, key))

    def message(self, table: Table, key: str) -> str:
        with table.lock:  # (the page, its decision's number and the end, of one moment)
            seq, over = table.shown
            return json.dumps({"html": self.page_fragment(table, key), "seq": seq,
                               "over": over})

    @staticmethod
    def page_fragment(table: Table, key: str) -> str:
        return table.page(key)


def make_app(server: Server) -> Starlette:
    rs = server.program.rs

    def keyed(request: Request) -> bool:
        key = request.query_params.get("key", "")
        return secrets.compare_digest(key, server.key)

    async def start(request: Request) -> Response:
        if not keyed(request):
            return HTMLResponse(render("message.html", title=rs.name or rs.id, message=(
                "Ask the host for the link of your seat.")), status_code=403)
        tables = [{"tid": t.tid, "hot_seat": t.hot_seat, "seats": ", ".join(
            f"{s.sid} {s.agent}" for s in t.seats), "state": "over" if t.finished else
            "at its first decision" if t.seq <= 1 else f"{t.seq} decisions put"}
            for t in sorted(server.tables.values(), key=lambda t: -t.created)]
        active = [(sid, name) for sid, name in rs.seats if sid not in rs.bots]
        return HTMLResponse(render(
            "start.html", title=rs.name or rs.id, ruleset=rs.name or rs.id, key=server.key,
            tables=tables, player_counts=list(range(rs.min_players, rs.max_players + 1)),
            default_players=server.players or rs.max_players,
            seats=[{"name": name or sid} for sid, name in active],
            agents=[PERSON, *AGENTS]))

    async def create(request: Request) -> Response:
        if not keyed(request):
            return HTMLResponse("not yours", status_code=403)
        form = await request.form()
        try:
            players = int(str(form.get("players") or 0)) or None
            seed_text = str(form.get("seed") or "").strip()
            seed = int(seed_text) if seed_text else None
            agents = [str(form.get(f"agent-{i}") or PERSON) for i in range(len(rs.seats))]
            table = server.new_table(agents, players, seed, bool(form.get("hot_seat")))
        except (ValueError, DiagnosticError) as e:
            return HTMLResponse(f"<p>cannot make that table: {_esc(e)}</p>", status_code=400)
        return RedirectResponse(f"/tables/{table.tid}?key={server.key}", status_code=303)

    async def load(request: Request) -> Response:
        if not keyed(request):
            return HTMLResponse("not yours", status_code=403)
        form = await request.form()
        upload = form.get("save")
        try:
            if isinstance(upload, str) or upload is None:
                raise ValueError("no file was sent")
            raw = await upload.read(MAX_SAVE + 1)
            if len(raw) > MAX_SAVE:
                raise ValueError("the file is too large for a saved game")
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
                raise ValueError("not a saved game")
            if data.get("ruleset_id") not in (None, rs.id):
                raise ValueError(f"a game of {data.get('ruleset_id')!r}, not of {rs.id!r}")
            choices = [tuple(str(x) for x in c) for c in data["choices"]
                       if isinstance(c, list) and len(c) == 3]
            agents = [PERSON if a in (None, "human") else str(a).split(",")[0]
                      for a in (data.get("agents") or [])]
            options = {k: v for k, v in (data.get("options") or {}).items()
                       if k not in (data.get("drawn") or [])}
            table = server.new_table(agents, data.get("players"), int(data.get("seed", 0)),
                                     True, choices, options or None)
        except (ValueError, TypeError, KeyError, UnicodeDecodeError, DiagnosticError) as e:
            return HTMLResponse(f"<p>cannot load that: {_esc(e)}</p>", status_code=400)
        return RedirectResponse(f"/tables/{table.tid}?key={server.key}", status_code=303)

    async def links(request: Request) -> Response:
        table = server.tables.get(request.path_params["tid"])
        if not keyed(request) or table is None:
            return HTMLResponse("no such table", status_code=404)
        base = str(request.base_url).rstrip("/")
        seats = [{"name": s.sid, "agent": s.agent,
                  "link": f"{base}/t/{table.tid}/{s.token}" if s.agent == PERSON else None}
                 for s in table.seats]
        return HTMLResponse(render(
            "links.html", title=f"table {table.tid}", ruleset=rs.name or rs.id, tid=table.tid,
            key=server.key, seats=seats, hot_seat=table.hot_seat,
            spectator=f"{base}/t/{table.tid}/{table.spectator}",
            host=f"{base}/t/{table.tid}/{table.host}"))

    async def seat_page(request: Request) -> Response:
        found = server.find(request.path_params["tid"], request.path_params["token"])
        if found is None:
            return HTMLResponse("no such seat", status_code=404)
        table, key = found
        return HTMLResponse(render(
            "seat.html", title=f"{rs.name or rs.id}: {key}", seq=table.seq,
            ws=f"/ws/{table.tid}/{request.path_params['token']}",
            fragment=_markup(server.page_fragment(table, key))))

    async def save(request: Request) -> Response:
        found = server.find(request.path_params["tid"], request.path_params["token"])
        if found is None or found[1] != HOST:
            return HTMLResponse("only the host's link downloads the game", status_code=404)
        table = found[0]
        return Response(json.dumps(table.save_file(), indent=1) + "\n",
                        media_type="application/json", headers={
                            "Content-Disposition": f'attachment; filename="{rs.id}-{table.tid}.json"'})

    async def undo(request: Request) -> Response:
        found = server.find(request.path_params["tid"], request.path_params["token"])
        if found is None or found[1] != HOST:
            return HTMLResponse("only the host's link takes a table back", status_code=404)
        table = found[0]
        try:
            n = int(request.query_params.get("to", ""))
            again = table.back_to(n)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        server.tables[again.tid] = again
        again.start()
        return JSONResponse({"table": again.tid, "choices": n})

    async def replay_page(request: Request) -> Response:
        found = server.find(request.path_params["tid"], request.path_params["token"])
        if found is None:
            return HTMLResponse("no such table", status_code=404)
        table, key = found
        table = server.tables[table.tid]
        # the host sees the game as anyone saw it; a seat as itself; a spectator as one
        views = [(s.sid, s.sid) for s in table.seats] + [(PUBLIC, "spectators"),
                                                         (DESIGNER, "the designer")] \
            if key == HOST else [(key, key if key != PUBLIC else "spectators")]
        shown_as = request.query_params.get("as", views[-1][0])
        if shown_as not in [v for v, _ in views]:
            return HTMLResponse("not a view this link may see", status_code=403)
        try:
            at = int(request.query_params.get("at", "0"))
        except ValueError:
            at = 0
        loop = asyncio.get_running_loop()
        shown = await loop.run_in_executor(None, replay_step, table, at, shown_as)
        rounds, turns = marks(await loop.run_in_executor(None, server.rounds, table),
                              shown["at"])
        return HTMLResponse(render(
            "replay.html", title=f"replay of table {table.tid}", tid=table.tid,
            at=shown["at"], total=shown["total"], key=shown_as,
            shown_as=dict(views).get(shown_as, shown_as), views=views,
            rounds=rounds, turns=turns, fragment=_markup(fragment(shown, rs))))

    async def static(request: Request) -> Response:
        got = static_file(request.path_params["name"])
        if got is None:
            return Response("not found", status_code=404)
        body, media = got
        return Response(body, media_type=media)

    async def live(ws: WebSocket) -> None:
        found = server.find(ws.path_params["tid"], ws.path_params["token"])
        if found is None:
            await ws.close(code=4404)
            return
        table, key = found
        token = ws.path_params["token"]
        await ws.accept()
        server.loop = asyncio.get_running_loop()
        server.conns.setdefault(table.tid, set()).add((ws, key))
        try:
            await ws.send_text(server.message(table, key))
            while True:
                text = await ws.receive_text()
                table = server.tables.get(table.tid, table)  # (an undo makes it anew)
                why = _take(table, token, text)
                await ws.send_text(json.dumps({"error": why} if why else {"taken": True}))
        except WebSocketDisconnect:
            pass
        finally:
            server.conns.get(table.tid, set()).discard((ws, key))

    def _take(table: Table, token: str, text: str) -> str | None:
        """Why a browser's message is refused (None: the answer is taken)."""
        if len(text) > MAX_MESSAGE:
            return f"the message is too long (at most {MAX_MESSAGE} characters)"
        try:
            msg = json.loads(text)
        except ValueError:
            return "not a message of this page"
        if not isinstance(msg, dict) or type(msg.get("seq")) is not int:
            return "not a message of this page"
        return table.answer_from(token, msg["seq"], msg.get("choice"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.loop = asyncio.get_running_loop()
        yield
        server.stop()

    return Starlette(routes=[
        Route("/", start), Route("/tables", create, methods=["POST"]),
        Route("/load", load, methods=["POST"]),
        Route("/tables/{tid}", links), Route("/t/{tid}/{token}", seat_page),
        Route("/t/{tid}/{token}/save", save), Route("/t/{tid}/{token}/undo", undo,
                                                    methods=["POST"]),
        Route("/t/{tid}/{token}/replay", replay_page),
        Route("/static/{name}", static),
        WebSocketRoute("/ws/{tid}/{token}", live),
    ], lifespan=lifespan)


def _esc(e: Exception) -> str:
    from html import escape
    return escape(str(e))


def _markup(html: str) -> Any:
    from markupsafe import Markup
    return Markup(html)
