"""offcenter.viz.format: escaping user text and writing numbers, and that it is their one home."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from offcenter.viz.format import fmt_exact, fmt_sig, md_escape, plot_text

ROOT = Path(__file__).resolve().parents[2]


@given(st.text())
def test_plot_text_reads_back_and_carries_no_tag(text):
    out = plot_text(text)
    assert "<" not in out and ">" not in out
    assert html.unescape(out) == text


@given(st.text(min_size=1), st.integers(1, 50))
def test_plot_text_cuts_at_the_limit(text, limit):
    out = html.unescape(plot_text(text, limit=limit))
    assert len(out) <= max(limit, 1)
    assert out == text if len(text) <= limit else out.endswith("…")


@given(st.text())
def test_md_escape_leaves_no_markup_unescaped(text):
    out = md_escape(text)
    assert "\n" not in out
    # every special character is preceded by a backslash
    assert not re.search(r"(?<!\\)[<>$*_`\[\]]", out.replace("\\\\", ""))


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_fmt_exact_reads_back_to_12_digits(x):
    assert float(fmt_exact(x)) == float(f"{x:.12g}")


def test_fmt_sig_keeps_the_exact_digits():
    assert fmt_sig(0.10584334) == "0.105843" and fmt_sig(None) == "" and fmt_sig(0.0) == "0"


def test_escaping_has_one_home():
    """No module of the drawing layer, the app or the pages escapes text by itself."""
    files = [*ROOT.glob("offcenter/viz/*.py"), *ROOT.glob("offcenter/app/*.py")]
    files += [*ROOT.glob("pages/*.py"), ROOT / "app.py"]
    own = [
        f"{p.relative_to(ROOT)}"
        for p in files
        if p.name != "format.py" and "html.escape(" in p.read_text(encoding="utf-8")
    ]
    assert not own, (
        f"use offcenter.viz.format.plot_text / md_escape instead of html.escape in {own}"
    )
