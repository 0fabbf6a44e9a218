"""The README and the docs point only inside the checkout: every relative link resolves to a
file or folder of the repository, and no text names a path outside it (a clone has no
``../shared`` beside it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
"""A Markdown link or image: ``[text](target)``, ``![alt](target "title")``."""
_UPWARD = re.compile(r"(?<![\w.])(?:\.\./)+[\w./-]*")
"""A path written as text that climbs out of the page's folder: ``../shared/spec/x.md``."""


def _inside(page: Path, target: str) -> str | None:
    """Why ``target``, read from ``page``'s folder, is not a path of the checkout (None if it is)."""
    path = (page.parent / target).resolve()
    if not path.is_relative_to(ROOT):
        return "outside the checkout"
    if not path.exists():
        return "no such file in the checkout"
    return None


def _relative_links(text: str) -> list[str]:
    """The targets of ``text``'s links that are paths (no address, no anchor alone), anchors cut."""
    targets = [m.group(1) for m in _LINK.finditer(text)]
    return [t.split("#")[0] for t in targets if not re.match(r"[a-z][a-z+.-]*:|#", t)]


def test_every_relative_link_resolves_inside_the_checkout() -> None:
    problems = []
    for page in PAGES:
        for target in _relative_links(page.read_text("utf-8")):
            why = _inside(page, target)
            if why is not None:
                problems.append(f"{page.relative_to(ROOT)}: {target}: {why}")
    assert problems == []
    links = {t for page in PAGES for t in _relative_links(page.read_text("utf-8"))}
    assert {"docs/tournaments.md", "docs/images/trace-html.png", "stdio-bots.md"} <= links  # links were read


def test_no_text_names_a_path_outside_the_checkout() -> None:
    problems = []
    for page in PAGES:
        for n, line in enumerate(page.read_text("utf-8").splitlines(), 1):
            for m in _UPWARD.finditer(line):
                why = _inside(page, m.group())
                if why is not None:
                    problems.append(f"{page.relative_to(ROOT)}:{n}: {m.group()}: {why}")
            if "shared/spec" in line:
                problems.append(f"{page.relative_to(ROOT)}:{n}: names the shared spec, which a clone lacks")
    assert problems == []


def test_the_checks_see_a_path_outside() -> None:
    page = ROOT / "docs" / "x.md"
    assert [m.group() for m in _UPWARD.finditer("as in `../shared/spec/design.md`: see")] == [
        "../shared/spec/design.md"]
    assert _inside(ROOT / "README.md", "../shared/spec/scenario-format.md") == "outside the checkout"
    assert _inside(page, "../shared/spec/design.md") == "no such file in the checkout"
    assert _inside(page, "scenarios.md") is None and _inside(page, "../README.md") is None
    assert _relative_links("[a](b.md#c) [d](https://e) [f](#g) ![h](i.png \"j\")") == ["b.md", "i.png"]
