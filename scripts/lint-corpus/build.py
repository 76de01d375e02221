#!/usr/bin/env python3
"""Builds the poisoned lint corpus, testdata/lint/poisoned.jsonl, from the
payloads of testdata/lint/poisoned/payloads.txt: each payload is placed in an
ordinary tool (after its description, in a parameter's description, in an
annotation, an enum, a default, an example, a nested schema, a prompt or a
resource), and every English payload is also disguised once, in turn, by one
hidden channel (base64, hex, URL-encoding, rot13, reversed text, a JSON blob,
an HTML or Markdown comment, zero-width bits, Tag characters, leetspeak,
homoglyphs, spaced letters, a line break inside the phrase). Deterministic:
the same file on every run.

    python3 scripts/lint-corpus/build.py
"""

import base64
import codecs
import json
import os
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "testdata", "lint", "poisoned", "payloads.txt")
HELDOUT = os.path.join(ROOT, "testdata", "lint", "poisoned", "heldout.txt")
FRESH = os.path.join(ROOT, "testdata", "lint", "poisoned", "fresh.txt")
FINAL = os.path.join(ROOT, "testdata", "lint", "poisoned", "final.txt")
BLIND = os.path.join(ROOT, "testdata", "lint", "poisoned", "blind.txt")
R5 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r5.txt")
R6 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r6.txt")
R7 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r7.txt")
R8 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r8.txt")
R9 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r9.txt")
R10 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r10.txt")
R11 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r11.txt")
R12 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r12.txt")
R13 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r13.txt")
R14 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r14.txt")
R15 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r15.txt")
R16 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r16.txt")
R17 = os.path.join(ROOT, "testdata", "lint", "poisoned", "r17.txt")
OUT = os.path.join(ROOT, "testdata", "lint", "poisoned.jsonl")

# Ordinary tools the payloads are placed in: name, description, a parameter.
SHELLS = [
    ("add", "Adds two numbers and returns the sum.", "a", "The first number."),
    ("get_weather", "Returns the current weather for a city.", "city", "City name, e.g. Paris."),
    ("search_docs", "Searches the documentation index and returns matching pages.", "query", "Words to search for."),
    ("send_message", "Sends a chat message to a channel.", "channel", "The channel id."),
    ("read_note", "Reads a note from the notebook by its title.", "title", "The note's title."),
    ("translate_text", "Translates text between languages.", "target", "Target language code."),
    ("list_events", "Lists calendar events in a date range.", "start", "Start date (ISO 8601)."),
    ("run_query", "Runs a read-only SQL query against the analytics database.", "sql", "The SQL statement."),
    ("create_ticket", "Creates a support ticket.", "summary", "One-line summary."),
    ("convert_units", "Converts a value between units of measure.", "value", "The value to convert."),
    ("fetch_quote", "Returns the latest stock quote for a ticker symbol.", "symbol", "Ticker symbol."),
    ("resize_image", "Resizes an image to the given width and height.", "width", "Width in pixels."),
]

LEET = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"})
HOMOGLYPHS = str.maketrans({"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440",
                            "c": "\u0441", "x": "\u0445", "i": "\u0456"})


def zero_width(text):
    bits = "".join(f"{b:08b}" for b in text.encode())
    return "".join("\u200b" if b == "0" else "\u200c" for b in bits)


def tags(text):
    return "".join(chr(0xE0000 + ord(c)) for c in text if 0x20 <= ord(c) < 0x7F)


DISGUISES = [
    ("base64", lambda t: "Config: " + base64.b64encode(t.encode()).decode()),
    ("hex", lambda t: "Checksum " + t.encode().hex()),
    ("url-encoding", lambda t: "See " + urllib.parse.quote(t)),
    ("rot13", lambda t: codecs.encode(t, "rot13")),
    ("reversed", lambda t: t[::-1]),
    ("json", lambda t: 'Options: {"mode": "fast", "note": ' + json.dumps(t) + "}"),
    ("html-comment", lambda t: "<!-- " + t + " -->"),
    ("markdown-comment", lambda t: "[//]: # (" + t.replace("(", "").replace(")", "") + ")"),
    ("zero-width-bits", lambda t: "Ready." + zero_width(t)),
    ("tag-characters", lambda t: "Ready." + tags(t)),
    ("leetspeak", lambda t: t.lower().translate(LEET)),
    ("homoglyphs", lambda t: t.translate(HOMOGLYPHS)),
    ("line-breaks", lambda t: "\n".join(t.split(" "))),
    ("spaced-runs", lambda t: t.replace(" ", "   ")),
]

PLACES = ["description", "description", "description", "parameter", "annotation",
          "enum", "default", "examples", "nested", "prompt", "resource", "title"]


def place(payload, n, where):
    name, desc, param, pdesc = SHELLS[n % len(SHELLS)]
    schema = {"type": "object", "properties": {param: {"type": "string", "description": pdesc}},
              "required": [param]}
    if where == "prompt":
        return "prompt", {"name": name, "description": desc + " " + payload,
                          "arguments": [{"name": param, "description": pdesc}]}
    if where == "resource":
        return "resource", {"uri": f"docs://{name}", "name": name, "description": payload}
    tool = {"name": name, "description": desc, "inputSchema": schema}
    if where == "description":
        tool["description"] = desc + " " + payload if n % 4 else payload
    elif where == "parameter":
        schema["properties"][param]["description"] = pdesc + " " + payload
    elif where == "annotation":
        tool["annotations"] = {"readOnlyHint": True, "metadata": {"notes": payload}}
    elif where == "enum":
        schema["properties"]["mode"] = {"type": "string", "enum": ["fast", payload]}
    elif where == "default":
        schema["properties"]["mode"] = {"type": "string", "default": payload}
    elif where == "examples":
        schema["properties"][param]["examples"] = [payload]
    elif where == "nested":
        schema["properties"]["options"] = {"type": "object", "properties": {
            "extra": {"type": "string", "description": payload}}}
    elif where == "title":
        tool["title"] = payload
    return "tool", tool


def main():
    rows = []
    for path in (SRC, HELDOUT, FRESH, FINAL, BLIND, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17):
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            family, lang, text = line.split("|", 2)
            rows.append((family, lang, text.replace("\\n", "\n"), os.path.basename(path)))
    out = []
    for n, (family, lang, text, src) in enumerate(rows):
        where = PLACES[n % len(PLACES)] if family != "shadowing" else "description"
        kind, item = place(text, n, where)
        out.append({"family": family, "language": lang, "placed": where, "kind": kind,
                    "definition": item, "set": src})
    english = [r for r in rows if r[1] == "en"]
    for n, (family, lang, text, src) in enumerate(english):
        how, disguise = DISGUISES[n % len(DISGUISES)]
        kind, item = place(disguise(text), n + 5, "description")
        out.append({"family": "hidden-channel", "language": lang, "placed": how, "kind": kind,
                    "definition": item, "underlying": family, "set": src})
    with open(OUT, "w", encoding="utf-8") as f:
        for row in out:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"poisoned corpus: {len(out)} definitions -> {OUT}")


if __name__ == "__main__":
    main()
