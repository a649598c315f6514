"""The maker's kit: the overlays to print, the dividing grid and the case, drawn from a profile."""
