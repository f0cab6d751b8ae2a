"""Reads wiremsg bytes with a Python parser that Kaitai Struct generated from
`wiremsg export --ksy`, and checks every value against the JSON that `wiremsg json`
wrote for the same bytes.

    check.py SCHEMA_JSON MODULE_DIR ROOT INPUT EXPECTED_JSON
    check.py --invalid SCHEMA_JSON MODULE_DIR message:TYPE INPUT


SCHEMA_JSON is `wiremsg schema --json` of the schema; MODULE_DIR holds the generated
module; ROOT is `message` (one message), `header` (a header and its message) or
`frames` (a file of frames, EXPECTED_JSON one line per message frame). The schema says
how each Kaitai attribute means a value (FORMAT.md), as a reader in another language
would know from the .ksy's docs. Exit status 1, with every difference, on a mismatch.
With --invalid, bytes that wiremsg refuses: the generated parser must raise (a Kaitai
validation error, the end of the stream, bad UTF-8) while reading every value.
"""

import importlib.util
import inspect
import json
import re
import struct
import sys

from kaitaistruct import KaitaiStruct, KaitaiStructError

SCHEMA_IDS = "65535:65535"


class F32(float):
    """A value read as an f32: equal to a JSON number that is the same f32."""


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def snake(name):
    """The exporter's snake case of a Rust type or variant name."""
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    s = re.sub(r"(?<=[A-Z])([A-Z])(?=[a-z])", r"_\1", s)
    return s.lower()


class Reader:
    def __init__(self, schema):
        self.messages = {m["name"]: m for m in schema["messages"]}
        self.errors = []

    def fail(self, path, text):
        self.errors.append(f"{path}: {text}")

    def message(self, name, obj, path):
        """The JSON wiremsg writes for message `name` read as Kaitai object `obj`: the
        fields the writer had, in wire order."""
        m = self.messages[name]
        out = {}
        for f in m["fields"]:
            if f["reserved"]:
                continue
            fname, ty = f["name"], f["ty"]
            at = f"{path}.{fname}"
            if isinstance(ty, dict) and "Option" in ty:
                present = getattr(obj, fname + "__present")
                if present is None:
                    continue  # an older writer's block ends before it
                if present not in (0, 1):
                    self.fail(at, f"presence byte {present}")
                out[fname] = self.value(ty["Option"], getattr(obj, fname), at, True) if present else None
                continue
            raw = getattr(obj, fname)
            if raw is None:
                continue  # an older writer's block ends before it
            out[fname] = self.value(ty, raw, at, True)
        return out

    def value(self, ty, v, path, field=False):
        """The JSON value of Kaitai value `v` of wire type `ty` (a field's value when
        `field`, else an element's)."""
        if isinstance(ty, str):
            if ty == "Bool":
                if v not in (0, 1):
                    self.fail(path, f"bool byte {v}")
                return v == 1
            if ty in ("U128", "I128"):
                return v.lo + (v.hi << 64)
            if ty == "F32":
                return F32(v)
            if ty == "Str":
                return v
            return v  # other numbers
        (kind, arg), = ty.items()
        if kind in ("FixedStr", "FixedStrPadded"):
            return v
        if kind == "Enum":
            raw = int(v)
            names = {x["value"]: x["name"] for x in arg["variants"]}
            if raw in names:
                if getattr(v, "name", None) != snake(names[raw]):
                    self.fail(path, f"Kaitai enum {v!r} for variant {names[raw]}")
                return names[raw]
            if arg.get("catch_all") is None:
                self.fail(path, f"value {raw} of no variant, and no catch-all")
            return raw
        if kind == "Decimal":
            return decimal_text(v, arg["scale"])
        if kind == "Nullable":
            if v == arg["null"]:
                return None
            return self.value(arg["value"], v, path)
        if kind == "Array":
            items = v if field else v.items
            if len(items) != arg["len"]:
                self.fail(path, f"{len(items)} elements, not {arg['len']}")
            return [self.value(arg["element"], x, f"{path}[{i}]") for i, x in enumerate(items)]
        if kind == "Option":  # as an element: a type with `present` and `value`
            if v.present not in (0, 1):
                self.fail(path, f"presence byte {v.present}")
            return self.value(arg, v.value, path) if v.present else None
        if kind in ("List", "BoundedList"):
            element = arg if kind == "List" else arg["element"]
            if element == "U8":
                return list(v)  # bytes
            items = v.items
            if kind == "BoundedList" and len(items) > arg["max_len"]:
                self.fail(path, f"{len(items)} elements, more than {arg['max_len']}")
            return [self.value(element, x, f"{path}[{i}]") for i, x in enumerate(items)]
        if kind == "Map":  # a list of (key, value) tuples; JSON object keys are text
            out = {}
            for i, entry in enumerate(v.items):
                key, value = self.value(arg, entry, f"{path}[{i}]")
                key = key if isinstance(key, str) else str(key)
                if key in out:
                    self.fail(path, f"key {key} twice")
                out[key] = value
            return out
        if kind == "Message":
            return self.message(arg, v, path)
        if kind == "Tuple":
            return [self.value(e, getattr(v, f"e{i}"), f"{path}.{i}", True) for i, e in enumerate(arg)]
        if kind == "Union":
            tag = int(v.tag)
            variant = next((x for x in arg["variants"] if x["tag"] == tag), None)
            if variant is None:
                if arg.get("catch_all") is None:
                    self.fail(path, f"tag {tag} of no variant, and no catch-all")
                return {arg["catch_all"]: {"tag": tag, "bytes": list(v.payload)}}
            if getattr(v.tag, "name", None) != snake(variant["name"]):
                self.fail(path, f"Kaitai tag {v.tag!r} for variant {variant['name']}")
            if variant["payload"] is None:
                return variant["name"]
            payload = self.message(variant["payload"], v.payload, f"{path}.{variant['name']}")
            return {variant["name"]: payload}
        raise ValueError(f"{path}: no reading of wire type {kind}")


def decimal_text(mantissa, scale):
    """`mantissa × 10^-scale` as wiremsg writes a Decimal: every decimal place."""
    sign = "-" if mantissa < 0 else ""
    units = abs(mantissa)
    if scale == 0:
        return f"{sign}{units}"
    whole, frac = divmod(units, 10**scale)
    return f"{sign}{whole}.{frac:0{scale}d}"


def same(a, b):
    if isinstance(a, F32) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return f32(a) == f32(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, dict) and isinstance(b, dict):
        # In order: a map's entries are in key order in both (FORMAT.md §6.7).
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b or (
        isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b
    )


def load_parser(module_dir):
    """The top-level class of the one generated module in `module_dir`."""
    import glob
    import os

    sys.path.insert(0, module_dir)
    (path,) = glob.glob(os.path.join(module_dir, "*.py"))
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (cls,) = [
        c
        for _, c in inspect.getmembers(module, inspect.isclass)
        if issubclass(c, KaitaiStruct) and c.__module__ == module.__name__
    ]
    return cls


def refused(schema_path, module_dir, root, input_path):
    """Exit status 0 if reading `input_path` as `root` raises, else 1."""
    with open(schema_path, encoding="utf-8") as f:
        reader = Reader(json.load(f))
    parser = load_parser(module_dir)
    name = root.split(":", 1)[1]
    try:
        parsed = parser.from_file(input_path)
        value = reader.message(name, parsed, name)
    except (KaitaiStructError, EOFError, UnicodeDecodeError, ValueError) as e:
        print(f"ok: refused: {type(e).__name__}: {e}")
        return
    print(f"MISMATCH the parser read bytes wiremsg refuses: {value}", file=sys.stderr)
    sys.exit(1)


def main():
    if sys.argv[1] == "--invalid":
        refused(*sys.argv[2:])
        return
    schema_path, module_dir, root, input_path, expected_path = sys.argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        reader = Reader(json.load(f))
    parser = load_parser(module_dir)
    parsed = parser.from_file(input_path)
    with open(expected_path, encoding="utf-8") as f:
        text = f.read()

    if root == "frames":
        expected = [json.loads(line) for line in text.splitlines() if line.strip()]
        got = []
        schema_frames = 0
        for i, frame in enumerate(parsed.frames):
            body = frame.body
            if body.ids == SCHEMA_IDS:
                # A schema frame, read as the schema encoding: the messages it
                # describes are the schema's.
                names = [m.name for m in body.message.messages.items]
                unknown = [n for n in names if n not in reader.messages]
                if not names or unknown:
                    reader.fail(f"frame {i}", f"schema frame of {names}: unknown {unknown}")
                schema_frames += 1
                continue
            name = next(
                m["name"]
                for m in reader.messages.values()
                if m["template_id"] == body.header.template_id
                and m["schema_id"] == body.header.schema_id
            )
            got.append(reader.message(name, body.message, f"frame {i}: {name}"))
    else:
        expected = [json.loads(text)]
        if root == "header":
            h = parsed.header
            name = next(
                m["name"]
                for m in reader.messages.values()
                if m["template_id"] == h.template_id and m["schema_id"] == h.schema_id
            )
            got = [reader.message(name, parsed.message, name)]
        else:
            name = root.split(":", 1)[1]
            got = [reader.message(name, parsed, name)]

    if len(got) != len(expected):
        reader.fail("messages", f"Python read {len(got)}, wiremsg {len(expected)}")
    for i, (a, b) in enumerate(zip(got, expected)):
        if not same(a, b):
            reader.fail(f"message {i}", f"Python read\n  {a}\nwiremsg json wrote\n  {b}")
    for e in reader.errors:
        print(f"MISMATCH {e}", file=sys.stderr)
    if reader.errors:
        sys.exit(1)
    print(f"ok: {len(got)} message(s), every value equal")
    if root == "frames":
        print(f"ok: {schema_frames} schema frame(s) read as the schema encoding")


if __name__ == "__main__":
    main()
