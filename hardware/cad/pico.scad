// generated from hardware/profiles/pico.json by `cheeseboard cad`: do not edit
include <cheeseboard.scad>
cols = 8;
rows = 8;
pitch = 8;
panel_w = 65;
panel_h = 65;
first = [4.5, 4.5];
sheet_w = 81;
sheet_h = 113;
panel_at = [8, 14];
buttons = [[8.1, 92], [24.3, 92], [40.5, 92], [56.7, 92], [72.9, 92]];
grid_h = 6;
