"""Time controls as players type them, their speeds as lidraughts names them, and clocks as they run."""

from __future__ import annotations

import pytest

from bot.clocks import PRESETS, UNTIMED, Clocks, Speed, TimeControl, clock_words, read_control, read_days
from engine import Color


@pytest.mark.parametrize("text, speed", [
    ("1+0", Speed.BULLET), ("2+1", Speed.BULLET), ("0.5+0", Speed.BULLET), ("3+0", Speed.BLITZ),
    ("3+2", Speed.BLITZ), ("5+3", Speed.BLITZ), ("8+0", Speed.RAPID), ("10+5", Speed.RAPID), ("15+10", Speed.RAPID),
    ("25+0", Speed.CLASSICAL), ("30+20", Speed.CLASSICAL), ("untimed", Speed.CORRESPONDENCE),
])
def test_a_control_is_read_as_typed_and_written_back_and_has_lidraughts_speed(text, speed):
    control = read_control(text)
    assert control is not None and control.speed is speed and str(control) == text
    assert TimeControl.from_json(control.to_json()) == control


def test_each_speeds_name_is_its_first_preset_and_every_preset_is_of_its_speed():
    assert read_control("blitz") == TimeControl(3, 2) and read_control("Bullet") == TimeControl(1, 0)
    assert read_control("correspondence") == TimeControl(days=1)
    for speed, presets in PRESETS.items():
        assert all(control.speed is speed for control in presets), speed


def test_words_that_are_not_controls_are_left_to_the_other_options_and_bad_ones_say_why():
    for word in ("english", "5", "rated", "+", "a+b", "3+x"):
        assert read_control(word) is None, word
    for word in ("0+5", "181+0", "3+181", "0.3+0", "-1+2"):
        with pytest.raises(ValueError, match="3\\+2"):
            read_control(word)


def test_correspondence_is_typed_in_days():
    assert read_days("2", "days") == TimeControl(days=2) and str(TimeControl(days=2)) == "2 days"
    assert read_days("1", "day") == TimeControl(days=1) and read_days("2", "moves") is None
    with pytest.raises(ValueError, match="1, 2, 3, 5 or 7"):
        read_days("4", "days")
    assert TimeControl(days=3).start == 3 * 86400 and TimeControl(days=3).speed is Speed.CORRESPONDENCE


def test_a_clock_runs_for_the_side_to_move_only_and_gets_its_increment_after_a_move():
    control = TimeControl(3, 2)
    clocks = Clocks.started(control, now=1000.0)
    assert clocks.left(Color.WHITE, Color.WHITE, 1010.0) == 170 and clocks.left(Color.BLACK, Color.WHITE, 1010.0) == 180
    after = clocks.moved(Color.WHITE, 1010.0, control)
    assert (after.white, after.black, after.since) == (172, 180, 1010.0)  # ten seconds used, two given back
    assert after.deadline(Color.BLACK) == 1190.0
    assert after.left(Color.BLACK, Color.BLACK, 2000.0) == 0  # (never below nought)
    assert Clocks.from_json(after.to_json()) == after


def test_in_correspondence_each_move_has_the_whole_period_again_and_a_restart_charges_nobody():
    control = TimeControl(days=2)
    clocks = Clocks.started(control, 0.0).moved(Color.BLACK, 86400.0, control)
    assert clocks.black == 2 * 86400 and clocks.white == 2 * 86400 and clocks.since == 86400.0
    resumed = clocks.resumed(90000.0)
    assert resumed.left(Color.WHITE, Color.WHITE, 90000.0) == 2 * 86400


def test_clocks_read_as_on_lidraughts():
    assert [clock_words(s) for s in (7.34, 59.9, 299.0, 3723.0, 2 * 86400 + 3 * 3600 + 60)] == [
        "0:07.3", "0:59", "4:59", "1:02:03", "2 d 03:01"]


def test_an_untimed_game_has_no_clock():
    assert not UNTIMED.timed and UNTIMED.words() == "untimed" and TimeControl.from_json({}) == UNTIMED
    assert TimeControl(3, 2).words() == "3+2 (blitz)" and TimeControl(days=1).words() == "1 day a move"
