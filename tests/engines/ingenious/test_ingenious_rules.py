"""One test per Ingenious rule (docs/rules/ingenious.md), on hand-worked positions with the fixed deal."""

from __future__ import annotations

from typing import Any

import pytest
from ingenious_helpers import E, bag_with_front, place, position, score, tile

from geniusnight.engines.base import IllegalAction
from geniusnight.engines.ingenious.geometry import COLOURS, GEOMETRIES
from geniusnight.engines.ingenious.rules import add_points, frozen, full_set, tile_json

ZERO = dict.fromkeys(("red", "green", "blue", "orange", "yellow", "purple"), 0)


RED = COLOURS.index("red")


def board_of(view: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The view's occupied cells, colour by cell: the start symbols and the tiles' hexes."""
    hexes = [*view["starts"], *(half for tile in view["tiles"] for half in tile)]
    return {(q, r): c for q, r, c in hexes}


def track(**points: int) -> dict[str, int]:
    return {**ZERO, **points}


def track_tuple(**points: int) -> tuple[int, ...]:
    """The engine's track: points by colour index."""
    return tuple(track(**points)[c] for c in COLOURS)


# --- board, tiles, deal ---------------------------------------------------------------------


@pytest.mark.parametrize(("players", "radius", "cells"), [(1, 5, 91), (2, 5, 91), (3, 6, 127), (4, 7, 169)])
def test_board_radius_is_5_6_7_for_1_2_3_4_players(players: int, radius: int, cells: int) -> None:
    s = E.setup(players, {}, 1)
    assert s.radius == radius and GEOMETRIES[radius].n == cells
    assert E.view(s, None)["radius"] == radius


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_start_symbols_sit_at_the_r5_corners_for_every_player_count(players: int) -> None:
    view = E.view(E.setup(players, {}, 1), None)
    expected = [
        [0, -5, "red"],
        [5, -5, "green"],
        [5, 0, "blue"],
        [0, 5, "orange"],
        [-5, 5, "yellow"],
        [-5, 0, "purple"],
    ]
    assert view["starts"] == expected
    assert view["tiles"] == [] and board_of(view) == {(q, r): c for q, r, c in expected}


def test_tile_set_is_5_doubles_per_colour_and_6_of_each_pair() -> None:
    tiles = full_set()
    assert len(tiles) == 120
    assert sum(1 for t in tiles if t // 6 == t % 6) == 30
    assert tiles.count(tile("red", "red")) == 5 and tiles.count(tile("blue", "yellow")) == 6


def test_racks_are_dealt_six_each_in_seat_order_from_the_bag_front() -> None:
    front = [("red", "green")] * 6 + [("blue", "blue")] * 5 + [("orange", "purple")]
    s = E.setup(2, {"shuffle": False, "bag": bag_with_front(front)}, 0)
    assert E.view(s, 0)["rack"] == [["red", "green"]] * 6
    assert E.view(s, 1)["rack"] == [["blue", "blue"]] * 5 + [["orange", "purple"]]
    assert E.view(s, 0)["bag_count"] == 108 and s.turn == 0


def test_bag_option_must_be_exactly_the_120_tile_set() -> None:
    good = [tile_json(t) for t in full_set()]
    E.validate_options(2, {"bag": good})
    for bad in (good[:-1], [*good[:-1], ["red", "red"]], [*good[:-1], ["red", "pink"]], "red"):
        with pytest.raises(IllegalAction) as info:
            E.validate_options(2, {"bag": bad})
        assert info.value.code == "bad_option"


def test_variants_fix_the_player_counts() -> None:
    assert E.player_range({"variant": "solo"}) == (1, 1)
    assert E.player_range({"variant": "teams"}) == (4, 4)
    assert E.player_range({"variant": "standard"}) == (2, 4)
    for players, variant in ((1, "standard"), (3, "teams"), (2, "solo"), (5, "standard")):
        with pytest.raises(IllegalAction):
            E.validate_options(players, {"variant": variant})
    assert E.validate_options(1, {})["variant"] == "solo"


# --- placement --------------------------------------------------------------------------------


def test_a_tile_goes_from_the_rack_on_two_adjacent_empty_cells_c1_on_the_first() -> None:
    s = position(racks=[[("red", "blue")], [("green", "green")]])
    s2 = place(s, 0, "blue", "red", (0, 0), (1, 0))
    view = E.view(s2, None)
    assert view["tiles"] == [[[0, 0, "blue"], [1, 0, "red"]]]  # c1 on the first cell
    board = board_of(view)
    assert board[(0, 0)] == "blue" and board[(1, 0)] == "red"
    assert s2.racks[0] == s.bag[:6] and s2.log[0]["colors"] == ("blue", "red")  # refilled from the bag
    bad = [
        ("not_adjacent", ("red", "blue", (0, 0), (2, 0))),
        ("off_board", ("red", "blue", (0, 0), (6, 0))),
        ("occupied", ("red", "blue", (0, -5), (0, -4))),  # a start symbol can't be covered
        ("not_in_rack", ("green", "green", (0, 0), (1, 0))),
    ]
    for code, (c1, c2, a, b) in bad:
        with pytest.raises(IllegalAction) as info:
            place(s, 0, c1, c2, a, b)
        assert info.value.code == code
    with pytest.raises(IllegalAction) as info:
        place(s2, 1, "green", "green", (0, 0), (0, 1))
    assert info.value.code == "occupied"


def test_first_tile_must_touch_a_start_symbol() -> None:
    s = position(racks=[[("red", "blue")] * 6, [("green", "green")] * 6], started=False)
    assert E.view(s, 0)["first_round"] is True
    with pytest.raises(IllegalAction) as info:
        place(s, 0, "red", "blue", (0, 0), (1, 0))
    assert info.value.code == "first_round"
    s2 = place(s, 0, "red", "blue", (0, -3), (0, -4))  # (0,-4) touches the red start (0,-5)
    assert s2.started[0] is True


def test_first_tile_must_touch_a_start_symbol_no_earlier_tile_touches() -> None:
    s = position(racks=[[("red", "blue")] * 6, [("green", "green")] * 6], started=False)
    s = place(s, 0, "red", "blue", (0, -3), (0, -4))
    # the red start is taken: seat 1 may not use it, even on its other side
    with pytest.raises(IllegalAction) as info:
        place(s, 1, "green", "green", (1, -5), (1, -4))
    assert info.value.code == "first_round"
    free = E.view(s, 1)["free_starts"]
    assert [0, -5] not in free and len(free) == 5
    s = place(s, 1, "green", "green", (4, -4), (3, -3))  # (4,-4) touches the green start (5,-5)
    assert s.started == (True, True)


def test_later_tiles_may_go_anywhere() -> None:
    s = position(racks=[[("red", "blue")] * 6, [("green", "green")] + [("red", "blue")] * 5], started=False)
    s = place(s, 0, "red", "blue", (0, -3), (0, -4))
    s = place(s, 1, "green", "green", (4, -4), (3, -3))
    s = place(s, 0, "red", "blue", (0, 0), (1, 0))  # touches nothing: fine now
    assert s.started == (True, True)


# --- scoring ---------------------------------------------------------------------------------


def test_each_hex_scores_runs_along_its_five_outward_lines() -> None:
    board = {
        (1, 0): "red",
        (2, 0): "red",
        (3, 0): "red",  # 3 red beyond (0,0) toward +q
        (-1, 0): "red",
        (-2, 0): "blue",  # 1 red toward -q, then the run breaks
        (0, 2): "blue",
        (0, 3): "blue",
        (0, 4): "red",  # 2 blue beyond (0,1) toward +r
        (-1, 2): "blue",  # 1 blue beyond (0,1) toward (-1,+1)
        (1, 1): "green",  # a different colour scores nothing
    }
    s = position(board=board, racks=[[("red", "blue")], [("green", "green")]])
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    assert score(s2, 0) == track(red=4, blue=3)
    assert s2.log[0]["gained"] == {"red": 4, "blue": 3}


def test_the_placed_tile_never_scores_itself() -> None:
    # red/red on (0,0)-(1,0) next to red (2,0): only the hex on (1,0) sees (2,0); the hex on
    # (0,0) must not count its partner (nor the run behind it)
    s = position(board={(2, 0): "red"}, racks=[[("red", "red")], [("green", "green")]])
    s2 = place(s, 0, "red", "red", (0, 0), (1, 0))
    assert score(s2, 0) == track(red=1)


def test_start_symbols_score_like_placed_hexes() -> None:
    s = position(racks=[[("red", "green")], [("green", "green")]])
    s2 = place(s, 0, "red", "green", (0, -4), (1, -4))  # (0,-4) sees the red start (0,-5)
    assert score(s2, 0) == track(red=1)
    s3 = place(s2, 1, "green", "green", (4, -4), (3, -4))  # (4,-4) sees the green start (5,-5)
    assert score(s3, 1) == track(green=1)  # (3,-4) sees (4,-4) only along the partner line


def test_a_run_stops_at_a_gap_or_another_colour() -> None:
    board = {(1, 0): "red", (3, 0): "red", (-1, 0): "blue", (-2, 0): "red"}
    s = position(board=board, racks=[[("red", "yellow")], [("green", "green")]])
    s2 = place(s, 0, "red", "yellow", (0, 0), (0, 1))
    assert score(s2, 0) == track(red=1)


def test_a_colour_stops_at_18_and_excess_points_are_lost() -> None:
    board = {(1, 0): "red", (2, 0): "red", (3, 0): "red", (4, 0): "red"}
    s = position(board=board, racks=[[("red", "green")] * 6, [("green", "green")]], tracks=[track(red=16), track()])
    s2 = place(s, 0, "red", "green", (0, 0), (0, 1))
    assert score(s2, 0)["red"] == 18
    assert s2.log[0]["gained"] == {"red": 2} and s2.log[0]["raw"] == {"red": 4}


def test_reaching_exactly_18_gives_an_extra_placement_before_refilling() -> None:
    board = {(1, 0): "red", (2, 0): "red"}
    s = position(board=board, racks=[[("red", "green")] * 6, [("green", "green")]], tracks=[track(red=16), track()])
    s2 = place(s, 0, "red", "green", (0, 0), (0, 1))
    assert score(s2, 0)["red"] == 18
    view = E.view(s2, 0)
    assert view["phase"] == "place" and view["to_act"] == [0] and view["bonus_pending"] == 0
    assert view["placements_left"] == 1
    assert len(view["rack"]) == 5  # not refilled before the bonus placement
    assert [e["type"] for e in view["log"]] == ["place", "bonus"]
    s3 = place(s2, 0, "red", "green", (-3, 3), (-3, 4))
    assert len(s3.racks[0]) == 6 and s3.turn == 1  # refilled after the bonus placement


def test_no_bonus_for_a_colour_already_at_18() -> None:
    board = {(1, 0): "red", (2, 0): "red"}
    s = position(board=board, racks=[[("red", "green")] * 6, [("green", "green")]], tracks=[track(red=18), track()])
    s2 = place(s, 0, "red", "green", (0, 0), (0, 1))
    assert score(s2, 0)["red"] == 18 and s2.turn == 1


def test_bonus_turn_chains_when_two_colours_reach_18() -> None:
    board = {(1, 0): "red", (0, 2): "blue"}
    s = position(
        board=board, racks=[[("red", "blue")] * 6, [("green", "green")]], tracks=[track(red=17, blue=17), track()]
    )
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    assert score(s2, 0) == track(red=18, blue=18)
    view = E.view(s2, 0)
    assert view["placements_left"] == 2 and view["bonus_pending"] == 1 and s2.turn == 0
    assert s2.log[-1] == {"type": "bonus", "seat": 0, "count": 2, "colors": ("red", "blue"), "n": 1}
    s3 = place(s2, 0, "red", "blue", (-3, 3), (-3, 4))
    s4 = place(s3, 0, "red", "blue", (-3, 0), (-2, 0))
    assert s3.turn == 0 and s3.pending == 1 and s4.pending == 0
    assert s4.phase == "swap"  # no tile left shows a lowest colour (green ... purple at 0)


def test_a_bonus_placement_can_earn_another_bonus() -> None:
    board = {(1, 0): "red", (-3, 2): "green"}
    s = position(
        board=board,
        racks=[[("red", "yellow"), ("green", "yellow")] * 3, [("green", "green")]],
        tracks=[track(red=17, green=17), track()],
    )
    s2 = place(s, 0, "red", "yellow", (0, 0), (0, 1))
    assert s2.pending == 1
    s3 = place(s2, 0, "green", "yellow", (-3, 3), (-2, 3))  # green reaches 18: bonus again
    assert s3.turn == 0 and s3.pending == 1 and score(s3, 0)["green"] == 18


def test_a_bonus_with_an_empty_rack_is_lost() -> None:
    board = {(1, 0): "red"}
    s = position(board=board, racks=[[("red", "green")], [("green", "green")]], tracks=[track(red=17), track()])
    s2 = place(s, 0, "red", "green", (0, 0), (0, 1))
    assert s2.turn == 1 and len(s2.racks[0]) == 6


def red_runs(players: int, points: int) -> dict[tuple[int, int], str]:
    """Red hexes on the rays out of (0, 0), away from (0, 1), so a red hex on (0, 0) scores
    exactly ``points`` (its partner on (0, 1) is green and scores nothing)."""
    geom = GEOMETRIES[E.setup(players, {"shuffle": False}, 0).radius]
    starts = {(q, r): c for q, r, c in E.view(E.setup(players, {"shuffle": False}, 0), None)["starts"]}
    board: dict[tuple[int, int], str] = {}
    left = points
    for ray in geom.rays[geom.index[(0, 0)]][:5]:  # direction 5 leads to (0, 1)
        cells = [geom.cells[c] for c in ray]
        end = next((i for i, c in enumerate(cells) if c in starts), len(cells))
        if end < len(cells) and starts[cells[end]] == "red":
            end -= 1  # leave a gap before the red start symbol
        for cell in cells[: min(end, left)]:
            board[cell] = "red"
        left -= min(end, left)
    assert left == 0
    return board


DOUBLE_TRACK = [("solo", 1), ("teams", 4)]


def double_track_place(variant: str, players: int, red: int, gain: int) -> tuple[int, int]:
    """Seat 0 scores ``gain`` red points from ``red``: the new red and the bonuses earned."""
    racks = [[("red", "green")] * 6 for _ in range(players)]
    tracks = [track(red=red)] if variant == "solo" else [track(red=red), track()]
    s = position(players=players, variant=variant, board=red_runs(players, gain), racks=racks, tracks=tracks)
    s2 = place(s, 0, "red", "green", (0, 0), (0, 1))
    placed = next(e for e in s2.log if e["type"] == "place")
    assert placed["raw"] == {"red": gain}
    return score(s2, 0)["red"], placed["bonus"]


@pytest.mark.parametrize(("variant", "players"), DOUBLE_TRACK)
def test_double_track_a_scoring_that_reaches_18_stops_there_and_the_excess_is_lost(variant: str, players: int) -> None:
    assert double_track_place(variant, players, 16, 9) == (18, 1)  # not 25: the first board ends at 18


@pytest.mark.parametrize(("variant", "players"), DOUBLE_TRACK)
def test_double_track_reaching_exactly_18_gives_one_extra_placement(variant: str, players: int) -> None:
    assert double_track_place(variant, players, 17, 1) == (18, 1)


@pytest.mark.parametrize(("variant", "players"), DOUBLE_TRACK)
def test_double_track_a_later_scoring_moves_on_from_18_toward_36(variant: str, players: int) -> None:
    assert double_track_place(variant, players, 18, 5) == (23, 0)


@pytest.mark.parametrize(("variant", "players"), DOUBLE_TRACK)
def test_double_track_reaching_36_on_the_second_board_gives_a_second_extra_placement(
    variant: str, players: int
) -> None:
    assert double_track_place(variant, players, 35, 3) == (36, 1)  # capped at 36, one bonus


@pytest.mark.parametrize(("variant", "players"), DOUBLE_TRACK)
def test_double_track_never_gives_two_bonuses_from_one_scoring_of_a_colour(variant: str, players: int) -> None:
    assert double_track_place(variant, players, 17, 19) == (18, 1)  # not 36 with two bonuses


def test_double_track_bonus_thresholds_are_in_the_view() -> None:
    s = position(players=1, variant="solo")
    assert E.view(s, 0)["cap"] == 36 and E.view(s, 0)["bonus_at"] == [18, 36]


def test_double_track_a_double_tile_scores_symbol_by_symbol() -> None:
    # both hexes red: the first symbol's 3 stops at 18 (a bonus), the second moves on to 21
    board = {(1, 0): "red", (2, 0): "red", (-1, 1): "red", (-2, 1): "red"}
    s = position(players=1, variant="solo", board=board, racks=[[("red", "red")] * 6], tracks=[track(red=15)])
    s2 = place(s, 0, "red", "red", (0, 0), (0, 1))  # (0,0) sees 2 + 1 red, (0,1) sees 1 + 2
    assert score(s2, 0)["red"] == 21 and s2.log[0]["bonus"] == 1
    assert s2.log[0]["raw"] == {"red": 6} and s2.log[0]["gained"] == {"red": 6}


def test_double_track_a_double_tile_scores_its_symbols_in_the_order_that_leaves_the_colour_highest() -> None:
    # red at 17, hexes worth 9 and 3: 3 first stops at 18 and the 9 moves on to 27
    # (9 first would stop at 18 and leave 21)
    assert add_points(track_tuple(red=17), RED, 9, RED, 3, 36, (18, 36)) == (track_tuple(red=27), 1)
    assert add_points(track_tuple(red=17), RED, 3, RED, 9, 36, (18, 36)) == (track_tuple(red=27), 1)


def test_double_track_a_double_tile_can_pass_both_thresholds_with_two_bonuses() -> None:
    # each symbol is one scoring: 17 + 1 stops at 18, then 18 + 19 stops at 36
    assert add_points(track_tuple(red=17), RED, 19, RED, 1, 36, (18, 36)) == (track_tuple(red=36), 2)


def test_standard_track_a_double_tile_stops_at_18() -> None:
    assert add_points(track_tuple(red=17), RED, 9, RED, 3, 18, (18,)) == (track_tuple(red=18), 1)


def test_teams_share_one_track_per_team_0_2_against_1_3() -> None:
    board = {(1, 0): "red", (2, 0): "red"}
    racks = [[("red", "green"), ("blue", "orange"), ("yellow", "purple")] * 2 for _ in range(4)]
    s = position(players=4, variant="teams", board=board, racks=racks, tracks=[track(), track()])
    s = place(s, 0, "red", "green", (0, 0), (0, 1))
    s = place(s, 1, "red", "green", (-1, 0), (-1, 1))  # sees (0,0) (1,0) (2,0): 3 red
    s = place(s, 2, "red", "green", (3, 0), (3, 1))  # sees (2,0) (1,0) (0,0) (-1,0): 4 red
    view = E.view(s, 3)
    assert view["teams"] == [[0, 2], [1, 3]]
    assert view["scores"][0] == view["scores"][2] == track(red=6)
    assert view["scores"][1] == view["scores"][3] == track(red=3, green=1)  # (-1,1) sees (0,1)
    assert view["cap"] == 36


def test_partners_cannot_see_each_others_racks() -> None:
    s = E.setup(4, {"variant": "teams"}, 5)
    for seat in range(4):
        view = E.view(s, seat)
        assert view["rack"] == [tile_json(t) for t in s.racks[seat]]
        text = repr({k: v for k, v in view.items() if k != "rack"})
        partner = (seat + 2) % 4
        assert "racks" not in view and view["rack_sizes"] == [6, 6, 6, 6]
        assert str([tile_json(t) for t in s.racks[partner]]) not in text
    assert "rack" not in E.view(s, None)


# --- swap ------------------------------------------------------------------------------------


def test_swap_is_offered_when_no_tile_left_shows_a_tied_lowest_colour() -> None:
    # red and blue tie lowest at 0; the remaining tiles show neither
    racks = [[("red", "blue"), ("green", "orange"), ("yellow", "purple"), ("green", "yellow")], [("green", "green")]]
    tracks = [track(green=3, orange=3, yellow=3, purple=3), track()]
    s = position(racks=racks, tracks=tracks)
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    view = E.view(s2, 0)
    assert view["phase"] == "swap" and view["swap_offer"] is True and view["to_act"] == [0]
    assert len(view["rack"]) == 3  # not refilled yet
    assert "swap_offer" not in E.view(s2, 1)


def test_swap_is_not_offered_while_a_tile_shows_a_tied_lowest_colour() -> None:
    # red and blue tie lowest; a blue tile remains, so no offer: the rack is just refilled
    racks = [[("red", "orange"), ("blue", "green"), ("yellow", "purple")], [("green", "green")]]
    tracks = [track(green=3, orange=3, yellow=3, purple=3), track()]
    s = position(racks=racks, tracks=tracks)
    s2 = place(s, 0, "red", "orange", (0, 0), (0, 1))
    assert s2.phase == "place" and s2.turn == 1 and len(s2.racks[0]) == 6


def test_accepted_swap_shows_the_tiles_puts_them_at_the_bag_back_and_draws_six() -> None:
    racks = [[("red", "blue"), ("green", "orange"), ("yellow", "purple")], [("green", "green")]]
    tracks = [track(green=3, orange=3, yellow=3, purple=3), track()]
    s = position(racks=racks, tracks=tracks)
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    front = s2.bag[:6]
    s3 = E.apply(s2, 0, {"type": "swap", "accept": True})
    assert s3.racks[0] == front
    assert s3.bag[-2:] == (tile("green", "orange"), tile("yellow", "purple"))  # shuffle false: in order
    assert len(s3.bag) == len(s2.bag) - 6 + 2
    last = E.view(s3, 1)["log"][-1]
    assert last["type"] == "swap" and last["tiles"] == (("green", "orange"), ("yellow", "purple"))
    assert s3.turn == 1 and s3.phase == "place"


def test_accepted_swap_shuffles_the_bag_unless_shuffle_is_false() -> None:
    s = E.setup(2, {}, 11).copy()
    s.racks = ((tile("green", "orange"),) * 2 + (tile("red", "red"),), s.racks[1])
    s.tracks = ((0, 3, 3, 3, 3, 3), (0,) * 6)
    s.started = (True, True)
    s2 = place(s, 0, "red", "red", (0, 0), (0, 1))
    assert s2.phase == "swap"
    s3 = E.apply(s2, 0, {"type": "swap", "accept": True})
    assert sorted(s3.bag + s3.racks[0]) == sorted(s2.bag + s2.racks[0])
    assert list(s3.bag + s3.racks[0]) != list(s2.bag + s2.racks[0])  # shuffled (seeded)


@pytest.mark.parametrize("seed", range(6))
def test_an_exchange_draws_six_new_tiles_before_the_old_ones_go_back(seed: int) -> None:
    s = E.setup(2, {}, seed).copy()
    s.racks = ((tile("green", "orange"),) * 2 + (tile("red", "red"),), s.racks[1])
    s.tracks = ((0, 3, 3, 3, 3, 3), (0,) * 6)
    s.started = (True, True)
    s2 = place(s, 0, "red", "red", (0, 0), (0, 1))
    assert s2.phase == "swap"
    s3 = E.apply(s2, 0, {"type": "swap", "accept": True})
    assert s3.racks[0] == s2.bag[:6]  # drawn from the bag as it was: no given-up tile among them
    assert sorted(s3.bag) == sorted(s2.bag[6:] + s2.racks[0])  # the old tiles went back after


def test_no_exchange_offer_when_the_bag_holds_fewer_than_six_tiles() -> None:
    racks = [[("red", "blue"), ("green", "orange"), ("yellow", "purple")], [("green", "green")]]
    tracks = [track(green=3, orange=3, yellow=3, purple=3), track()]
    full = position(racks=racks, tracks=tracks)
    s = full.copy()
    s.bag = full.bag[:5]
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))  # no tile left shows red or blue
    assert s2.phase == "place" and s2.turn == 1  # not offered: the rack is refilled instead
    assert s2.racks[0] == (tile("green", "orange"), tile("yellow", "purple"), *full.bag[:4])
    s.bag = full.bag[:6]
    assert place(s, 0, "red", "blue", (0, 0), (0, 1)).phase == "swap"  # six are enough


def test_declined_swap_refills_the_rack() -> None:
    racks = [[("red", "blue"), ("green", "orange")], [("green", "green")]]
    tracks = [track(green=3, orange=3, yellow=3, purple=3), track()]
    s = position(racks=racks, tracks=tracks)
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    s3 = E.apply(s2, 0, {"type": "swap", "accept": False})
    assert s3.racks[0] == (tile("green", "orange"), *s2.bag[:5]) and s3.turn == 1


def test_swap_answer_only_in_the_swap_phase_and_placement_not_during_it() -> None:
    s = position(racks=[[("red", "blue")] * 2, [("green", "green")]])
    with pytest.raises(IllegalAction) as info:
        E.apply(s, 0, {"type": "swap", "accept": True})
    assert info.value.code == "wrong_phase"
    s = position(
        racks=[[("red", "blue"), ("green", "orange")], [("green", "green")]],
        tracks=[track(green=3, orange=3, yellow=3, purple=3), track()],
    )
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    with pytest.raises(IllegalAction) as info:
        place(s2, 0, "green", "orange", (3, 0), (3, 1))
    assert info.value.code == "wrong_phase"


# --- end and winner ---------------------------------------------------------------------------


def test_game_ends_at_once_when_a_player_has_every_colour_at_the_cap() -> None:
    board = {(1, 0): "red"}
    s = position(
        racks=[[("red", "green")] * 6, [("green", "green")]],
        board=board,
        tracks=[track(red=17, green=18, blue=18, orange=18, yellow=18, purple=18), track()],
    )
    s2 = place(s, 0, "red", "green", (0, 0), (0, 1))
    out = E.outcome(s2)
    assert out is not None and out["winners"] == [0] and out["reason"] == "all_colours_capped"
    assert E.view(s2, 1)["over"] is True and E.to_act(s2) == set()


def test_teams_win_at_once_with_every_colour_at_36() -> None:
    board = {(1, 0): "red"}
    racks = [[("red", "green")] * 6 for _ in range(4)]
    full = track(red=35, green=36, blue=36, orange=36, yellow=36, purple=36)
    s = position(players=4, variant="teams", board=board, racks=racks, tracks=[track(), full], turn=3)
    s2 = place(s, 3, "red", "green", (0, 0), (0, 1))
    assert E.outcome(s2)["winners"] == [1, 3]  # type: ignore[index]


def test_game_ends_when_no_two_adjacent_empty_cells_remain() -> None:
    geom = GEOMETRIES[5]
    keep = {(0, 0), (1, 0), (3, 3)}
    board = {c: "purple" for c in geom.cells if c not in keep}
    for q, r, _ in E.view(E.setup(2, {}, 0), None)["starts"]:
        board.pop((q, r), None)
    s = position(board=board, racks=[[("purple", "green")] * 6, [("green", "green")] * 6])
    s2 = place(s, 0, "purple", "green", (0, 0), (1, 0))
    out = E.outcome(s2)
    assert out is not None and out["reason"] == "board_full" and out["winners"] == [0]


def test_a_player_with_an_empty_rack_passes() -> None:
    s = position(players=3, racks=[[("red", "green")] * 6, [], [("blue", "blue")] * 6]).copy()
    s.bag = ()
    s2 = place(s, 0, "red", "green", (0, 0), (1, 0))
    assert s2.turn == 2 and {"type": "pass", "seat": 1, "n": 1} in s2.log


def test_winner_has_the_highest_lowest_colour_then_the_next_lowest() -> None:
    geom = GEOMETRIES[5]
    keep = {(0, 0), (1, 0)}
    board = {
        c: "purple"
        for c in geom.cells
        if c not in keep and c not in {(0, -5), (5, -5), (5, 0), (0, 5), (-5, 5), (-5, 0)}
    }
    # seat 0: lowest 5 then 6; seat 1: lowest 5 then 7 -> seat 1 wins on the second-lowest
    t0 = track(red=5, green=6, blue=18, orange=18, yellow=18, purple=18)
    t1 = track(red=5, green=7, blue=9, orange=9, yellow=9, purple=9)
    s = position(board=board, racks=[[("yellow", "yellow")], [("green", "green")]], tracks=[t0, t1])
    s2 = place(s, 0, "yellow", "yellow", (0, 0), (1, 0))
    assert E.outcome(s2)["winners"] == [1]  # type: ignore[index]


def test_an_exact_tie_of_all_six_shares_the_victory() -> None:
    geom = GEOMETRIES[5]
    keep = {(0, 0), (1, 0)}
    board = {
        c: "purple"
        for c in geom.cells
        if c not in keep and c not in {(0, -5), (5, -5), (5, 0), (0, 5), (-5, 5), (-5, 0)}
    }
    t0 = track(red=5, green=6, blue=7, orange=8, yellow=10, purple=18)
    t1 = track(red=18, green=10, blue=8, orange=7, yellow=6, purple=5)  # same sorted scores
    s = position(board=board, racks=[[("yellow", "yellow")], [("green", "green")]], tracks=[t0, t1])
    s2 = place(s, 0, "yellow", "yellow", (0, 0), (1, 0))  # surrounded by purple: no points
    assert E.outcome(s2)["winners"] == [0, 1]  # type: ignore[index]


def test_solo_result_is_the_lowest_colour() -> None:
    geom = GEOMETRIES[5]
    keep = {(0, 0), (1, 0)}
    board = {
        c: "purple"
        for c in geom.cells
        if c not in keep and c not in {(0, -5), (5, -5), (5, 0), (0, 5), (-5, 5), (-5, 0)}
    }
    t = track(red=12, green=20, blue=30, orange=36, yellow=36, purple=36)
    s = position(players=1, variant="solo", board=board, racks=[[("yellow", "yellow")]], tracks=[t])
    s2 = place(s, 0, "yellow", "yellow", (0, 0), (1, 0))
    out = E.outcome(s2)
    assert out is not None and out["solo_score"] == 12 and out["lowest"] == [12]


# --- system, bots, views ----------------------------------------------------------------------


def test_timeout_in_the_place_phase_places_the_greedy_tile() -> None:
    s = E.setup(2, {"shuffle": False}, 3)
    expected = E.bot_action(s, 0, "greedy", 0)
    assert E.apply(s, None, {"type": "timeout"}).log[0]["cells"] == frozen(expected["cells"])  # type: ignore[index]
    with pytest.raises(IllegalAction) as info:
        E.apply(s, 0, {"type": "timeout"})
    assert info.value.code == "system_only"


def test_timeout_in_the_swap_phase_declines() -> None:
    racks = [[("red", "blue"), ("green", "orange")], [("green", "green")]]
    s = position(racks=racks, tracks=[track(green=3, orange=3, yellow=3, purple=3), track()])
    s2 = place(s, 0, "red", "blue", (0, 0), (0, 1))
    s3 = E.apply(s2, None, {"type": "timeout"})
    assert s3.log[-1]["type"] == "keep" and s3.racks[0][0] == tile("green", "orange")


def test_only_the_player_to_act_may_place() -> None:
    s = position(racks=[[("red", "blue")], [("green", "green")]])
    for seat in (1, None, 7, "0"):
        with pytest.raises(IllegalAction) as info:
            place(s, seat, "green", "green", (0, 0), (0, 1))  # type: ignore[arg-type]
        assert info.value.code == "not_your_turn"


def test_placements_list_every_legal_move_with_its_gain() -> None:
    s = E.setup(2, {}, 9)
    for _ in range(10):
        s = E.apply(s, s.turn, E.bot_action(s, s.turn, "greedy", 0))  # type: ignore[arg-type]
    if s.phase != "place":
        s = E.apply(s, s.turn, {"type": "swap", "accept": False})
    moves = E.placements(s, s.turn)
    assert len(moves) == len(E.legal_actions(s, s.turn))
    for m in moves[::7]:
        after = E.apply(s, s.turn, {"type": "place", "colors": m["colors"], "cells": m["cells"]})
        placed = next(e for e in after.log if e["type"] == "place" and e["n"] >= s.events)
        assert placed["gained"] == m["gained"] and placed["bonus"] == m["bonus"]


def test_view_has_the_spec_fields() -> None:
    s = E.setup(3, {}, 2)
    v = E.view(s, 1)
    for key in ("phase", "to_act", "scores", "over", "radius", "starts", "tiles", "rack", "rack_sizes", "bag_count"):
        assert key in v
    assert v["scores"][0] == ZERO and len(v["scores"]) == 3 and v["bag_count"] == 120 - 18
    assert "teams" not in v and "result" not in v
