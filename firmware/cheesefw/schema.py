"""A JSON Schema check on the board: the host's schemas (host/cheeseboard/schemas, shipped in
the slot as schemas/<game>.json), read by the subset of draft 2020-12 they use, so that the
board refuses every table the host refuses (tables.check).

Keywords: type, const, enum, minimum, maximum, minLength, maxLength, pattern, minItems,
maxItems, items, prefixItems, uniqueItems, required, properties, patternProperties,
additionalProperties, propertyNames, anyOf, $ref (to #/$defs/...). Others are ignored, as a
validator does. "integer" is an int, never a float (the games count with them), and a bool
is no number. Patterns are matched here (_search), not by MicroPython's re.
"""

from cheesefw import const

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}
_NONE = {}  # type: dict  # an absent keyword's value (never changed)
_compiled = {}  # type: dict  # pattern -> its parsed form

# The walk allocates little: a table's check runs on a board at a game's start with the game's
# heap around it, so it builds no generator, list or path text per value. A value's path is a
# chain of (parent, key) pairs, written out only when it is refused.


def check(value, schema):
    """ValueError("path: what was expected") at the first place value breaks schema."""
    _check(value, schema, schema, None)


def _path_text(path):
    if path is None:
        return "(the table)"
    parts = []
    while path is not None:
        parts.append(str(path[1]))
        path = path[0]
    parts.reverse()
    return ".".join(parts)


def _fail(path, what, value):
    text = repr(value)
    raise ValueError("%s: expected %s, got %s" % (_path_text(path), what, text[:40]))


def _is(value, kind):
    if kind == "integer":
        return type(value) is int
    if kind == "number":
        return type(value) in (int, float)
    if kind == "null":
        return value is None
    return type(value) is _TYPES.get(kind)


def _is_one_of(value, kinds):
    if type(kinds) is not list:
        return _is(value, kinds)
    for kind in kinds:
        if _is(value, kind):
            return True
    return False


def same(a, b):
    """JSON equality: 1 == 1.0, but true is not 1."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b
    if type(a) is list and type(b) is list:
        if len(a) != len(b):
            return False
        for i in range(len(a)):
            if not same(a[i], b[i]):
                return False
        return True
    if type(a) is dict and type(b) is dict:
        if len(a) != len(b):
            return False
        for k in a:
            if k not in b or not same(a[k], b[k]):
                return False
        return True
    return type(a) is type(b) and a == b


def _in_enum(value, options):
    for option in options:
        if same(value, option):
            return True
    return False


def _check(value, schema, root, path):
    if schema is True or (type(schema) is dict and not schema):
        return
    if schema is False:
        _fail(path, "nothing here", value)
    ref = schema.get("$ref")
    if ref:
        target = root
        start = 2  # past "#/"
        while start < len(ref):
            end = ref.find("/", start)
            if end < 0:
                end = len(ref)
            target = target[ref[start:end]]
            start = end + 1
        _check(value, target, root, path)
    kind = schema.get("type")
    if kind is not None and not _is_one_of(value, kind):
        _fail(path, "a value of type %s" % ("/".join(kind) if type(kind) is list else kind), value)
    if "const" in schema and not same(value, schema["const"]):
        _fail(path, "%r" % (schema["const"],), value)
    if "enum" in schema and not _in_enum(value, schema["enum"]):
        _fail(path, "one of %r" % (schema["enum"],), value)
    if "anyOf" in schema:
        for option in schema["anyOf"]:
            try:
                _check(value, option, root, path)
                break
            except ValueError:
                pass
        else:
            _fail(path, "a value of one of the allowed forms", value)
    t = type(value)
    if t is int or t is float:
        if "minimum" in schema and value < schema["minimum"]:
            _fail(path, "at least %r" % schema["minimum"], value)
        if "maximum" in schema and value > schema["maximum"]:
            _fail(path, "at most %r" % schema["maximum"], value)
    elif t is str:
        if len(value) < schema.get("minLength", 0):
            _fail(path, "at least %d characters" % schema["minLength"], value)
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            _fail(path, "at most %d characters" % schema["maxLength"], value)
        if "pattern" in schema and not _search(schema["pattern"], value):
            _fail(path, "text matching %s" % schema["pattern"], value)
    elif t is list:
        _check_array(value, schema, root, path)
    elif t is dict:
        _check_object(value, schema, root, path)


def _check_array(value, schema, root, path):
    if len(value) < schema.get("minItems", 0):
        _fail(path, "at least %d items" % schema["minItems"], value)
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        _fail(path, "at most %d items" % schema["maxItems"], value)
    prefix = schema.get("prefixItems", ())
    items = schema.get("items")
    for i in range(len(value)):
        if i < len(prefix):
            _check(value[i], prefix[i], root, (path, i))
        elif items is not None:
            _check(value[i], items, root, (path, i))
    if schema.get("uniqueItems"):
        for i in range(len(value)):
            for j in range(i):
                if same(value[i], value[j]):
                    _fail(path, "items that differ", value[i])


def _check_object(value, schema, root, path):
    for key in schema.get("required", ()):
        if key not in value:
            raise ValueError("%s: expected a field %r, got none" % (_path_text(path), key))
    props = schema.get("properties", _NONE)
    by_pattern = schema.get("patternProperties", _NONE)
    patterns = sorted(by_pattern) if by_pattern else ()  # once for the object, not per key
    names = schema.get("propertyNames")
    more = schema.get("additionalProperties")
    for key in sorted(value):  # the first fault found is the same on every VM
        where = (path, key)
        if names is not None:
            _check(key, names, root, where)
        matched = key in props
        if matched:
            _check(value[key], props[key], root, where)
        for pattern in patterns:
            if _search(pattern, key):
                matched = True
                _check(value[key], by_pattern[pattern], root, where)
        if not matched and more is not None:
            _check(value[key], more, root, where)


# The program's instructions, each a tuple whose first item is its kind.
_SET = const(0)  # (_SET, negate, bytes, ((low, high), ...)): takes one byte (not) in the set
_SPLIT = const(1)  # (_SPLIT, a, b): goes on at both a and b
_JMP = const(2)  # (_JMP, to)
_START = const(3)  # (_START,): only at the text's start (^)
_END = const(4)  # (_END,): only at its end ($; or before a newline that ends it, as in re)
_MATCH = const(5)  # (_MATCH,): the pattern is through

def _search(pattern, text):
    """Whether pattern matches somewhere in text (as a JSON Schema pattern does).

    The regular expressions the schemas use: ^ $ . literals, [classes] with ranges, \\s \\d \\w
    and escaped characters, (groups|with|alternatives), and the quantifiers ? * + {m} {m,n}.
    (MicroPython's re lacks {m,n}, and refuses the spelled-out form of a pattern like an id
    list as "too complex".) A pattern is compiled once into a small program, run over the
    text's bytes by a Pike VM: every way through the pattern at once, one byte at a time, with
    no backtracking, no recursion per character and no string per character (MicroPython
    interns each one-character string it makes, for good: a table's characters would fill
    the board's table of names)."""
    prog = _compiled.get(pattern)
    if prog is None:
        prog = _compiled[pattern] = _compile(pattern)
    data = text.encode()  # (a table's text is ASCII: bounds() saw to it)
    now, later = [], []
    for pos in range(len(data) + 1):
        if _follow(prog, 0, data, pos, now):  # a match may also begin here
            return True
        if pos == len(data):
            return False
        byte = data[pos]
        for pc in now:
            op = prog[pc]
            if op[0] == _SET and _in_set(op, byte) and _follow(prog, pc + 1, data, pos + 1,
                                                                later):
                return True
        now, later = later, now
        del later[:]
    return False


_CLASSES = {"s": " \t\n\r\f\v", "d": "0123456789",
            "w": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"}


def _follow(prog, pc, data, pos, threads):
    """Put the way through the pattern at pc, at data[pos], into threads (with every jump,
    split and anchor followed to the sets it reaches); True when one reaches _MATCH. threads
    also holds the jumps and splits already followed at pos: a loop that takes no byte ends."""
    while True:
        if pc in threads:
            return False
        op = prog[pc]
        kind = op[0]
        if kind == _MATCH:
            return True
        threads.append(pc)
        if kind == _SET:
            return False
        if kind == _JMP:
            pc = op[1]
        elif kind == _SPLIT:
            if _follow(prog, op[1], data, pos, threads):
                return True
            pc = op[2]
        elif (kind == _START and pos == 0) or (kind == _END and _at_end(data, pos)):
            pc += 1
        else:
            return False


def _at_end(data, pos):
    """$ as the host's validator reads it (Python's re): at the end, or before a last newline."""
    return pos == len(data) or (pos == len(data) - 1 and data[pos] == 10)


def _in_set(op, byte):
    hit = byte in op[2]
    if not hit:
        for low, high in op[3]:
            if low <= byte <= high:
                hit = True
                break
    return hit != op[1]


def _compile(pattern):
    prog = []
    _emit_alternatives(_parse(pattern, 0)[0], prog)
    prog.append((_MATCH,))
    return prog


def _emit_alternatives(alts, prog):
    """alt1|alt2|...: a split before each but the last, a jump to the end after each."""
    jumps = []
    for n, seq in enumerate(alts):
        split = len(prog)
        if n < len(alts) - 1:
            prog.append(None)  # the split, filled in once the alternative's end is known
        for node in seq:
            _emit_repeated(node, prog)
        if n < len(alts) - 1:
            jumps.append(len(prog))
            prog.append(None)
            prog[split] = (_SPLIT, split + 1, len(prog))
    for at in jumps:
        prog[at] = (_JMP, len(prog))


def _emit_repeated(node, prog):
    kind, what, least, most = node
    for _ in range(least):
        _emit_one(kind, what, prog)
    if most < 0:  # as many more as there are: split (again, or out), one, jump back
        loop = len(prog)
        prog.append(None)
        _emit_one(kind, what, prog)
        prog.append((_JMP, loop))
        prog[loop] = (_SPLIT, loop + 1, len(prog))
        return
    splits = []
    for _ in range(most - least):  # up to most - least more, each one may be the last
        splits.append(len(prog))
        prog.append(None)
        _emit_one(kind, what, prog)
    for at in splits:
        prog[at] = (_SPLIT, at + 1, len(prog))


def _emit_one(kind, what, prog):
    if kind == "group":
        _emit_alternatives(what, prog)
    elif kind == "set":
        prog.append(what)
    else:
        prog.append((_START,) if kind == "^" else (_END,))


def _parse(p, i):
    """The alternatives (each a list of nodes) from p[i] to the group's end; and where it ends.
    A node: (kind, what, least, most): "^", "$", "set" (what: its _SET instruction), "group"
    (what: its alternatives)."""
    alts, seq = [], []
    while i < len(p) and p[i] != ")":
        c = p[i]
        if c == "|":
            alts.append(seq)
            seq = []
            i += 1
            continue
        if c in "^$":
            seq.append((c, None, 1, 1))
            i += 1
            continue
        if c == "(":
            what, i = _parse(p, i + 1)
            node = ("group", what)
            i += 1  # the ")"
        elif c == "[":
            end = p.index("]", i + 2)
            node = ("set", _set(p[i + 1 : end]))
            i = end + 1
        elif c == "\\":
            node = ("set", _set(p[i : i + 2]))
            i += 2
        else:
            node = ("set", (_SET, True, b"\n", ()) if c == "." else (_SET, False, c.encode(), ()))
            i += 1
        least, most = 1, 1
        if i < len(p) and p[i] in "?*+":
            least, most = {"?": (0, 1), "*": (0, -1), "+": (1, -1)}[p[i]]
            i += 1
        elif i < len(p) and p[i] == "{":
            end = p.index("}", i)
            low, comma, high = p[i + 1 : end].partition(",")
            least = int(low)
            most = (int(high) if high else -1) if comma else least
            i = end + 1
        seq.append((node[0], node[1], least, most))
    alts.append(seq)
    return alts, i


def _set(body):
    """The _SET instruction of a [class] body (or of one escape, such as \\s)."""
    negate = body.startswith("^") and len(body) > 1
    if negate:
        body = body[1:]
    chars, ranges = "", []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            chars += _CLASSES.get(body[i + 1], body[i + 1])
            i += 2
        elif i + 2 < len(body) and body[i + 1] == "-":
            ranges.append((ord(c), ord(body[i + 2])))
            i += 3
        else:
            chars += c
            i += 1
    return (_SET, negate, chars.encode(), tuple(ranges))
