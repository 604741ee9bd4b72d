// Passkeys in the browser: "Sign in with a passkey" (and the passkeys the email field offers, conditional
// mediation) on the sign-in page, "Add a passkey" on My account. The server makes the options and checks
// the answers (appliance/auth/passkeys.py); this script turns their base64url into bytes and back, asks
// the browser, and posts the answer with the form it belongs to, as a form without script would post.
(function () {
  "use strict";

  const supported = Boolean(window.PublicKeyCredential && navigator.credentials);
  let autofill = null; // the pending conditional request, aborted when the button is pressed

  function bytes(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  }

  function base64url(buffer) {
    let binary = "";
    new Uint8Array(buffer).forEach((byte) => { binary += String.fromCharCode(byte); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function withIds(descriptors) {
    return (descriptors || []).map((descriptor) => Object.assign({}, descriptor, { id: bytes(descriptor.id) }));
  }

  function creationOptions(options) {
    return Object.assign({}, options, {
      challenge: bytes(options.challenge),
      user: Object.assign({}, options.user, { id: bytes(options.user.id) }),
      excludeCredentials: withIds(options.excludeCredentials),
    });
  }

  function requestOptions(options) {
    return Object.assign({}, options, {
      challenge: bytes(options.challenge), allowCredentials: withIds(options.allowCredentials),
    });
  }

  // The credential as JSON (what PublicKeyCredential.toJSON() gives where browsers have it).
  function asJSON(credential) {
    const response = credential.response;
    const json = {
      id: credential.id, rawId: base64url(credential.rawId), type: credential.type,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response: { clientDataJSON: base64url(response.clientDataJSON) },
    };
    if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
    if (response.attestationObject) {
      json.response.attestationObject = base64url(response.attestationObject);
      if (response.getTransports) json.response.transports = response.getTransports();
    } else {
      json.response.authenticatorData = base64url(response.authenticatorData);
      json.response.signature = base64url(response.signature);
      if (response.userHandle) json.response.userHandle = base64url(response.userHandle);
    }
    return JSON.stringify(json);
  }

  async function fetchOptions(form) {
    const answer = await fetch(form.dataset.options, {
      method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
      body: new URLSearchParams({ csrf: form.elements.csrf.value }),
    });
    if (!answer.ok) throw new Error("passkey options: " + answer.status);
    return (await answer.json()).publicKey;
  }

  function say(form, message) {
    const where = form.closest("[data-passkey-box]").querySelector("[data-passkey-error]");
    where.textContent = message || "";
    where.hidden = !message;
  }

  function failure(form, error) {
    if (error && (error.name === "NotAllowedError" || error.name === "AbortError")) return form.dataset.cancelled;
    if (error && error.name === "InvalidStateError") return form.dataset.exists;
    return form.dataset.failed;
  }

  function post(form, credential) {
    form.elements.credential.value = asJSON(credential);
    form.submit();
  }

  function signIn(form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      say(form, "");
      if (autofill) autofill.abort();
      try {
        const publicKey = requestOptions(await fetchOptions(form));
        post(form, await navigator.credentials.get({ publicKey }));
      } catch (error) {
        say(form, failure(form, error));
      }
    });
  }

  // The email field lists the browser's passkeys for this site as it would saved passwords.
  async function offerInTheEmailField(form) {
    const field = document.querySelector('input[autocomplete~="webauthn"]');
    if (!field || !PublicKeyCredential.isConditionalMediationAvailable) return;
    if (!(await PublicKeyCredential.isConditionalMediationAvailable())) return;
    const controller = new AbortController();
    autofill = controller;
    try {
      const publicKey = requestOptions(await fetchOptions(form));
      post(form, await navigator.credentials.get({ publicKey, mediation: "conditional", signal: controller.signal }));
    } catch (error) {
      // Aborted for the button, or the page left: nothing to say.
    } finally {
      if (autofill === controller) autofill = null;
    }
  }

  function register(form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      say(form, "");
      if (!form.reportValidity()) return;
      try {
        const publicKey = creationOptions(await fetchOptions(form));
        post(form, await navigator.credentials.create({ publicKey }));
      } catch (error) {
        say(form, failure(form, error));
      }
    });
  }

  document.querySelectorAll("[data-passkey-box]").forEach((box) => {
    if (!supported) {
      const note = box.parentElement.querySelector("[data-passkey-unsupported]");
      if (note) note.hidden = false;
      return;
    }
    box.hidden = false;
    const signInForm = box.querySelector("[data-passkey-sign-in]");
    if (signInForm) {
      signIn(signInForm);
      offerInTheEmailField(signInForm);
    }
    const registerForm = box.querySelector("[data-passkey-register]");
    if (registerForm) register(registerForm);
  });
})();
