"""Generated spans in Markdown: find them, fill them, strip them."""
from __future__ import annotations

import re
from collections.abc import Callable

#: ``<!-- gen:NAME ARG … -->body<!-- /gen -->``
GENERATED = re.compile(r"<!-- gen:(?P<spec>[^>]*?) -->(?P<body>.*?)<!-- /gen -->", re.S)
#: blocks with markers of their own: the claims table, the authors' table and the times table
#: (start … end)
BLOCKS = (re.compile(r"<!-- claims:start.*?<!-- claims:end -->", re.S),
          re.compile(r"<!-- authors:start.*?<!-- authors:end -->", re.S),
          re.compile(r"<!-- times:start.*?<!-- times:end -->", re.S))


def fill(text: str, render: Callable[[str, list[str]], str]) -> str:
    """``text`` with the body of every generated span replaced by ``render(name, args)``.

    A span written over several lines (its body starts with a line break) is a block: its text
    stands between blank lines, so that the markers (HTML comments) are blocks of their own."""
    def replace(match):
        name, *args = match["spec"].split()
        body = render(name, args)
        if match["body"].startswith("\n"):
            body = "\n\n" + body.strip("\n") + "\n\n"
        return f"<!-- gen:{match['spec']} -->{body}<!-- /gen -->"

    return GENERATED.sub(replace, text)


def strip_generated(text: str) -> str:
    """``text`` without its generated spans and blocks (what is left was typed by hand)."""
    for block in BLOCKS:
        text = block.sub("", text)
    return GENERATED.sub("", text)
