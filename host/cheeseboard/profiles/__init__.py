"""Hardware profiles: their checks, and the hardware/ docs drawn from them."""
