# The board runs this after boot.py: the cheeseboard firmware's main loop.
from cheesefw import app

app.main()
