"""What an HTTP request asks of a table in play, as functions of the table and plain arguments with plain answers
(JSON): they run where the table is driven, in this process or, in a cluster, in the one that drives it
(`Hub.run`). Who asks is settled before: an account by its session (`account_id`), a seat by its `token`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .accounts import check_name
from .protocol import Hint
from .tables import Client, Refused, Table

if TYPE_CHECKING:
    from .hub import Hub


def seat_of_asker(table: Table, account_id: int | None, token: str | None) -> int:
    """The seat of the person asking: their account's, or their seat token's."""
    seat = table.seat_for_account(account_id) if account_id is not None else None
    if seat is None and token:
        seat = table.seat_for_token(token)
    if seat is None:
        raise Refused("bad_token", "only a player of this table may ask: log in as the account that sat here, "
                                   "or give your seat token as the header Authorization: Bearer <token>")
    return seat


def token_seat(table: Table, token: str | None) -> int:
    seat = table.seat_for_token(token) if token else None
    if seat is None:
        raise Refused("bad_token", "give your seat token as the header Authorization: Bearer <token>")
    return seat


async def public_state(hub: Hub, table: Table, base_url: str) -> dict[str, Any]:
    """The table as a spectator sees it (a private table shows only its seats)."""
    watchable = table.started and table.settings.get("public", True)
    return {"table": table.info(base_url), "view": table.state.view(None) if watchable else None}


async def join(hub: Hub, table: Table, base_url: str, name: str | None, seat: int | None,
               account: tuple[int, str] | None) -> dict[str, Any]:
    """Seat a person: an account (id, name), or a guest by a name no account holds."""
    if account is not None:
        taken, token = await table.join(account[1], seat, account[0])
    else:
        guest = check_name(name)
        await hub.check_guest_name(guest)
        taken, token = await table.join(guest, seat)
    return {"table": table.info(base_url), "seat": taken, "token": token}


async def seat_at_rematch(hub: Hub, table: Table, base_url: str, name: str, seat: int,
                          account_id: int | None) -> dict[str, Any]:
    """The asker's seat at a rematch: the one their account holds there already, else `seat` (token "": none
    new)."""
    held = table.seat_for_account(account_id) if account_id is not None else None
    if held is not None:
        return {"table": table.info(base_url), "seat": held, "token": ""}
    taken, token = await table.join(name, seat, account_id)
    return {"table": table.info(base_url), "seat": taken, "token": token}


async def decline(hub: Hub, table: Table, base_url: str, account_id: int) -> dict[str, Any]:
    await table.decline(account_id)
    return table.info(base_url)


async def seat_state(hub: Hub, table: Table, token: str | None) -> dict[str, Any]:
    return table.update_for(Client(token_seat(table, token))).model_dump(mode="json")


async def act(hub: Hub, table: Table, token: str | None, action: int | list[int]) -> dict[str, Any]:
    seat = token_seat(table, token)
    await table.submit(seat, action)
    return table.update_for(Client(seat)).model_dump(mode="json")


async def hint(hub: Hub, table: Table, account_id: int | None, token: str | None) -> dict[str, Any]:
    seat = seat_of_asker(table, account_id, token)
    if table.settings.get("hints", False) and not hub.hint_limits(f"{table.id}:{seat}").allow():
        raise Refused("slow_down", f"at most {hub.limits.hints_per_minute:g} hints a minute")
    action, version, draft = await table.hint(seat)
    return Hint(action=action, label=table.state.action_label(action), version=version, draft=draft,
                bot=table.settings["bot"]).model_dump(mode="json")


async def summary(hub: Hub, table: Table, account_id: int) -> dict[str, Any]:
    """What an account's page says of a table it sits at (or is offered a seat at)."""
    held = table.seat_for_account(account_id)
    return {"id": table.id, "game": table.game.id, "title": table.game.title, "players": table.players,
            "status": table.status, "rated": table.rated, "url": f"/t/{table.id}",
            "your_move": held is not None and table.started and held in table.state.to_move()}


OPERATIONS: dict[str, Callable[..., Awaitable[Any]]] = {
    f.__name__: f for f in (public_state, join, seat_at_rematch, decline, seat_state, act, hint, summary)
}
