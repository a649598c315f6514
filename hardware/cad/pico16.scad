// generated from hardware/profiles/pico16.json by `cheeseboard cad`: do not edit
include <cheeseboard.scad>
cols = 16;
rows = 16;
pitch = 10;
panel_w = 160;
panel_h = 160;
first = [5, 5];
sheet_w = 176;
sheet_h = 208;
panel_at = [8, 14];
buttons = [[17.6, 187], [52.8, 187], [88, 187], [123.2, 187], [158.4, 187]];
grid_h = 7.5;
