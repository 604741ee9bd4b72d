"""Issue 45 in a real browser: Chromium on `https://appliance.test:<port>` (a name that is not
localhost, so only the certificate makes the page a secure origin) trusts the test CA's certificate
the appliance serves with APPLIANCE_TLS=files, and the inbox's service worker registers there; the
Go live page says what HTTPS serves. Screenshot for the docs."""

import base64
import hashlib

from cryptography import x509
from cryptography.hazmat.primitives import serialization

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, free_port, start_server
from tests.fixtures.tls import make_ca

NAME = "appliance.test"


def _spki_hash(chain_pem: bytes) -> str:
    leaf = x509.load_pem_x509_certificates(chain_pem)[0]
    spki = leaf.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def test_chromium_trusts_the_served_certificate_and_registers_the_service_worker(tmp_path, chromium, screenshot):
    ca = make_ca()
    chain, key = ca.leaf((NAME,))
    (tmp_path / "cert.pem").write_bytes(chain)
    (tmp_path / "key.pem").write_bytes(key)
    port, https_port = free_port(), free_port()
    base = f"https://{NAME}:{https_port}"
    server = start_server(tmp_path / "data", port, env={
        "APPLIANCE_TLS": "files", "APPLIANCE_TLS_CERT": str(tmp_path / "cert.pem"),
        "APPLIANCE_TLS_KEY": str(tmp_path / "key.pem"), "APPLIANCE_HTTPS_PORT": str(https_port),
        "APPLIANCE_BASE_URL": base, "APPLIANCE_SMTP_URL": ""})
    # A browser of its own: the name resolves to this machine, and the test CA's key is trusted (as a
    # company's own CA would be, installed on its computers).
    browser = chromium.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
        f"--host-resolver-rules=MAP {NAME} 127.0.0.1", f"--ignore-certificate-errors-spki-list={_spki_hash(chain)}"])
    try:
        page = browser.new_context(viewport={"width": 1366, "height": 860}).new_page()
        page.goto(f"http://{NAME}:{port}/health/live")  # plain HTTP still answers monitors
        page.goto(base + "/")
        page.wait_for_url("**/setup")
        assert page.evaluate("window.isSecureContext") is True
        page.fill("input[name=name]", "Olga")
        page.fill("input[name=email]", "olga@sol.test")
        page.fill("input[name=password]", "correct horse battery 9")
        page.fill("input[name=org_name]", "Panadería Sol")
        page.select_option("select[name=country]", "CO")
        page.fill("input[name=timezone]", "America/Bogota")
        page.click("button[type=submit]")
        page.wait_for_url("**/whatsapp?welcome=1")
        org_id = page.url.split("/console/")[1].split("/")[0]

        page.goto(f"{base}/inbox/{org_id}")
        page.wait_for_selector("#push-switch:not([hidden]) [data-push]")  # offered: a secure origin
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope.startswith(f"{base}/inbox/")

        page.goto(f"{base}/console/go-live")
        page.wait_for_selector("text=Serving a certificate for appliance.test")
        screenshot(page, "console-go-live-https")
    finally:
        browser.close()
        server.terminate()
        server.wait(30)
