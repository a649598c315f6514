"""The web board: MicroPython on WebAssembly in a browser, its page and its small server."""
