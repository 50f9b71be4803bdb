"""Ways real digest files get broken, as small deterministic edits.

A mutation is plain data, (kind, a, b) with a and b arbitrary non-negative ints that are read
modulo the size of what they index, so a property-based test can draw and shrink them freely.
Text edits work on the decoded lines; byte edits on the encoded file.
"""

from __future__ import annotations

import codecs

LONG_LINE_CHARS = 200_000  # long enough to cross every per-field limit, small enough to fuzz fast

TEXT_KINDS = ("delete", "delete_block", "duplicate", "duplicate_block", "swap", "move", "blank",
              "join", "split", "long_line", "nul", "lone_cr", "bom_char", "replacement_char",
              "empty_line_field", "truncate_chars", "stray_header")
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16-le-bom", "utf-16-be-bom", "utf-16-le-nobom", "gb18030",
             "latin-1", "cp1252", "utf-32-bom")
NEWLINES = ("\n", "\r\n", "\r", "mixed")
BYTE_KINDS = ("truncate", "nul_byte", "flip_byte", "insert_bytes", "insert_bom", "cut_middle")


def apply_text(text: str, kind: str, a: int, b: int) -> str:
    lines = text.split("\n")
    n = len(lines)
    i, j = a % n, b % n
    if kind == "delete":
        del lines[i]
    elif kind == "delete_block":
        lo, hi = sorted((i, j))
        del lines[lo:hi + 1]
    elif kind == "duplicate":
        lines.insert(j, lines[i])
    elif kind == "duplicate_block":
        lo, hi = sorted((i, min(n - 1, i + b % 12)))
        lines[hi + 1:hi + 1] = lines[lo:hi + 1]
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "move":
        lines.insert(j, lines.pop(i))
    elif kind == "blank":
        lines.insert(i, " " * (b % 3))
    elif kind == "join" and i + 1 < n:
        lines[i:i + 2] = [lines[i] + (" " if b % 2 else "") + lines[i + 1]]
    elif kind == "split":
        line = lines[i]
        cut = b % (len(line) + 1)
        lines[i:i + 1] = [line[:cut], line[cut:]]
    elif kind == "long_line":
        filler = ("lorem ipsum dolor sit amet " * (LONG_LINE_CHARS // 27 + 1))[:LONG_LINE_CHARS]
        if b % 2:
            lines[i] = lines[i] + filler
        else:
            lines.insert(i, filler.replace(" ", "x") if b % 4 == 2 else filler)
    elif kind == "nul":
        line = lines[i]
        cut = b % (len(line) + 1)
        lines[i] = line[:cut] + "\x00" + line[cut:]
    elif kind == "lone_cr":
        line = lines[i]
        cut = b % (len(line) + 1)
        lines[i] = line[:cut] + "\r" + line[cut:]
    elif kind == "bom_char":
        lines[i] = "\ufeff" + lines[i]
    elif kind == "replacement_char":
        line = lines[i]
        cut = b % (len(line) + 1)
        lines[i] = line[:cut] + "\ufffd" + line[cut:]
    elif kind == "empty_line_field":
        lines[i] = ""
    elif kind == "truncate_chars":
        return "\n".join(lines)[: a % (len(text) + 1)]
    elif kind == "stray_header":
        lines.insert(i, ["论文检索", f"#{b % 120:02d}Feb {b % 40:02d}, {1980 + b % 60}", "#01Foo 99, 2026"][b % 3])
    return "\n".join(lines)


def encode(text: str, encoding: str, newline: str) -> bytes:
    if newline == "mixed":
        parts = text.split("\n")
        text = "".join(p + ("\r\n", "\n", "\r")[k % 3] for k, p in enumerate(parts[:-1])) + parts[-1]
    elif newline != "\n":
        text = text.replace("\n", newline)
    if encoding == "utf-16-le-bom":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le", "surrogatepass")
    if encoding == "utf-16-be-bom":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be", "surrogatepass")
    if encoding == "utf-16-le-nobom":
        return text.encode("utf-16-le", "surrogatepass")
    if encoding == "utf-32-bom":
        return text.encode("utf-32")
    return text.encode(encoding, "replace")


def apply_bytes(data: bytes, kind: str, a: int, b: int) -> bytes:
    k = a % (len(data) + 1)
    if kind == "truncate":
        return data[:k]
    if kind == "nul_byte":
        return data[:k] + b"\x00" + data[k:]
    if kind == "flip_byte" and data:
        k = a % len(data)
        return data[:k] + bytes([data[k] ^ (1 + b % 255)]) + data[k + 1:]
    if kind == "insert_bytes":
        return data[:k] + bytes((b * 37 + x * 101) % 256 for x in range(1 + b % 7)) + data[k:]
    if kind == "insert_bom":
        bom = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)[b % 3]
        return data[:k] + bom + data[k:]
    if kind == "cut_middle":
        lo, hi = sorted((k, b % (len(data) + 1)))
        return data[:lo] + data[hi:]
    return data


def mutate(text: str, text_edits, encoding: str, newline: str, byte_edits) -> bytes:
    for kind, a, b in text_edits:
        text = apply_text(text, kind, a, b)
    data = encode(text, encoding, newline)
    for kind, a, b in byte_edits:
        data = apply_bytes(data, kind, a, b)
    return data
