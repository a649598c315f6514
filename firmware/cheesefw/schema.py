"""A JSON Schema check on the board: the host's schemas (host/cheeseboard/schemas, shipped in
the slot as schemas/<game>.json), read by the subset of draft 2020-12 they use, so that the
board refuses every table the host refuses (tables.check).

Keywords: type, const, enum, minimum, maximum, minLength, maxLength, pattern, minItems,
maxItems, items, prefixItems, uniqueItems, required, properties, patternProperties,
additionalProperties, propertyNames, anyOf, $ref (to #/$defs/...). Others are ignored, as a
validator does. "integer" is an int, never a float (the games count with them), and a bool
is no number. Patterns are matched here (_search), not by MicroPython's re.
"""

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}
_compiled = {}  # type: dict  # pattern -> its parsed form


def check(value, schema):
    """ValueError("path: what was expected") at the first place value breaks schema."""
    _check(value, schema, schema, "(the table)")


def _fail(path, what, value):
    text = repr(value)
    raise ValueError("%s: expected %s, got %s" % (path, what, text[:40]))


def _is(value, kind):
    if kind == "integer":
        return type(value) is int
    if kind == "number":
        return type(value) in (int, float)
    if kind == "null":
        return value is None
    return type(value) is _TYPES.get(kind)


def same(a, b):
    """JSON equality: 1 == 1.0, but true is not 1."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(same(a[i], b[i]) for i in range(len(a)))
    if type(a) is dict and type(b) is dict:
        return len(a) == len(b) and all(k in b and same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _check(value, schema, root, path):
    if schema is True or schema == {}:
        return
    if schema is False:
        _fail(path, "nothing here", value)
    ref = schema.get("$ref")
    if ref:
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        _check(value, target, root, path)
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if type(kind) is list else [kind]
        if not any(_is(value, k) for k in kinds):
            _fail(path, "a value of type %s" % "/".join(kinds), value)
    if "const" in schema and not same(value, schema["const"]):
        _fail(path, "%r" % (schema["const"],), value)
    if "enum" in schema and not any(same(value, e) for e in schema["enum"]):
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
    if t in (int, float):
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
    for i, item in enumerate(value):
        where = "%s.%d" % (path, i) if path != "(the table)" else str(i)
        if i < len(prefix):
            _check(item, prefix[i], root, where)
        elif "items" in schema:
            _check(item, schema["items"], root, where)
    if schema.get("uniqueItems"):
        for i in range(len(value)):
            for j in range(i):
                if same(value[i], value[j]):
                    _fail(path, "items that differ", value[i])


def _check_object(value, schema, root, path):
    for key in schema.get("required", ()):
        if key not in value:
            raise ValueError("%s: expected a field %r, got none" % (path, key))
    props = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    for key in sorted(value):
        where = key if path == "(the table)" else "%s.%s" % (path, key)
        if "propertyNames" in schema:
            _check(key, schema["propertyNames"], root, where)
        matched = key in props
        if matched:
            _check(value[key], props[key], root, where)
        for pattern in sorted(patterns):
            if _search(pattern, key):
                matched = True
                _check(value[key], patterns[pattern], root, where)
        if not matched and "additionalProperties" in schema:
            _check(value[key], schema["additionalProperties"], root, where)


def _search(pattern, text):
    """Whether pattern matches somewhere in text (as a JSON Schema pattern does).

    A small backtracking matcher of the regular expressions the schemas use: ^ $ . literals,
    [classes] with ranges, \\s \\d \\w and escaped characters, (groups|with|alternatives), and
    the quantifiers ? * + {m} {m,n}. (MicroPython's re lacks {m,n}, and refuses the spelled-out
    form of a pattern like an id list as "too complex".)"""
    seq = _compiled.get(pattern)
    if seq is None:
        seq = _compiled[pattern] = _parse(pattern, 0)[0][0]
    for start in range(len(text) + 1):
        if _match(seq, 0, text, start, lambda p: True):
            return True
        if seq and seq[0][0] == "^":
            break
    return False


_CLASSES = {"s": " \t\n\r\f\v", "d": "0123456789",
            "w": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"}


def _parse(p, i):
    """The alternatives (each a list of nodes) from p[i] to the group's end; and where it ends.
    A node: (kind, what, least, most): "^", "$", "set" (a test of one character), "group"."""
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
            node = ["group", what]
            i += 1  # the ")"
        elif c == "[":
            end = p.index("]", i + 2)
            node = ["set", _set(p[i + 1 : end])]
            i = end + 1
        elif c == "\\":
            node = ["set", _set(p[i : i + 2])]
            i += 2
        else:
            node = ["set", (lambda ch: ch != "\n") if c == "." else (lambda ch, c=c: ch == c)]
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
    """A test of one character for a [class] body (or one escape, such as \\s)."""
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
            ranges.append((c, body[i + 2]))
            i += 3
        else:
            chars += c
            i += 1

    def test(ch):
        hit = ch in chars or any(a <= ch <= b for a, b in ranges)
        return hit != negate

    return test


def _match(seq, i, text, pos, then):
    """Whether seq[i:] matches text at pos and then(end) holds (backtracking)."""
    if i == len(seq):
        return then(pos)
    kind, what, least, most = seq[i]
    if kind == "^":
        return pos == 0 and _match(seq, i + 1, text, pos, then)
    if kind == "$":
        return pos == len(text) and _match(seq, i + 1, text, pos, then)
    if kind == "set":  # greedy, without a frame per character
        n = 0
        while (most < 0 or n < most) and pos + n < len(text) and what(text[pos + n]):
            n += 1
        while n >= least:
            if _match(seq, i + 1, text, pos + n, then):
                return True
            n -= 1
        return False
    return _repeat(seq, i, text, pos, then, 0)


def _repeat(seq, i, text, pos, then, count):
    _, alts, least, most = seq[i]
    if most < 0 or count < most:
        for alt in alts:
            if _match(alt, 0, text, pos, lambda p: p != pos and _repeat(seq, i, text, p, then,
                                                                         count + 1)):
                return True
    return count >= least and _match(seq, i + 1, text, pos, then)
