"""Ratings and profiles (docs/ratings.md, RATE-n): the pools' tables, a player's profile and rating
history, a game's rating, and the account's choice of a public profile."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api.community import Person, game_rating, history_svg, profile
from api.contract import errors
from api.deps import GameId, RuntimeDep
from api.negotiation import prefers
from api.problems import ApiError
from api.routers.pages import STATIC
from api.runtime import Runtime
from api.sessions import SignedIn, WritingSession
from projections.i18n import N_
from projections.ratings import POOLS
from rulebook import rule_url

VARY = {"Vary": "Accept"}

router = APIRouter(tags=["players"])

Name = Annotated[str, Path(min_length=1, max_length=40, description="The player's display name.")]
Pool = Annotated[int, Path(ge=2, le=4, description="The pool: the player count, 2 to 4.")]

# Why a game is not rated, each a whole message (translated where it is answered, api/problems.py).
WHY_NOT = {
    "not-finished": N_(
        "this game is not rated: the game has not ended: "
        "only a game that ended by the rules is rated (RATE-1)"
    ),
    "cancelled": N_("this game is not rated: the game was cancelled (RATE-1)"),
    "forked": N_("this game is not rated: a fork is never rated (RATE-1)"),
    "not-made-here": N_(
        "this game is not rated: the game was not created here with a secret deal "
        "(an import or a fork) (RATE-1)"
    ),
    "chosen-seed": N_(
        "this game is not rated: the game was created with a chosen seed: "
        "whoever chose it knew the deal (RATE-1)"
    ),
    "bot-played": N_("this game is not rated: a bot played a seat while its person was in the game (RATE-1)"),
    "unclaimed-seat": N_(
        "this game is not rated: a seat was not claimed by an account: "
        "only games between signed-in people count (RATE-1)"
    ),
    "same-account-twice": N_("this game is not rated: one account played two seats (RATE-1)"),
    "handed-over": N_(
        "this game is not rated: the host handed a seat to someone else during the game (RATE-1)"
    ),
}


class ProfileIn(BaseModel):
    public: bool = Field(description="Whether `GET /players/{name}` shows your profile (default: private).")


class ProfileOut(BaseModel):
    name: str
    public: bool
    link: str | None


def _not_found(name: str) -> ApiError:
    return ApiError(404, "player-not-found", "no public profile named {name}", params={"name": repr(name)})


async def _public(runtime: Runtime, name: str) -> Person:
    person: Person | None = await run_in_threadpool(runtime.community.by_name, name)
    if person is None:
        raise _not_found(name)
    return person


@router.get("/ratings", operation_id="listRatings", responses=errors(422))
async def ratings(
    runtime: RuntimeDep,
    pool: Annotated[int, Query(ge=2, le=4, description="The player count of the pool.")] = 2,
) -> dict[str, Any]:
    """The pool's ratings, best first (RATE-3): the players with a public profile, their rating
    (mu - 3 sigma; "?" while provisional, RATE-4) and rated games."""
    folded = await run_in_threadpool(runtime.community.ratings)
    people = await run_in_threadpool(runtime.community.people)
    rows = [
        {
            "player": people[r.account_id].name,
            "rating": round(r.ordinal, 2),
            "shown": r.shown,
            "provisional": r.provisional,
            "games": r.games,
        }
        for r in folded.pool(pool)
        if r.account_id in people and people[r.account_id].public
    ]
    return {"pool": pool, "pools": list(POOLS), "players": rows}


@router.get(
    "/players/{name}",
    operation_id="getPlayer",
    responses={200: {"content": {"text/html": {}}}, **errors(404, 422)},
)
async def player(
    name: Name, runtime: RuntimeDep, response: Response, accept: Annotated[str | None, Header()] = None
) -> Any:
    """A public profile: games played, finished and won by mode (player count), characters and their win
    rates, points by source, average time per move, current and best rating per pool, solo bests per
    Tycho level, recent games with replay links. HTML for a browser (`Accept: text/html`)."""
    if prefers(accept, "text/html", "application/json"):
        return FileResponse(STATIC / "player.html", headers=VARY)  # one URL, two forms: caches keep both
    response.headers["Vary"] = "Accept"
    person = await _public(runtime, name)
    return await run_in_threadpool(profile, runtime.community, person)


@router.get(
    "/players/{name}/ratings/{pool}.svg",
    operation_id="playerRatingHistory",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **errors(404, 422)},
)
async def rating_history(name: Name, pool: Pool, runtime: RuntimeDep) -> Response:
    """The player's rating in a pool after each rated game, as an SVG line."""
    person = await _public(runtime, name)
    folded = await run_in_threadpool(runtime.community.ratings)
    rating = folded.pools.get((pool, person.account_id))
    points = [] if rating is None else rating.history
    return Response(history_svg(person.name, pool, points), media_type="image/svg+xml")


@router.get(
    "/me/profile",
    operation_id="getProfile",
    response_model=ProfileOut,
    responses=errors(401),
    openapi_extra={"x-seat-token": "session"},
)
async def get_profile(runtime: RuntimeDep, session: SignedIn) -> ProfileOut:
    """Whether your profile is public, and its link."""
    people = await run_in_threadpool(runtime.community.people)
    mine = people.get(session.account.account_id)
    public = bool(mine and mine.public)
    name = session.account.name
    return ProfileOut(name=name, public=public, link=f"/players/{name}" if public else None)


@router.put(
    "/me/profile",
    operation_id="setProfile",
    response_model=ProfileOut,
    responses=errors(401, 403, 409, 422),
    openapi_extra={"x-seat-token": "session"},
)
async def set_profile(body: ProfileIn, runtime: RuntimeDep, session: WritingSession) -> ProfileOut:
    """Make your profile public or private. A public name belongs to one account (409
    `profile-name-taken`: another public profile has your display name)."""
    account = session.account
    if body.public and await run_in_threadpool(
        runtime.community.name_taken, account.account_id, account.name
    ):
        raise ApiError(
            409,
            "profile-name-taken",
            "another public profile is named {name}",
            params={"name": repr(account.name)},
        )
    await run_in_threadpool(runtime.community.set_public, account.account_id, body.public, runtime.clock())
    link = f"/players/{account.name}" if body.public else None
    return ProfileOut(name=account.name, public=body.public, link=link)


@router.get("/games/{game_id}/rating", operation_id="getGameRating", responses=errors(404, 409, 422))
async def rating_of_game(game_id: GameId, runtime: RuntimeDep) -> dict[str, Any]:
    """A rated game's ranks (RATE-2) and each seat's rating after it. A game that does not count (not
    ended, cancelled, a fork, an import, a chosen seed, a bot, a seat nobody claimed) answers 409
    `game-not-rated` with `reason` (RATE-1)."""
    try:
        return await run_in_threadpool(game_rating, runtime.community, game_id)
    except ValueError as error:
        reason = str(error)
        raise ApiError(
            409,
            "game-not-rated",
            WHY_NOT.get(reason, "this game is not rated: {reason} (RATE-1)"),
            params={"reason": reason},
            reason=reason,
            rule_id="RATE-1",
            rule_url=rule_url("RATE-1"),
        ) from None
