"""`bower sim` refuses bad arguments at once, with one line and no traceback."""

import time

import pytest


def test_scale_out_of_range_is_a_usage_error(bower, tmp_path, capsys):
    for bad in ("0", "-3", "65", "x"):
        with pytest.raises(SystemExit) as e:
            bower("sim", "--flash", tmp_path / "f", "--scale", bad, "--keys", "o",
                  "--screenshot", tmp_path / "s.png")
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert "--scale" in err and "Traceback" not in err
    assert not (tmp_path / "s.png").exists()


def test_a_huge_repeat_count_is_refused_before_the_device_runs(bower, tmp_path):
    t0 = time.monotonic()
    rc, out, err = bower("sim", "--flash", tmp_path / "f", "--keys", "999999999d",
                         "--screenshot", tmp_path / "s.png")
    assert rc == 1 and "more than 100000 key presses" in err and "Traceback" not in err
    assert time.monotonic() - t0 < 5
    assert not (tmp_path / "f").exists() and not (tmp_path / "s.png").exists()


def test_a_scripted_run_still_works(bower, tmp_path):
    rc, out, err = bower("sim", "--flash", tmp_path / "f", "--keys", "3d o", "--scale", "2",
                         "--screenshot", tmp_path / "s.png")
    assert rc == 0, err
    assert (tmp_path / "s.png").stat().st_size > 0
