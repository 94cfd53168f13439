"""Doors of the tokens page's Images section (lab/patches.py `read_image`, ui/views/tokens_patches.py):
any bytes as an uploaded picture — valid PNG/JPEG of odd sizes and modes, the same truncated or with
bytes flipped, a huge declared size, random bytes — give a grey image of at most SHOW_SIDE pixels a
side in [0, 1], or a BadImage with one sentence; in the app, a sentence or the patches, never a traceback."""
from __future__ import annotations

import io

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from lab import patches
from tests.app.helpers import open_app
from tests.fuzz.fuzzing import examples
from tests.fuzz.props import damaged, run_door
from tests.fuzz.test_url_params import check_page
from tests.unit.test_patches import huge_png

PAGE = "app_pages/tokens.py"


def encoded(w: int, h: int, mode: str, fmt: str) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new(mode, (w, h), 200 if mode in ("L", "1", "I;16", "P") else (200,) * len(mode)).save(buf, format=fmt)
    return buf.getvalue()


@st.composite
def pictures(draw) -> tuple[str, bytes]:
    fmt, mode = draw(st.sampled_from([("PNG", "L"), ("PNG", "RGB"), ("PNG", "RGBA"), ("PNG", "P"), ("PNG", "1"),
                                      ("PNG", "I;16"), ("JPEG", "L"), ("JPEG", "RGB"), ("GIF", "P"), ("BMP", "RGB")]))
    w, h = draw(st.integers(1, 600)), draw(st.integers(1, 40))
    data = encoded(*((w, h) if draw(st.booleans()) else (h, w)), mode, fmt)
    how, data = damaged(draw, data)
    return f"{how} {fmt} {mode} {w}x{h}", data


def check_image(result) -> None:
    if isinstance(result, patches.BadImage):
        assert result.reason in patches.BadImage.SENTENCES
        return
    image, size = result
    assert image.dtype == np.float32 and image.ndim == 2 and min(image.shape) >= 2
    assert max(image.shape) <= patches.SHOW_SIDE and 0.0 <= image.min() and image.max() <= 1.0
    assert min(size) >= 2


@examples("image_bytes")
@example(("bomb", huge_png(100_000, 100_000)))
@example(("bomb-wide", huge_png(4000, 3)))
@example(("empty", b""))
@given(pictures())
def test_image_bytes(case):
    how, data = case
    check_image(run_door("image_bytes", lambda: patches.read_image(data), allow=(patches.BadImage,), what=how))


@examples("image_upload_app")
@example(("bomb", huge_png(100_000, 100_000)), "../名前\u202e.png")
@given(pictures(), st.sampled_from(["a.png", "../名前\u202e.jpg", "x.jpeg"]))
def test_image_upload(case, name):
    how, data = case

    def run():
        at = open_app({"tk_view": "images", "tim_src": "upload"}, PAGE, direct=True, errors_ok=True)
        at.file_uploader(key="tim_upload").set_value((name, data, "image/png")).run()
        return at

    at = run_door("image_upload_app", run, what=how)
    check_page(at)
    assert at.warning or any(c.proto.id for c in at.get("plotly_chart")) or at.info
