"""Generated spans in a rendered page: ``<!-- gen:NAME ARG … -->text<!-- /gen -->``.

Every number a template takes from a file is rendered inside such a span, named after the
fragment that made it (:mod:`fragments`): a reader of the page's source sees where each number
comes from, and the tests strip the spans to check that the rest (the template's own words)
quotes no time, rate or count."""
from __future__ import annotations

import re

#: ``<!-- gen:NAME ARG … -->body<!-- /gen -->``
GENERATED = re.compile(r"<!-- gen:(?P<spec>[^>]*?) -->(?P<body>.*?)<!-- /gen -->", re.S)
#: the markers of the blocks: the README's claims table and authors' table, the times table of
#: docs/workflow.md, the C4-theory block of docs/results/tied_untied.md (start, end)
CLAIMS = ("<!-- claims:start (from figures/VERDICTS.json) -->", "<!-- claims:end -->")
AUTHORS = ("<!-- authors:start (from figures/authors/VERDICTS.json and its numbers) -->", "<!-- authors:end -->")
TIMES = ("<!-- times:start (from benchmarks/results/workflow.json) -->", "<!-- times:end -->")
C4_THEORY = ("<!-- tied_untied_theory:start (from figures/numbers/tied_untied_theory.json) -->",
             "<!-- tied_untied_theory:end -->")
#: blocks with markers of their own: the claims table, the authors' table, the times table and the
#: C4-theory block (start … end)
BLOCKS = (re.compile(r"<!-- claims:start.*?<!-- claims:end -->", re.S),
          re.compile(r"<!-- authors:start.*?<!-- authors:end -->", re.S),
          re.compile(r"<!-- times:start.*?<!-- times:end -->", re.S),
          re.compile(r"<!-- tied_untied_theory:start.*?<!-- tied_untied_theory:end -->", re.S))


def span(spec: str, body: str) -> str:
    """``body`` marked as the generated span ``spec`` ("NAME ARG …"). A body of several lines (a
    table) is a block: it stands between blank lines, so that the markers are blocks of their own."""
    if "\n" in body.strip("\n"):
        body = "\n\n" + body.strip("\n") + "\n\n"
    return f"<!-- gen:{spec} -->{body}<!-- /gen -->"


def block(markers: tuple[str, str], body: str) -> str:
    """``body`` between the markers (start, end), one line each."""
    start, end = markers
    return start + "\n" + body.strip("\n") + "\n" + end


def strip_generated(text: str) -> str:
    """``text`` without its generated spans and blocks (what is left is the template's own text)."""
    for pattern in BLOCKS:
        text = pattern.sub("", text)
    return GENERATED.sub("", text)
