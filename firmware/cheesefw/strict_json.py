"""Strict JSON (RFC 8259, as CPython's json module reads it), checked before MicroPython's
json.loads sees a table: that parser takes texts strict JSON refuses (`[1,]`, `[1 2]`, `[1}`,
`[,1]`, `01`, `{"a":}`, a raw tab in a string, `"\\q"`, `"\\u12x4"`), which the host would
then refuse to read back.

One pass over the bytes, a token at a time. The arrays and objects open around the byte being
read are the bits of one small int (1 an object, the innermost lowest), so nothing is
allocated per byte and the nesting taken is bounded. ASCII only: the board's tables are
(table_check.bounds), and so a byte past ASCII is refused rather than read as UTF-8.
"""

from cheesefw import const

# What may come next
_VALUE = const(0)  # a value (at the start, after a colon, after a comma in an array)
_FIRST_ITEM = const(1)  # a value or ] (just after [)
_FIRST_KEY = const(2)  # a key or } (just after {)
_KEY = const(3)  # a key (after a comma in an object)
_COLON = const(4)
_AFTER = const(5)  # after a value: a comma or the close of its array or object; at the
# outermost level, the end of the text

_SPACE = (32, 9, 10, 13)  # the white space JSON allows: space, tab, line feed, return
_ESCAPED = (34, 92, 47, 98, 102, 110, 114, 116)  # the letters after \ but u: " \ / b f n r t


def check(data, most_depth):
    """Nothing when data (bytes) is one strict JSON value with at most most_depth (< 30)
    arrays and objects within each other; else ValueError("<what> at byte <offset>")."""
    n = len(data)
    i = depth = 0
    open_objects = 0  # bit k: whether the container k levels out from the innermost is {
    want = _VALUE
    while True:
        while i < n and data[i] in _SPACE:
            i += 1
        if i == n:
            if want == _AFTER and depth == 0:
                return
            raise _refused("the text ends early", i)
        b = data[i]
        in_object = open_objects & 1
        if b == 93 or b == 125:  # ] }
            closes_object = b == 125
            if want == _KEY or (want == _VALUE and depth and not in_object):
                raise _refused("a comma before %s" % chr(b), i)
            if not depth or in_object != closes_object or not (
                    want == _AFTER or want == (_FIRST_KEY if closes_object else _FIRST_ITEM)):
                raise _refused(_expected(want, depth, in_object), i)
            open_objects >>= 1
            depth -= 1
            want = _AFTER
            i += 1
        elif want == _AFTER:
            if b != 44 or not depth:  # a comma
                raise _refused(_expected(want, depth, in_object), i)
            want = _KEY if in_object else _VALUE
            i += 1
        elif want == _COLON:
            if b != 58:
                raise _refused(_expected(want, depth, in_object), i)
            want = _VALUE
            i += 1
        elif want == _KEY or want == _FIRST_KEY:
            if b != 34:
                raise _refused(_expected(want, depth, in_object), i)
            i = _string(data, i + 1, n)
            want = _COLON
        elif b == 91 or b == 123:  # [ {: a value that opens
            if depth == most_depth:
                raise _refused("nesting deeper than %d" % most_depth, i)
            depth += 1
            open_objects = open_objects << 1 | (b == 123)
            want = _FIRST_KEY if b == 123 else _FIRST_ITEM
            i += 1
        else:
            if b == 34:
                i = _string(data, i + 1, n)
            elif b == 45 or 48 <= b <= 57:  # - or a digit
                i = _number(data, i, n)
            else:
                i = _word(data, i, b)
            want = _AFTER


def _expected(want, depth, in_object):
    """What should have come where something else did."""
    if want == _AFTER:
        if not depth:
            return "text after the value"
        return "expected , or }" if in_object else "expected , or ]"
    if want == _COLON:
        return "expected :"
    if want == _KEY or want == _FIRST_KEY:
        return "expected a key (a string)"
    return "expected a value"


def _string(data, i, n):
    """Where the string whose first character is data[i] ends (past its closing quote)."""
    while i < n:
        b = data[i]
        if b == 34:
            return i + 1
        if b < 32 or b > 127:
            raise _refused("a control character in a string" if b < 32
                           else "a byte past ASCII", i)
        if b == 92:  # a backslash
            i += 1
            if i < n and data[i] == 117:  # \u and four hex digits
                last = i + 4
                while i < last:
                    i += 1
                    b = data[i] | 32 if i < n else 0  # (| 32: lower case)
                    if not (48 <= b <= 57 or 97 <= b <= 102):
                        raise _refused("a bad \\u escape", i)
            elif i == n or data[i] not in _ESCAPED:
                raise _refused("a bad escape", i)
        i += 1
    raise _refused("the text ends in a string", i)


def _number(data, i, n):
    """Where the number that starts at data[i] ends, as JSON writes numbers:
    -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?"""
    if data[i] == 45:
        i += 1
    if i < n and data[i] == 48:
        i += 1
        if i < n and 48 <= data[i] <= 57:
            raise _refused("a number with a leading zero", i - 1)
    else:
        i = _digits(data, i, n)
    if i < n and data[i] == 46:  # .
        i = _digits(data, i + 1, n)
    if i < n and data[i] | 32 == 101:  # e or E
        i += 1
        if i < n and data[i] in (43, 45):  # + -
            i += 1
        i = _digits(data, i, n)
    return i


def _digits(data, i, n):
    """Where the digits from data[i] end: at least one."""
    start = i
    while i < n and 48 <= data[i] <= 57:
        i += 1
    if i == start:
        raise _refused("a number without its digits", i)
    return i


def _word(data, i, b):
    """Where the true, false or null at data[i] ends (NaN and Infinity are no JSON)."""
    word = b"true" if b == 116 else b"false" if b == 102 else b"null" if b == 110 else None
    if word is None or not data.startswith(word, i):
        raise _refused("expected a value", i)
    return i + len(word)


def _refused(what, at):
    return ValueError("%s at byte %d" % (what, at))
