"""bower_host.screen: terminal, text and PNG pictures of the display RAM."""

import pytest

from bower_host import simhw, screen


def _frame(*pixels):
    buf = bytearray(1024)
    for x, y in pixels:
        buf[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(buf)


def _drawn():
    # A screen the way the simulator gets it: drawn, shown, decoded by the model.
    disp, drv, bus, model = simhw.simulated_display()
    drv.text("Ann 7", 0, 0, 1)
    drv.rect(0, 12, 128, 52, 1)
    drv.ellipse(100, 40, 10, 8, 1, True)
    drv.pixel(127, 63, 1)
    disp.show()
    return bytes(model.gddram)


def test_halfblocks_put_two_pixel_rows_in_one_character():
    art = screen.halfblocks(_frame((0, 0), (1, 1), (2, 0), (2, 1), (127, 62), (5, 63)))
    lines = art.split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 "
    assert lines[31][127] == "\u2580" and lines[31][5] == "\u2584"
    assert set("".join(lines[1:31])) == {" "}


def test_halfblocks_of_a_drawn_screen_show_its_text():
    art = screen.halfblocks(_drawn()).split("\n")
    # Text on the first rows; the rectangle's top edge (pixel row 12) is the
    # upper half of character row 6, its left edge fills both halves.
    assert art[0].strip() != "" and art[6][64] == "\u2580" and art[6][0] == "\u2588"
    assert art[31][127] in ("\u2584", "\u2588")


def test_text_bitmap_round_trips_and_reads_as_pixels():
    frame = _drawn()
    text = screen.text_bitmap(frame)
    rows = text.splitlines()
    assert len(rows) == 64 and all(len(r) == 128 for r in rows) and text.endswith("\n")
    assert rows[12] == "#" * 128 and rows[63][127] == "#" and rows[63][0] == "#"
    assert screen.from_text_bitmap(text) == frame
    with pytest.raises(ValueError):
        screen.from_text_bitmap("#.\n")
    with pytest.raises(ValueError):
        screen.from_text_bitmap(text.replace(".", "o", 1))


@pytest.mark.parametrize("scale, gap, two_color", [(1, False, False), (3, True, True), (4, None, False)])
def test_png_round_trip(tmp_path, scale, gap, two_color):
    frame = _drawn()
    path = tmp_path / "screen.png"
    screen.save_png(frame, path, scale=scale, gap=gap, two_color=two_color)
    from PIL import Image

    with Image.open(path) as im:
        assert im.size == (128 * scale, 64 * scale) and im.mode == "RGB"
        if scale == 4:  # a lit pixel, the dark gap after it, an unlit pixel
            assert im.getpixel((127 * 4, 63 * 4)) == screen.OLED_WHITE
            assert im.getpixel((127 * 4 + 3, 63 * 4)) == screen.GAP
            assert im.getpixel((126 * 4, 62 * 4)) == screen.BACKGROUND
        if two_color:
            # The rectangle's left edge: yellow in the top 16 rows, blue below.
            assert im.getpixel((0, 12 * scale)) == screen.OLED_YELLOW
            assert im.getpixel((0, 20 * scale)) == screen.OLED_BLUE
    assert screen.from_png(path) == frame


def test_to_image_dims_with_brightness_and_refuses_bad_input(tmp_path):
    frame = _frame((0, 0))
    img = screen.to_image(frame, scale=2, brightness=0.5)
    assert img.getpixel((0, 0)) == tuple(int(round(c * 0.5)) for c in screen.OLED_WHITE)
    with pytest.raises(ValueError):
        screen.to_image(bytes(1000))
    with pytest.raises(ValueError):
        screen.halfblocks(bytes(10))
    path = tmp_path / "odd.png"
    from PIL import Image

    Image.new("RGB", (100, 50)).save(path)
    with pytest.raises(ValueError):
        screen.from_png(path)
