"""A class link as a QR code for the projector: made here by segno (pure Python), nothing fetched.

    qr_svg(url) -> str     an <svg> element, black on white, to put in markdown/HTML or st.image
    qr_png(url) -> bytes   the same as PNG bytes (st.image, a download button)
    qr_code(url)           the segno QR code itself (its .matrix, .version), for tests and other formats

Error correction "M" (15 % of the code may be covered or dirty) and a 4-module quiet border,
the standard's minimum, so a phone reads it from the back of a room. A class link
(`http://host:8501/lessons?class=K7PX3M`, ~50 characters) is a version 3-4 code: 29-33
modules a side.
"""
from __future__ import annotations

import io

import segno

MAX_URL = 1000   # characters; longer links make codes too dense to read off a projector


def qr_code(url: str) -> segno.QRCode:
    if not isinstance(url, str):
        raise TypeError(f"a link is a string, not {type(url).__name__}")
    if not url.strip() or len(url) > MAX_URL:
        raise ValueError(f"a link for a QR code has 1 to {MAX_URL} characters, not {len(url)}")
    return segno.make_qr(url, error="m", boost_error=False)


def qr_svg(url: str, scale: int = 10) -> str:
    """The QR code of `url` as an SVG element (no XML declaration), `scale` pixels per module."""
    out = io.BytesIO()
    qr_code(url).save(out, kind="svg", scale=scale, border=4, xmldecl=False, dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")


def qr_png(url: str, scale: int = 10) -> bytes:
    """The QR code of `url` as PNG bytes, `scale` pixels per module."""
    out = io.BytesIO()
    qr_code(url).save(out, kind="png", scale=scale, border=4, dark="#000", light="#fff")
    return out.getvalue()
