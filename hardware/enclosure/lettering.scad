// Lettering for the Bower enclosure: a stroke font drawn as geometry, so the
// lid renders the same on every machine whatever fonts it has installed
// (OpenSCAD's text() takes the outlines from the system's fonts: a machine
// with another font, or another version of it, gave another lid).
//
//   use <lettering.scad>
//   stroke_text("BACK", size = 2.6, stroke = 0.45);   // 2D, centred on x = 0,
//                                                     // standing on y = 0
//
// Each glyph is a few polylines on a grid 4 units wide and 6 tall (the
// baseline at 0, capitals 6 high); a stroke is a hull of two circles of
// diameter `stroke`, so a letter is `size` tall from the bottom of its
// strokes to their top. Glyphs: A-Z, 0-9, space, "-", "+". A character
// without a glyph stops the render with an assertion naming it.
//
// The design is this project's own (no font's outlines or metrics are
// copied), released with the rest of the enclosure.

function stroke_glyphs() = [
    [" ", []],
    ["-", [[[1, 3], [3, 3]]]],
    ["+", [[[0, 3], [4, 3]], [[2, 1], [2, 5]]]],
    ["0", [[[1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5], [4, 1], [3, 0], [1, 0]], [[4, 5], [0, 1]]]],
    ["1", [[[1, 5], [2, 6], [2, 0]], [[1, 0], [3, 0]]]],
    ["2", [[[0, 5], [1, 6], [3, 6], [4, 5], [4, 4], [0, 0], [4, 0]]]],
    ["3", [[[0, 5], [1, 6], [3, 6], [4, 5], [4, 4], [3, 3], [4, 2], [4, 1], [3, 0], [1, 0], [0, 1]],
           [[1, 3], [3, 3]]]],
    ["4", [[[3, 0], [3, 6], [0, 2], [4, 2]]]],
    ["5", [[[4, 6], [0, 6], [0, 3], [3, 3], [4, 2], [4, 1], [3, 0], [1, 0], [0, 1]]]],
    ["6", [[[4, 5], [3, 6], [1, 6], [0, 5], [0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]]]],
    ["7", [[[0, 6], [4, 6], [1, 0]]]],
    ["8", [[[1, 3], [0, 4], [0, 5], [1, 6], [3, 6], [4, 5], [4, 4], [3, 3], [1, 3], [0, 2], [0, 1], [1, 0],
            [3, 0], [4, 1], [4, 2], [3, 3]]]],
    ["9", [[[0, 1], [1, 0], [3, 0], [4, 1], [4, 5], [3, 6], [1, 6], [0, 5], [0, 4], [1, 3], [4, 3]]]],
    ["A", [[[0, 0], [0, 4], [2, 6], [4, 4], [4, 0]], [[0, 3], [4, 3]]]],
    ["B", [[[0, 0], [0, 6], [3, 6], [4, 5], [4, 4], [3, 3], [0, 3]], [[3, 3], [4, 2], [4, 1], [3, 0], [0, 0]]]],
    ["C", [[[4, 5], [3, 6], [1, 6], [0, 5], [0, 1], [1, 0], [3, 0], [4, 1]]]],
    ["D", [[[0, 0], [0, 6], [2, 6], [4, 4], [4, 2], [2, 0], [0, 0]]]],
    ["E", [[[4, 6], [0, 6], [0, 0], [4, 0]], [[0, 3], [3, 3]]]],
    ["F", [[[4, 6], [0, 6], [0, 0]], [[0, 3], [3, 3]]]],
    ["G", [[[4, 5], [3, 6], [1, 6], [0, 5], [0, 1], [1, 0], [3, 0], [4, 1], [4, 3], [2, 3]]]],
    ["H", [[[0, 0], [0, 6]], [[4, 0], [4, 6]], [[0, 3], [4, 3]]]],
    ["I", [[[1, 6], [3, 6]], [[2, 6], [2, 0]], [[1, 0], [3, 0]]]],
    ["J", [[[4, 6], [4, 1], [3, 0], [1, 0], [0, 1]]]],
    ["K", [[[0, 0], [0, 6]], [[4, 6], [0, 2]], [[1, 3], [4, 0]]]],
    ["L", [[[0, 6], [0, 0], [4, 0]]]],
    ["M", [[[0, 0], [0, 6], [2, 3], [4, 6], [4, 0]]]],
    ["N", [[[0, 0], [0, 6], [4, 0], [4, 6]]]],
    ["O", [[[1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5], [4, 1], [3, 0], [1, 0]]]],
    ["P", [[[0, 0], [0, 6], [3, 6], [4, 5], [4, 4], [3, 3], [0, 3]]]],
    ["Q", [[[1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5], [4, 1], [3, 0], [1, 0]], [[2, 2], [4, 0]]]],
    ["R", [[[0, 0], [0, 6], [3, 6], [4, 5], [4, 4], [3, 3], [0, 3]], [[2, 3], [4, 0]]]],
    ["S", [[[4, 5], [3, 6], [1, 6], [0, 5], [0, 4], [1, 3], [3, 3], [4, 2], [4, 1], [3, 0], [1, 0], [0, 1]]]],
    ["T", [[[0, 6], [4, 6]], [[2, 6], [2, 0]]]],
    ["U", [[[0, 6], [0, 1], [1, 0], [3, 0], [4, 1], [4, 6]]]],
    ["V", [[[0, 6], [2, 0], [4, 6]]]],
    ["W", [[[0, 6], [1, 0], [2, 4], [3, 0], [4, 6]]]],
    ["X", [[[0, 0], [4, 6]], [[0, 6], [4, 0]]]],
    ["Y", [[[0, 6], [2, 3], [4, 6]], [[2, 3], [2, 0]]]],
    ["Z", [[[0, 6], [4, 6], [0, 0], [4, 0]]]],
];

// The polylines of character c.
function stroke_glyph(c) =
    let (found = [for (g = stroke_glyphs()) if (g[0] == c) g[1]])
    assert(len(found) == 1, str("lettering.scad has no glyph for \"", c, "\" (A-Z, 0-9, space, - and + only)"))
    found[0];

// Width of t as drawn: from the left edge of its first stroke to the right
// edge of its last.
function stroke_text_width(t, size, stroke) =
    let (u = (size - stroke) / 6) len(t) == 0 ? 0 : (len(t) - 1) * (5.5 * u + stroke) + 4 * u + stroke;

// t in 2D: `size` tall (strokes included), centred on x = 0, its strokes'
// bottom on y = 0.
module stroke_text(t, size, stroke) {
    assert(stroke > 0 && stroke < size / 3, "stroke must be positive and under a third of the size");
    u = (size - stroke) / 6;           // grid unit
    advance = 5.5 * u + stroke;        // glyph to glyph
    x0 = -stroke_text_width(t, size, stroke) / 2 + stroke / 2;
    if (len(t) > 0)
        for (i = [0 : len(t) - 1])
            translate([x0 + i * advance, stroke / 2])
                for (line = stroke_glyph(t[i]))
                    for (k = [0 : len(line) - 2])
                        hull() {
                            translate(line[k] * u) circle(d = stroke, $fn = 16);
                            translate(line[k + 1] * u) circle(d = stroke, $fn = 16);
                        }
}
