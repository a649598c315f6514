"""`cheeseboard web`: serve the web board on localhost, or write it as static files."""

import argparse
import threading
import webbrowser

from cheeseboard import paths


def port_number(text):
    """--port: a TCP port (0: any free one)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("%r: expected a port number from 0 to 65535" % text)
    return value


def add_parser(sub):
    p = sub.add_parser("web", help="play on the board in a web browser (MicroPython on "
                                   "WebAssembly)",
                       description="Serve the web board on localhost: the firmware image that "
                                   "`cheeseboard flash` puts on a board, running on MicroPython's "
                                   "WebAssembly port in the page. The URL is the first line "
                                   "printed.")
    p.add_argument("--profile", default="pico", help="the board the page opens as (default: "
                                                     "pico; the page can switch)")
    p.add_argument("--port", type=port_number, default=8765, metavar="N",
                   help="the local port to serve on (default: 8765; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.add_argument("--export", metavar="DIR",
                   help="write the page as static files into DIR instead of serving it")
    p.set_defaults(run=do_web)


def do_web(args):
    from cheeseboard.web.server import WebError, export, make_server, site

    paths.load_profile(args.profile)  # a clear error for a wrong name, before anything else
    if args.export:
        written = export(args.export, default=args.profile)
        print("wrote %d files into %s (serve that folder over http and open index.html)"
              % (len(written), args.export))
        return 0
    files = site(default=args.profile)
    try:
        server = make_server(files, port=args.port)
    except OSError as e:
        raise WebError("cannot serve on port %d (%s): choose another with --port" % (args.port,
                                                                                    e)) from None
    url = "http://127.0.0.1:%d/?profile=%s" % (server.server_address[1], args.profile)
    print(url, flush=True)
    print("serving the web board; Ctrl-C stops", flush=True)
    if args.open:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
