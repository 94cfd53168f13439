"""The tokens page's Sound section in a real browser: speech synthesized from a word (waveform,
spectrogram and attention on one time axis, the frames up close), a recording made through the
browser's microphone — Chromium's fake capture device playing a spoken digit — and an uploaded
WAV, each cut into frames and tokens; then the section in Chinese by a link.
Screenshots: test-artifacts/screenshots/e2e-tokens-sound-*.png.

This module launches its own Chromium (the `browser` fixture below overrides the session one for
these tests only) with the fake media flags, so the other tests keep a browser with no microphone."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from lab import audio_input, sound
from support.browser import CHARTS, CHROMIUM_ARGS, DEFAULT_CHROMIUM, open_app, wait_for_rerun
from tests.e2e.helpers import assert_clean, screenshot

TIMEOUT = 90_000  # ms; the machine may be busy, nothing here is a timing assertion


@pytest.fixture(scope="module")
def spoken_wav(tmp_path_factory) -> Path:
    """A spoken digit ("three") with half a second of silence after it, as a WAV file."""
    import numpy as np

    wave = sound.synthesize("three", "en")
    path = tmp_path_factory.mktemp("sound") / "three.wav"
    path.write_bytes(audio_input.wav_bytes(np.concatenate([wave, np.zeros(8000, dtype=np.float32)])))
    return path


@pytest.fixture(scope="module")
def browser(spoken_wav: Path, playwright_driver: Playwright) -> Iterator[Browser]:
    """Chromium with a fake microphone that plays `spoken_wav` and grants itself permission
    (launched by the session's Playwright driver: a second driver cannot start beside it)."""
    args = CHROMIUM_ARGS + ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                            f"--use-file-for-fake-audio-capture={spoken_wav}"]
    chromium = playwright_driver.chromium.launch(
        executable_path=os.environ.get("CHROMIUM_PATH", DEFAULT_CHROMIUM), headless=True, args=args)
    try:
        yield chromium
    finally:
        chromium.close()


def test_sound_section(page: Page, app_server: str, spoken_wav: Path):
    open_app(page, app_server, "/tokens", "tk_view=sound&tsd_text=seven", timeout=TIMEOUT)
    expect(page.get_by_text("From samples to frames to tokens")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    expect(page.locator(CHARTS).nth(0).locator(".heatmaplayer").first).to_be_attached(timeout=TIMEOUT)
    expect(page.locator("audio").first).to_be_attached()
    if (sound.FOLDER / f"{sound.STEM}.json").is_file():          # the shipped model: its attention under it
        expect(page.get_by_text("A small audio Transformer hearing digits")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator(CHARTS).nth(0).locator(".heatmaplayer")).to_have_count(2, timeout=TIMEOUT)
        expect(page.get_by_text("The model hears", exact=False)).to_be_visible()
    screenshot(page, "e2e-tokens-sound-01-speech")
    assert_clean(page)

    # a recording through the browser's microphone (Chromium's fake device plays spoken_wav)
    page.locator('[class*="st-key-tsd_src"]').get_by_text("my recording", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    recorder = page.locator(".st-key-tsd_rec")
    expect(recorder).to_be_visible(timeout=TIMEOUT)
    recorder.get_by_role("button", name="Record", exact=True).click()
    page.wait_for_timeout(2500)
    recorder.get_by_test_id("stAudioInputActionButton").click()
    expect(page.get_by_text("From samples to frames to tokens")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-sound-02-recording")
    assert_clean(page)

    # an uploaded WAV
    page.locator('[class*="st-key-tsd_src"]').get_by_text("a WAV file", exact=True).click()
    wait_for_rerun(page, timeout=TIMEOUT)
    upload = page.locator(".st-key-tsd_upload input[type=file]")
    expect(upload).to_have_count(1, timeout=TIMEOUT)
    upload.set_input_files(str(spoken_wav))
    expect(page.get_by_text("From samples to frames to tokens")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-sound-03-upload")
    assert_clean(page)

    open_app(page, app_server, "/tokens", "lang=中文&tk_view=sound", timeout=TIMEOUT)
    expect(page.get_by_text("从采样点到帧再到词元")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(CHARTS)).to_have_count(2, timeout=TIMEOUT)
    if (sound.FOLDER / f"{sound.STEM}.json").is_file():
        page.get_by_text("它有多准？留出集准确率与基线比较").click()
        expect(page.get_by_text("时间平均对数梅尔值上的逻辑回归")).to_be_visible(timeout=TIMEOUT)
    screenshot(page, "e2e-tokens-sound-04-zh")
    assert_clean(page)
