// Bower enclosure: a two-part printed box for the Pico, the 0.96" SSD1306
// OLED and four 6x6 mm tactile buttons.
//
//   part = "base"    box with Pico standoffs, micro-USB opening, screw bosses
//   part = "lid"     top plate with OLED window, button holes, labels
//                    (exported upside down, ready to print face-down)
//   part = "preview" base and lid side by side, with a dummy Pico and OLED
//
// Render from the repository root with `make enclosure`, or e.g.
//   openscad -D 'part="lid"' -o lid.stl hardware/enclosure/bower.scad
//
// Orientation: +Y is the "top" of the device (the USB end and the screen),
// X runs left to right as you hold it. All sizes are in millimetres.
//
// Button layout: one row under the screen, left to right in the order of
// hardware/board.json -> "buttons": UP, DOWN, OK, BACK (see README.md).
// tests/hardware/test_board.py reads the button_* assignments below with a
// regex, so keep each one on a single line of the form `name = value;`.
//
// The labels are drawn with lettering.scad's stroke font, geometry in this
// folder, never with text(): text() takes its outlines from the fonts the
// machine has installed, so the lid would depend on them
// (tests/hardware/test_builder.py checks both).

use <lettering.scad>

/* [Which part] */
part = "preview"; // [base, lid, preview]

/* [Print tolerances] */
wall = 2.0;          // side wall thickness
floor_t = 2.0;       // base floor thickness
lid_t = 2.0;         // lid plate thickness
clearance = 0.3;     // gap between mating printed parts
inner_h = 22;        // inside height, floor to lid underside

/* [Raspberry Pi Pico (also Pico W / Pico 2)] */
pico_l = 51;         // board length (USB end to far end)
pico_w = 21;         // board width
pico_t = 1.0;        // PCB thickness
pico_hole_dx = 11.4; // mounting holes across the width
pico_hole_dy = 47;   // mounting holes along the length
pico_standoff_h = 4; // board sits this high above the floor
pico_standoff_d = 5;
pico_screw_pilot = 1.7;  // M2 self-tapping screws into the standoffs
pico_usb_gap = 1.5;  // PCB end to inside of the USB wall
usb_open_w = 12;     // opening for the micro-USB plug overmould
usb_open_h = 8;
usb_above_pcb = 1.4; // height of the connector centre above the PCB top

/* [OLED module, 0.96" SSD1306 128x64 I2C] */
oled_pcb = [27.3, 27.8]; // module PCB (x, y)
oled_win = [25, 14];     // window cut in the lid (active area is ~21.7 x 10.9)
oled_win_dy = 1.0;       // window centre north of the module centre; measure yours
oled_top_margin = 4;     // module top edge to inside of the top wall
oled_frame_h = 3;        // locating frame under the lid
oled_header = [12, 3.5]; // pocket for the 4-pin header's plastic on the glass side

/* [Buttons: 6x6 mm tactile switches, 7-8 mm tall] */
button_order = ["up", "down", "ok", "back"];
button_labels = ["UP", "DOWN", "OK", "BACK"];
button_count = 4;
button_pitch = 12;        // centre-to-centre distance along the row
button_body = 6;          // switch body is button_body x button_body
button_hole_d = 4.2;      // round 3.5 mm plunger + clearance
button_gap_below_oled = 5; // module bottom edge to the switch bodies
button_cage_h = 3;        // locating cage around each switch body
label_size = 2.6;         // letter height (A-Z, 0-9, space, - and +: lettering.scad)
label_stroke = 0.45;      // width of the engraved strokes
label_depth = 0.6;
engrave_labels = true;

/* [Screws: M2.5 x 8 self-tapping, or M2.5 heat-set inserts + M2.5 x 6 machine screws] */
screw_d = 2.5;
screw_pilot = 2.1;       // self-tapping screws cut their thread in this hole
screw_head_d = 4.8;
screw_head_h = 1.2;
boss_d = 6;
// Heat-set inserts: a pocket at the top of each corner boss, a clearance hole
// below it, and the boss made thick enough to keep insert_wall around it.
inserts = false;
insert_d = 3.6;          // pocket: the hole the insert's maker asks for (M2.5 x 5.7: 3.6)
insert_l = 5.7;          // longest insert the pocket takes (it is 0.5 mm deeper)
insert_wall = 1.5;       // plastic left around the pocket

/* [Options] */
encoder = false;     // EC11/KY-040 knob hole below the button row
encoder_hole_d = 7.5; // EC11 bushing is M7
buzzer = false;      // sound holes in the floor for a piezo

$fn = 40;
eps = 0.01;

assert(len(button_order) == button_count, "button_order must list button_count buttons");
assert(len(button_labels) == button_count, "one label per button");
assert(button_hole_d < button_body, "the plunger hole must be smaller than the switch body");
assert(button_pitch >= button_body + 2, "buttons too close for their cages");
assert(max([for (l = button_labels) stroke_text_width(l, label_size, label_stroke)]) < button_pitch,
       "a button label is wider than the button pitch");
assert(!inserts || insert_l + 0.5 < inner_h, "the insert pocket is deeper than the boss");

// ---- derived sizes ----------------------------------------------------
boss = inserts ? max(boss_d, insert_d + 2 * insert_wall) : boss_d;  // corner boss diameter
row_w = (button_count - 1) * button_pitch + button_body;
inner_w = max(row_w + 2 * boss + 2, oled_pcb[0] + 2 * boss + 4, pico_w + 2 * boss + 4);
lid_stack = oled_top_margin + oled_pcb[1] + button_gap_below_oled + button_body
            + label_size + 6 + (encoder ? encoder_hole_d + 8 : 0);
inner_l = max(pico_l + pico_usb_gap + 4, lid_stack);
outer_w = inner_w + 2 * wall;
outer_l = inner_l + 2 * wall;
base_h = floor_t + inner_h;
corner_r = 3;

oled_cy = inner_l / 2 - oled_top_margin - oled_pcb[1] / 2;
win_cy = oled_cy + oled_win_dy;
row_y = oled_cy - oled_pcb[1] / 2 - button_gap_below_oled - button_body / 2;
label_y = row_y - button_body / 2 - 1.5 - label_size;
enc_y = label_y - 3 - encoder_hole_d / 2;
function button_x(i) = (i - (button_count - 1) / 2) * button_pitch;

pico_cy = inner_l / 2 - pico_usb_gap - pico_l / 2;
pico_top = floor_t + pico_standoff_h + pico_t;
boss_xy = [inner_w / 2 - boss / 2 + 1, inner_l / 2 - boss / 2 + 1];

echo(str("Bower enclosure outside: ", outer_w, " x ", outer_l, " x ", base_h + lid_t, " mm"));

// ---- helpers ----------------------------------------------------------
module rounded_box(w, l, h, r) {
    linear_extrude(h)
        offset(r) offset(-r) square([w, l], center = true);
}

module corners() {
    for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * boss_xy[0], sy * boss_xy[1], 0]) children();
}

// ---- base -------------------------------------------------------------
module base() {
    difference() {
        union() {
            difference() {
                rounded_box(outer_w, outer_l, base_h, corner_r);
                translate([0, 0, floor_t]) rounded_box(inner_w, inner_l, base_h, corner_r - wall / 2);
            }
            // corner screw bosses, full height so the lid rests on them
            corners() cylinder(d = boss, h = base_h);
            // Pico standoffs
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * pico_hole_dx / 2, pico_cy + sy * pico_hole_dy / 2, 0])
                    cylinder(d = pico_standoff_d, h = floor_t + pico_standoff_h);
        }
        corners() translate([0, 0, floor_t]) cylinder(d = inserts ? screw_d + 0.4 : screw_pilot, h = base_h);
        if (inserts)
            corners() translate([0, 0, base_h - insert_l - 0.5]) cylinder(d = insert_d, h = insert_l + 1);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * pico_hole_dx / 2, pico_cy + sy * pico_hole_dy / 2, 1])
                cylinder(d = pico_screw_pilot, h = base_h);
        // micro-USB opening in the top wall, centred on the Pico's connector
        translate([0, inner_l / 2 + wall / 2, pico_top + usb_above_pcb])
            cube([usb_open_w, wall * 3, usb_open_h], center = true);
        // sound holes beside the Pico; glue the piezo (12 mm) over them
        if (buzzer)
            for (i = [-2 : 2], j = [-2 : 2])
                if (i * i + j * j <= 5)
                    translate([(pico_w / 2 + inner_w / 2) / 2 + i * 2.5, -inner_l / 4 + j * 2.5, -eps])
                        cylinder(d = 1.4, h = floor_t + 2 * eps, $fn = 12);
    }
}

// ---- lid (assembled orientation: outer face at z = lid_t, parts hang below z = 0)
module lid() {
    lip_h = 2;
    lip_t = 1.2;
    difference() {
        union() {
            rounded_box(outer_w, outer_l, lid_t, corner_r);
            // lip that locates the lid inside the walls, cut back around the bosses
            difference() {
                translate([0, 0, -lip_h])
                    rounded_box(inner_w - 2 * clearance, inner_l - 2 * clearance, lip_h + eps, corner_r - wall / 2);
                translate([0, 0, -lip_h - eps])
                    rounded_box(inner_w - 2 * clearance - 2 * lip_t, inner_l - 2 * clearance - 2 * lip_t,
                                lip_h + 3 * eps, 1);
                corners() translate([0, 0, -lip_h - 1]) cylinder(d = boss + 2 * clearance, h = lip_h + 1);
            }
            // locating frame for the OLED module (drop it in face down, a dab of hot glue)
            translate([0, oled_cy, -oled_frame_h])
                difference() {
                    linear_extrude(oled_frame_h + eps)
                        square([oled_pcb[0] + 2 * clearance + 2.4, oled_pcb[1] + 2 * clearance + 2.4], center = true);
                    translate([0, 0, -eps]) linear_extrude(oled_frame_h + 3 * eps)
                        square([oled_pcb[0] + 2 * clearance, oled_pcb[1] + 2 * clearance], center = true);
                }
            // cages that hold each switch body square under its hole
            for (i = [0 : button_count - 1])
                translate([button_x(i), row_y, -button_cage_h])
                    difference() {
                        linear_extrude(button_cage_h + eps)
                            square(button_body + 2 * clearance + 2.4, center = true);
                        translate([0, 0, -eps]) linear_extrude(button_cage_h + 3 * eps)
                            square(button_body + 2 * clearance, center = true);
                    }
        }
        // OLED window, chamfered on the outside
        translate([0, win_cy, -eps])
            hull() {
                linear_extrude(eps) square(oled_win, center = true);
                translate([0, 0, lid_t]) linear_extrude(2 * eps)
                    square([oled_win[0] + 2 * lid_t * 0.6, oled_win[1] + 2 * lid_t * 0.6], center = true);
            }
        // pocket for the header's plastic strip (it sits proud of the glass)
        translate([0, oled_cy + oled_pcb[1] / 2 - oled_header[1] / 2 - 0.5, -eps])
            linear_extrude(1.0) square(oled_header, center = true);
        // button plunger holes
        for (i = [0 : button_count - 1])
            translate([button_x(i), row_y, -1]) cylinder(d = button_hole_d, h = lid_t + 2);
        if (engrave_labels)
            for (i = [0 : button_count - 1])
                translate([button_x(i), label_y, lid_t - label_depth])
                    linear_extrude(label_depth + eps)
                        stroke_text(button_labels[i], label_size, label_stroke);
        if (encoder)
            translate([0, enc_y, -1]) cylinder(d = encoder_hole_d, h = lid_t + 2);
        // screw clearance holes and head counterbores
        corners() {
            translate([0, 0, -5]) cylinder(d = screw_d + 0.4, h = lid_t + 10);
            translate([0, 0, lid_t - screw_head_h]) cylinder(d = screw_head_d, h = screw_head_h + 1);
        }
    }
}

// ---- dummy parts for the preview only ---------------------------------
module pico_dummy() {
    color("ForestGreen") translate([-pico_w / 2, pico_cy - pico_l / 2, floor_t + pico_standoff_h])
        cube([pico_w, pico_l, pico_t]);
    color("Silver") translate([-4, inner_l / 2 - pico_usb_gap - 5, pico_top])
        cube([8, 5.6, 2.8]);
    color("DimGray") translate([-5, pico_cy - 2, pico_top]) cube([10, 10, 1]);
}

if (part == "base") {
    base();
} else if (part == "lid") {
    // upside down: the visible face prints on the bed
    translate([0, 0, lid_t]) rotate([180, 0, 0]) lid();
} else {
    base();
    pico_dummy();
    translate([outer_w + 12, 0, oled_frame_h + 2]) {
        lid();
        color("MidnightBlue") translate([0, win_cy, lid_t - 0.3])
            linear_extrude(0.2) square([oled_win[0] - 4, oled_win[1] - 2], center = true);
    }
}
