// The cheeseboard's dividing grid, case and back, parametric. Each board's file beside this one
// (pico.scad, pico16.scad, ...) is generated from its profile by `cheeseboard cad` and sets the
// parameters below from it; open that file in OpenSCAD to change one, or export a part:
//   openscad -D 'part="grid"' -o grid.stl pico.scad      (part: grid, case, back or plan)
// Lengths in mm. The sheet is the case's top as the overlay covers it: x to the right, y up
// here (the overlay's y runs down: the profile's file gives its numbers as the overlay has them).

part = "grid";

// The LED panel (the profile's `panel`) and where it lies under the sheet.
cols = 8;
rows = 8;
pitch = 8;            // pixel centre to pixel centre
panel_w = 65;
panel_h = 65;
first = [4.5, 4.5];   // the top left pixel's centre from the panel's top left corner
sheet_w = 81;         // the case's outline: the panel and a frame round it
sheet_h = 113;
panel_at = [8, 14];   // the panel's top left corner on the sheet (overlay coordinates)
buttons = [[8.1, 92], [24.3, 92], [40.5, 92], [56.7, 92], [72.9, 92]];  // centres, likewise

// The print.
grid_wall = 1.2;      // between two cells: light from one pixel stays out of the next
grid_h = 6;           // from the panel's face to the overlay
flange = 1;           // the grid's foot, wider than the panel, catches under the case's top
lip = 2;              // how far the foot reaches past the panel's edge
wall = 2;             // the case's walls
top = grid_h - flange;  // the case's top: the grid's face lies flush with it
case_h = 30;          // the panel, its grid, the controller and the buttons' bodies fit inside
button_hole = 12.5;   // a 12 mm tactile button's cap, with room to move
usb = [12, 8];        // the controller's USB opening in the right wall (width, height)
usb_z = 8;            // its centre above the case's bottom edge
fit = 0.3;            // clearance where one printed part goes into another

$fn = 48;

// The sheet's (overlay's) coordinates with y up.
function up(p) = [p[0], sheet_h - p[1]];

module grid_2d() {
    difference() {
        square([panel_w, panel_h]);
        for (i = [0 : cols - 1], j = [0 : rows - 1])
            translate([first[0] + i * pitch, panel_h - first[1] - j * pitch])
                square(pitch - grid_wall, center = true);
    }
}

// The grid goes into the case's top opening from inside, its foot under the top, the panel
// under it; the overlay lies on the grid and the top.
module grid() {
    linear_extrude(grid_h) grid_2d();
    linear_extrude(flange) difference() {
        translate([-lip, -lip]) square([panel_w + 2 * lip, panel_h + 2 * lip]);
        square([panel_w, panel_h]);
    }
}

module top_2d() {
    difference() {
        square([sheet_w, sheet_h]);
        translate(up(panel_at) - [0, panel_h]) square([panel_w, panel_h]);
        for (b = buttons) translate(up(b)) circle(d = button_hole);
    }
}

module case() {
    difference() {
        union() {
            translate([0, 0, case_h - top]) linear_extrude(top) top_2d();
            linear_extrude(case_h - top) difference() {
                square([sheet_w, sheet_h]);
                translate([wall, wall]) square([sheet_w - 2 * wall, sheet_h - 2 * wall]);
            }
        }
        translate([sheet_w - wall - 1, up(buttons[4])[1] - usb[0] / 2, usb_z - usb[1] / 2])
            cube([wall + 2, usb[0], usb[1]]);
    }
}

// The back: a plate that drops between the walls, with a rim to hold it square.
module back() {
    inner = [sheet_w - 2 * wall - 2 * fit, sheet_h - 2 * wall - 2 * fit];
    linear_extrude(wall) square([sheet_w, sheet_h]);
    translate([wall + fit, wall + fit, wall]) linear_extrude(3) difference() {
        square(inner);
        translate([wall, wall]) square(inner - [2 * wall, 2 * wall]);
    }
}

// A plan for the build guide: the case's top, and the grid beside it.
module plan() {
    top_2d();
    translate([sheet_w + 10, 0]) grid_2d();
}

if (part == "grid") grid();
else if (part == "case") case();
else if (part == "back") back();
else if (part == "plan") plan();
else assert(false, str("part: expected grid, case, back or plan, got ", part));
