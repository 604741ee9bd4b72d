"""Issue 46's "Done means", in a real browser on real servers: an owner's installation talks to a
sandbox customer, makes a backup on the Backups page (the key shown once) and downloads it; a new
installation on another data directory restores it from /setup (checked, then the server starts
itself again on the restored data); the owner signs in there and finds the conversation, the API
key and the WhatsApp number working."""

import re

import requests

from tests.e2e.conftest import free_port, go_to, start_server
from tests.e2e.test_console_browser import PASSWORD
from tests.e2e.test_live_pages_browser import _customer_writes, _owner
from tests.waiting import eventually


def test_a_backup_made_in_the_console_restores_a_new_installation_from_setup(tmp_path, chromium, screenshot):
    port_a, port_b = free_port(), free_port()
    base_a, base_b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    server_a = start_server(tmp_path / "a" / "data", port_a, "--sandbox", env={"APPLIANCE_BASE_URL": base_a})
    try:
        olga, org_id, auth, number = _owner(chromium, base_a, screenshot)
        _customer_writes(base_a, number, "¿Tienen pan de masa madre?")
        key = requests.post(f"{base_a}/organizations/{org_id}/api-keys", json={"name": "caja"}, headers=auth,
                            timeout=10).json()["data"]["secret"]

        go_to(olga, 'Backups')
        olga.wait_for_selector("text=No backup yet")
        olga.click("button:has-text('Make a backup now')")
        backup_key = olga.inner_text("[data-backup-key]")
        assert re.fullmatch(r"([A-Z2-7]{4}-){7}[A-Z2-7]{4}", backup_key)
        olga.wait_for_selector("[data-status=READY]", timeout=30000)  # the page reads itself again while it runs
        screenshot(olga, "console-backups")
        olga.reload()
        assert backup_key not in olga.content()  # shown once
        with olga.expect_download() as download:
            olga.click("a:has-text('Download')")
        archive = tmp_path / "backup.tar.gz"
        download.value.save_as(archive)
    finally:
        server_a.terminate()
        server_a.wait(timeout=30)

    server_b = start_server(tmp_path / "b" / "data", port_b, "--sandbox", env={"APPLIANCE_BASE_URL": base_b})
    try:
        page = chromium.new_context(locale="en-US", viewport={"width": 390, "height": 844}).new_page()
        page.goto(base_b + "/")
        page.wait_for_url("**/setup")
        page.click("a:has-text('Restore from a backup')")
        page.set_input_files("input[name=archive]", str(archive))
        page.fill("input[name=key]", "ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567")  # not the archive's key
        page.click("button:has-text('Check and restore')")
        page.wait_for_selector("text=Nothing was restored", timeout=30000)
        assert "another backup key" in page.inner_text("[role=alert]")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, "setup-restore-refused-phone")

        page.set_input_files("input[name=archive]", str(archive))
        page.fill("input[name=key]", backup_key.lower())
        page.click("button:has-text('Check and restore')")
        page.wait_for_url("**/sign-in*", timeout=60000)  # checked, swapped at the start, then nobody is new
        assert server_b.poll() is None  # the same process, started again in place
        page.fill("input[name=email]", "olga@sol.test")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.goto(f"{base_b}/inbox")
        page.wait_for_selector("text=¿Tienen pan de masa madre?", timeout=15000)

        conversations = requests.get(f"{base_b}/organizations/{org_id}/conversations", headers={"X-Api-Key": key},
                                     timeout=10)
        assert conversations.status_code == 200 and len(conversations.json()["data"]["items"]) == 1
        _customer_writes(base_b, number, "¿Y abren el domingo?")  # the WhatsApp number receives on the new machine
        eventually(lambda: page.locator("text=¿Y abren el domingo?").count() > 0, seconds=15)
        statuses = requests.get(f"{base_b}/installation/backups", headers={"X-Api-Key": key}, timeout=10)
        assert statuses.status_code == 403  # an organization's key is not the installation's administrator
    finally:
        server_b.terminate()
        server_b.wait(timeout=30)
