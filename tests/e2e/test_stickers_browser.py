"""Stickers' "done means", in a real browser on a sandbox server: a sticker goes both ways. A new owner
adds stickers on the console's Stickers page (told what normalization did, or why a picture was
refused); in the inbox she picks one in the composer and it is sent, and drawn, as a sticker; the
sandbox's customer sends one back (an animated heart) and it is drawn as a sticker too, with no
bubble behind it. The page on a phone, in Spanish, has no sideways scroll. Screenshots for the docs."""

from tests.e2e.conftest import go_to
from tests.e2e.test_console_browser import _browser, _first_run, _phone_at
from tests.stickers import pictures


def _file(name: str, content: bytes, mime_type: str) -> dict:
    return {"name": name, "mimeType": mime_type, "buffer": content}


def _loaded(page, selector: str, seconds: float = 10) -> bool:
    """The picture under `selector` was fetched and decoded (a broken one has no natural width)."""
    for _ in range(int(seconds * 10)):
        if page.eval_on_selector(selector, "img => img.complete && img.naturalWidth === 512"):
            return True
        page.wait_for_timeout(100)
    return False


def test_a_sticker_goes_both_ways(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    # The library: empty, then a PNG that is too big, made a sticker; an animation no encoder can
    # bring under 500 KB, refused with its sentence; an animated WEBP, kept moving.
    go_to(olga, "Stickers")
    olga.wait_for_selector("text=No stickers yet")
    olga.set_input_files("input[name=file]", _file("sol.png", pictures.drawing(800, 600), "image/png"))
    olga.fill("input[name=name]", "Sol")
    olga.click("button:has-text('Add the sticker')")
    olga.wait_for_selector("[data-added]:has-text('Resized from 800×600 to fit 512×512')")
    olga.set_input_files("input[name=file]", _file("tv.webp", pictures.animation(10, 512, 512, noisy=True),
                                                   "image/webp"))
    olga.click("button:has-text('Add the sticker')")
    olga.wait_for_selector("[data-refusal]:has-text('takes at most 500 KB for an animated sticker')")
    screenshot(olga, "stickers-refused")
    olga.set_input_files("input[name=file]", _file("baile.webp", pictures.animation(8, 600, 600), "image/webp"))
    olga.fill("input[name=name]", "Baile")
    olga.click("button:has-text('Add the sticker')")
    olga.wait_for_selector("[data-added]:has-text('Animated, 8 frames.')")
    assert olga.locator("[data-sticker]").count() == 2
    assert _loaded(olga, "[data-sticker] img")
    screenshot(olga, "stickers-console")

    # The customer writes; the owner picks "Sol" in the composer: it leaves as a sticker.
    olga.goto(f"{base}/inbox/{org_id}")
    olga.fill("form.simulate input[name=text]", "Hola, ¿tienen pan?")
    olga.click("form.simulate button[type=submit]")
    olga.click("a.row >> nth=0")
    olga.click("details.sticker-picker summary")
    screenshot(olga, "stickers-picker")
    olga.click("button[aria-label='Send the sticker “Sol”']")
    sent = ".bubble.out.sticker-bubble img.sticker"
    olga.wait_for_selector(sent)
    assert _loaded(olga, sent)
    olga.wait_for_selector(".bubble.out.sticker-bubble .ticks:not(.tick-pending)", timeout=15000)

    # The customer answers with a sticker of their own: drawn as a sticker, no bubble behind it.
    olga.click("details.as-customer summary")
    olga.click("button[data-sample-sticker=heart]")
    received = ".bubble.in.sticker-bubble img.sticker"
    olga.wait_for_selector(received, timeout=15000)
    assert _loaded(olga, received)
    assert olga.get_attribute(received, "alt") == "Animated sticker"
    assert olga.eval_on_selector(".bubble.in.sticker-bubble", "li => getComputedStyle(li).backgroundColor") in (
        "rgba(0, 0, 0, 0)", "transparent")
    size = olga.eval_on_selector(received, "img => [img.clientWidth, img.clientHeight]")
    assert 120 <= size[0] <= 160 and size[0] == size[1]
    screenshot(olga, "stickers-inbox-both-ways", full_page=False)

    phone = _phone_at(chromium, base, f"/console/{org_id}/stickers")
    phone.wait_for_selector("[data-sticker]")
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(phone, "stickers-console-phone-es")
