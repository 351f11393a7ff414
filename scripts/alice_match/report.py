"""``-report FILE``: the standings and crosstable as a page a tournament site can publish,
Markdown (``.md``) or HTML (``.html``/``.htm``), rewritten whole (and atomically) after every
``-ratinginterval`` games and at the end.

>>> page = Page("Test", "Round robin", [("Standings", ["Rank", "Name"], [["1", "a|b"]])], "")
>>> print(markdown(page))
# Test
<BLANKLINE>
Round robin
<BLANKLINE>
## Standings
<BLANKLINE>
| Rank | Name |
|---:|---|
| 1 | a\\|b |
<BLANKLINE>
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass

from engine.files import write_atomically

FORMATS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}
LEFT_ALIGNED = ("Name",)  # other columns hold numbers and are right-aligned
REPORT_MODE = 0o644  # readable by a web server (the temporary file starts private)


@dataclass(frozen=True)
class Page:
    """What a report shows: a title, a status line, tables (title, headers, rows) and a
    preformatted block (the knockout bracket, or empty)."""

    title: str
    status: str
    tables: list[tuple[str, list[str], list[list[str]]]]
    preformatted: str


def report_format(path: str) -> str | None:
    """``markdown`` or ``html`` from the file's extension; ``None`` if neither."""
    return FORMATS.get(os.path.splitext(path)[1].lower())


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(page: Page) -> str:
    lines = [f"# {page.title}", "", page.status, ""]
    for title, headers, rows in page.tables:
        lines += [f"## {title}", "", "| " + " | ".join(_md_cell(h) for h in headers) + " |"]
        lines.append("|" + "|".join("---" if h in LEFT_ALIGNED else "---:" for h in headers) + "|")
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
        lines.append("")
    if page.preformatted:
        lines += ["## Bracket", "", "```", page.preformatted.expandtabs(4), "```", ""]
    return "\n".join(lines)


def html_page(page: Page) -> str:
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        f'<head><meta charset="utf-8"><title>{e(page.title)}</title>',
        "<style>table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 8px}"
        "td.num,th.num{text-align:right}</style></head>",
        f"<body><h1>{e(page.title)}</h1>",
        f"<p>{e(page.status)}</p>",
    ]
    for title, headers, rows in page.tables:
        classes = ["" if h in LEFT_ALIGNED else ' class="num"' for h in headers]
        parts.append(f"<h2>{e(title)}</h2>")
        parts.append("<table><tr>" + "".join(f"<th{c}>{e(h)}</th>" for c, h in zip(classes, headers)) + "</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td{c}>{e(x)}</td>" for c, x in zip(classes, row)) + "</tr>")
        parts.append("</table>")
    if page.preformatted:
        parts += ["<h2>Bracket</h2>", f"<pre>{e(page.preformatted.expandtabs(4))}</pre>"]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(path: str, page: Page) -> None:
    """Write ``page`` to ``path`` (format from the extension) through a temporary file, so a
    web server never serves half a page."""
    text = html_page(page) if report_format(path) == "html" else markdown(page)
    write_atomically(path, text.encode(), REPORT_MODE)
