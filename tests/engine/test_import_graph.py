"""The firmware's import graph has no cycle, and the host reaches the firmware through one seam.

The graph is read from the sources with `ast`, every import counted wherever it stands (a
function-level import is still an edge: it runs, and it ties the two modules together). A
module imported by a name built at run time (`__import__("cheesefw.games." + name)`, the games
the engine loads by name) is no edge here.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HOST = ROOT / "host" / "cheeseboard"

# Where the host imports the firmware's modules (paths.import_firmware): the one seam.
HOST_SEAM = HOST / "paths.py"


def module_name(path):
    """cheesefw.engine.core for firmware/cheesefw/engine/core.py; main for firmware/main.py."""
    parts = list(path.relative_to(FIRMWARE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def firmware_modules():
    return {module_name(p): p for p in FIRMWARE.rglob("*.py")}


def imported(tree, modules):
    """The firmware modules a source imports (its packages' __init__ too, as Python runs them)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            # `from cheesefw import app`: the module cheesefw.app when there is one
            names.update(node.module + "." + alias.name for alias in node.names)
    found = set()
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            if ".".join(parts[:i]) in modules:
                found.add(".".join(parts[:i]))
    return found


def graph():
    modules = firmware_modules()
    edges = {}
    for name, path in modules.items():
        edges[name] = imported(ast.parse(path.read_text(), str(path)), modules) - {name}
        if "." in name:  # a module imports its package, and its package's package
            package = name.rsplit(".", 1)[0]
            edges[name] = {m for m in edges[name]
                           if not (package == m or package.startswith(m + "."))}
    return edges


def cycles(edges):
    """Every strongly connected component of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_reader_finds_a_cycle_through_a_function_level_import():
    # The test's own reader: a cycle made of one module-level and one function-level import.
    modules = {"cheesefw.a": None, "cheesefw.b": None}
    a = imported(ast.parse("from cheesefw import b\n"), modules)
    b = imported(ast.parse("def f():\n    from cheesefw.a import x\n"), modules)
    assert cycles({"cheesefw.a": a, "cheesefw.b": b}) == [{"cheesefw.a", "cheesefw.b"}]


def test_the_firmware_has_no_import_cycle():
    found = [sorted(c) for c in cycles(graph())]
    assert not found, "import cycles in the firmware: %s" % found


def test_the_host_imports_the_firmware_only_through_its_seam():
    # Anywhere else, an `import cheesefw...` would tie a host module to the firmware's tree
    # (and to sys.path set up elsewhere): paths.import_firmware is the one way in.
    firmware = set(firmware_modules())
    offenders = []
    for path in sorted(HOST.rglob("*.py")):
        if path == HOST_SEAM:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in {m.split(".")[0] for m in firmware}:
                    offenders.append("%s:%d imports %s"
                                     % (path.relative_to(ROOT), node.lineno, name))
    assert not offenders, offenders
