"""The sticker library (`/stickers`): uploads made WhatsApp's stickers (a 512×512 WEBP, the picture
fitted on a transparent square, ≤ 100 KB still, ≤ 500 KB animated), what normalization did said in
a sentence, refusals with theirs, one copy of a picture, deletes, and another organization's ids
answering 404."""

import pytest

from appliance.core import runtime
from appliance.organizations import entitlements
from appliance.stickers import normalize
from tests.factories import add_member, organization, person
from tests.problems import assert_problem
from tests.stickers import pictures


def test_a_big_png_is_fitted_on_a_transparent_square_and_says_so(library):
    sticker = library.added(pictures.noise(1024, 600), name="Ruido")
    assert (sticker["name"], sticker["mimeType"], sticker["width"], sticker["height"]) == ("Ruido", "image/webp", 512, 512)
    assert (sticker["sourceFormat"], sticker["sourceWidth"], sticker["sourceHeight"]) == ("PNG", 1024, 600)
    assert sticker["animated"] is False and sticker["frames"] == 1
    assert sticker["encoding"] == "lossy" and 20 <= sticker["quality"] <= 90  # noise never fits without loss
    assert sticker["sizeBytes"] <= 100 * 1024 and sticker["sourceBytes"] > 1024 * 1024
    assert sticker["normalization"] == (f"Resized from 1024×600 to fit 512×512 and re-encoded as WEBP at quality "
                                        f"{sticker['quality']}: {-(-sticker['sizeBytes'] // 1024)} KB.")
    file = library.get(f"/{sticker['id']}/file")
    assert file.status_code == 200 and file.mimetype == "image/webp" and len(file.data) == sticker["sizeBytes"]
    drawn = pictures.opened(file.data)
    assert (drawn.format, drawn.size) == ("WEBP", (512, 512))
    # 1024×600 is 512×300 inside the square: the bands above and below are transparent.
    assert drawn.convert("RGBA").getpixel((256, 5))[3] == 0 and drawn.convert("RGBA").getpixel((256, 256))[3] == 255
    assert library.get(f"/{sticker['id']}").get_json()["data"] == sticker
    assert [s["id"] for s in library.get().get_json()["data"]] == [sticker["id"]]


def test_a_drawing_is_kept_without_loss_and_a_sticker_as_it_was(library):
    small = library.added(pictures.drawing(100, 100), filename="sol feliz.png")
    assert small["name"] == "sol feliz"  # the file's name, when none is given
    assert small["encoding"] == "lossless" and small["quality"] is None
    assert small["normalization"].startswith("Enlarged from 100×100 to fit 512×512 and re-encoded as WEBP without loss")
    ready = pictures.drawing(512, 512, fmt="WEBP")
    kept = library.added(ready, filename="listo.webp", content_type="image/webp")
    assert kept["encoding"] == "kept" and kept["sizeBytes"] == len(ready)
    assert kept["normalization"] == f"Kept as uploaded: already a 512×512 WEBP of {-(-len(ready) // 1024)} KB."
    assert library.get(f"/{kept['id']}/file").data == ready  # byte for byte


def test_an_animated_webp_stays_animated_with_its_timing(library):
    sticker = library.added(pictures.animation(6, 600, 400, duration=120), filename="baile.webp",
                            content_type="image/webp")
    assert sticker["animated"] is True and sticker["frames"] == 6 and sticker["sizeBytes"] <= 500 * 1024
    assert sticker["normalization"].startswith("Animated, 6 frames. Resized from 600×400 to fit 512×512")
    drawn = pictures.opened(library.get(f"/{sticker['id']}/file").data)
    assert (drawn.format, drawn.size, drawn.n_frames, drawn.is_animated) == ("WEBP", (512, 512), 6, True)
    drawn.seek(3)
    drawn.load()  # Pillow reads a WEBP frame's timing with its pixels
    assert drawn.info["duration"] == 120


def test_an_animated_png_becomes_an_animated_webp(library):
    sticker = library.added(pictures.animation(4, 300, 300, fmt="PNG"), filename="apng.png")
    assert (sticker["sourceFormat"], sticker["animated"], sticker["frames"]) == ("PNG", True, 4)
    drawn = pictures.opened(library.get(f"/{sticker['id']}/file").data)
    assert (drawn.format, drawn.n_frames) == ("WEBP", 4)


def test_an_animation_too_big_even_at_the_lowest_quality_is_refused_with_its_sentence(library):
    refused = assert_problem(library.upload(pictures.animation(12, 512, 512, noisy=True), filename="tv.webp",
                                            content_type="image/webp"), 422, "sticker_too_large")
    assert refused["limitBytes"] == 500 * 1024 and refused["sizeBytes"] > 500 * 1024 and refused["animated"] is True
    assert refused["detail"] == (f"Even at the lowest quality this animated sticker is {-(-refused['sizeBytes'] // 1024)} "
                                 "KB, and WhatsApp takes at most 500 KB for an animated sticker. Use fewer frames, "
                                 "fewer colours or a shorter animation.")
    assert library.get().get_json()["data"] == []
    folder = runtime.get().settings.data_dir / "media" / library.line.org_id / "stickers"
    assert not folder.exists() or list(folder.iterdir()) == []  # nothing written for a refusal


def test_what_is_not_a_webp_or_png_is_refused_by_its_content(library):
    sticker_type = "unsupported_sticker_type"
    assert_problem(library.upload(pictures.drawing(64, 64, fmt="JPEG"), filename="foto.png"), 400, sticker_type)
    assert_problem(library.upload(pictures.animation(3, 64, 64, fmt="GIF"), filename="a.webp",
                                  content_type="image/webp"), 400, sticker_type)
    assert_problem(library.upload(b"<svg xmlns='http://www.w3.org/2000/svg'/>", filename="x.png"), 400, sticker_type)
    damaged = assert_problem(library.upload(pictures.drawing(300, 300)[:200]), 400, "sticker_unreadable")
    assert damaged["detail"] == "This PNG file is damaged or cut short: it cannot be read."
    assert_problem(library.upload(b"", filename="vacio.png"), 400, "file_missing")
    assert library.upload(b"\x89PNG\r\n\x1a\n" + b"0" * (5 * 1024 * 1024)).status_code == 413
    assert_problem(library.upload(pictures.drawing(64, 64), name="x" * 61), 400, "validation_failed")
    assert library.get().get_json()["data"] == []


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")  # 10000×10000: Pillow warns, we refuse
def test_decompression_bombs_and_endless_animations_are_refused_unread(library):
    for width, height in ((5000, 5000), (10000, 10000), (20000, 20000), (60000, 60000)):
        bomb = assert_problem(library.upload(pictures.claimed_png(width, height)), 422, "sticker_too_many_pixels")
        assert bomb["limitPixels"] == normalize.MAX_FRAME_PIXELS and "Make it smaller first" in bomb["detail"]
    endless = assert_problem(library.upload(pictures.animation(normalize.MAX_FRAMES + 1, 16, 16), filename="x.webp",
                                            content_type="image/webp"), 422, "sticker_too_many_frames")
    assert endless["frames"] == normalize.MAX_FRAMES + 1
    assert endless["detail"] == f"The animation has {normalize.MAX_FRAMES + 1} frames; a sticker may have at most 100."


def test_a_picture_is_in_the_library_once_and_counts_towards_storage(library):
    first = library.added(pictures.drawing(300, 300), name="Sol")
    with runtime.get().db.unit_of_work(write=False) as session:
        assert entitlements.storage_bytes(session, library.line.org_id) == first["sizeBytes"]
    again = assert_problem(library.upload(pictures.drawing(300, 300), name="Otra vez"), 409, "sticker_duplicate")
    assert again["stickerId"] == first["id"] and again["detail"] == "This sticker is already in the library as “Sol”."


def test_a_deleted_sticker_is_gone_from_the_library_but_its_file_stays_for_sent_messages(library):
    sticker = library.added(pictures.drawing(200, 200))
    assert library.delete(f"/{sticker['id']}").status_code == 204
    assert_problem(library.get(f"/{sticker['id']}"), 404, "sticker_not_found")
    assert_problem(library.get(f"/{sticker['id']}/file"), 404, "sticker_not_found")
    assert_problem(library.delete(f"/{sticker['id']}"), 404, "sticker_not_found")
    assert library.get().get_json()["data"] == []
    path = runtime.get().settings.data_dir / "media" / library.line.org_id / "stickers" / f"{sticker['id']}.webp"
    assert path.is_file()
    assert library.added(pictures.drawing(200, 200))["id"] != sticker["id"]  # and it may come back


def test_another_organization_finds_none_of_them(library, api):
    sticker = library.added(pictures.drawing(200, 200))
    eve = person(api, email="eve@example.com")["tokens"]["accessToken"]
    theirs = organization(api, eve, name="Eve", slug="eve")["id"]
    base = f"/organizations/{theirs}/stickers"
    assert library.get(token=eve, base=base).get_json()["data"] == []
    for path in (f"/{sticker['id']}", f"/{sticker['id']}/file"):
        assert_problem(library.get(path, token=eve, base=base), 404, "sticker_not_found")
    deleted = library.line.client.delete(f"{base}/{sticker['id']}", headers={"Authorization": f"Bearer {eve}"})
    assert_problem(deleted, 404, "sticker_not_found")
    assert library.get(f"/{sticker['id']}", token=eve).status_code == 403  # not a member of ours
    assert library.get(f"/{sticker['id']}").status_code == 200  # still ours


def test_agents_pick_from_the_library_and_owners_and_admins_change_it(library, api):
    sticker = library.added(pictures.drawing(200, 200))
    agent = add_member(api, library.line.org_id, "agent", "agente@example.com")
    assert [s["id"] for s in library.get(token=agent).get_json()["data"]] == [sticker["id"]]
    assert library.get(f"/{sticker['id']}/file", token=agent).status_code == 200
    assert_problem(library.upload(pictures.drawing(64, 64), token=agent), 403, "permission_missing")
    assert library.delete(f"/{sticker['id']}", token=agent).status_code == 403
    admin = add_member(api, library.line.org_id, "admin", "admin@example.com")
    assert library.upload(pictures.drawing(64, 64), token=admin).status_code == 201
