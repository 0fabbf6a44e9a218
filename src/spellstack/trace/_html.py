"""A trace as one self-contained HTML page (``spellstack trace html``): a timeline of the game
by turn and step with a lane per player, the payload and the board at each line, a chart of
the life totals; keyboard navigation.

``trace_html`` fills the page's template (``page/page.html.j2``) with its style sheet and
script, inlined, and the data of ``page_data`` embedded as JSON: the page needs no network and
no other file.
"""

from __future__ import annotations

from importlib.resources import files

import orjson

from ._page import page_data
from ._read import Trace

__all__ = ["trace_html"]

_ASSETS = files(__package__) / "page"


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def _script_json(data: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<`` (so no ``</script>`` nor ``<!--``),
    and no line or paragraph separators."""
    text = orjson.dumps(data).decode()
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def trace_html(trace: Trace, as_player: str | None = None) -> str:
    """The page of ``trace``, as everybody saw the game or as ``as_player`` did: only what that
    player could see is in the page at all.

    Raises:
        TraceQueryError: ``as_player`` is no player of the trace.
    """
    # Imported here, not with the module: every command line loads this package, few of them
    # write a page, and jinja2 is about 3 MB resident.
    import jinja2

    data = page_data(trace, as_player)
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    template = env.from_string(_asset("page.html.j2"))
    # As a player, no seed: with the decklists it would rebuild every hand (``page_data``).
    about = f" as {as_player}" if as_player is not None else f", seed {trace.header.seed}"
    title = f"{trace.header.game}: {' vs '.join(trace.header.players)}{about}"
    # The style sheet, script and data go in as they are (the template marks them safe).
    return template.render(title=title, css=_asset("page.css"), js=_asset("page.js"),
                           data=_script_json(data.data))
