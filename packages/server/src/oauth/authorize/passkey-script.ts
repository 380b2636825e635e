/**
 * The browser side of passkeys, inline in the authorize pages (nothing in the client SDK): base64url
 * <-> ArrayBuffer and the two WebAuthn calls. It only calls this origin (`connect-src 'self'`).
 */
const CODEC = `
  var dec = function (s) { s = s.replace(/-/g, "+").replace(/_/g, "/"); while (s.length % 4) s += "="; var b = atob(s), a = new Uint8Array(b.length); for (var i = 0; i < b.length; i++) a[i] = b.charCodeAt(i); return a.buffer; };
  var enc = function (buf) { var a = new Uint8Array(buf), s = ""; for (var i = 0; i < a.length; i++) s += String.fromCharCode(a[i]); return btoa(s).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, ""); };
  var fail = function () { var p = document.getElementById("passkey-error"); if (p) p.textContent = p.getAttribute("data-failed") || "The passkey did not work; use another way to sign in."; };
  var unsupported = function (button) { button.disabled = true; button.textContent = button.getAttribute("data-unsupported") || "This browser has no passkey support"; };`;

/** "Sign in with a passkey": asks this server for a challenge, lets the browser sign it, posts the result. */
export const PASSKEY_SIGN_IN_SCRIPT = `(function () {${CODEC}
  var button = document.getElementById("passkey-sign-in");
  if (!button) return;
  if (!window.PublicKeyCredential || !navigator.credentials) { unsupported(button); return; }
  button.addEventListener("click", function () {
    var form = document.getElementById("passkey-form");
    fetch("/oauth/authorize/passkey", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" }, body: new URLSearchParams(new FormData(form)) })
      .then(function (r) { return r.json(); })
      .then(function (j) {
        if (!j.success) throw new Error(j.message);
        var o = j.options;
        return navigator.credentials.get({ publicKey: { challenge: dec(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification, allowCredentials: [] } }).then(function (c) {
          var r = c.response;
          document.getElementById("passkey_flow").value = j.flow;
          document.getElementById("passkey_response").value = JSON.stringify({ id: c.id, rawId: enc(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(),
            response: { clientDataJSON: enc(r.clientDataJSON), authenticatorData: enc(r.authenticatorData), signature: enc(r.signature), userHandle: r.userHandle ? enc(r.userHandle) : undefined } });
          form.submit();
        });
      })
      .catch(fail);
  });
})();`;

/** "Create a passkey": runs `navigator.credentials.create` with the options embedded in the page and posts the result. */
export const PASSKEY_REGISTER_SCRIPT = `(function () {${CODEC}
  var button = document.getElementById("passkey-create");
  var o = JSON.parse(document.getElementById("passkey-options").textContent);
  if (!window.PublicKeyCredential || !navigator.credentials) { unsupported(button); return; }
  button.addEventListener("click", function () {
    navigator.credentials.create({ publicKey: { challenge: dec(o.challenge), rp: o.rp, user: { id: dec(o.user.id), name: o.user.name, displayName: o.user.displayName },
      pubKeyCredParams: o.pubKeyCredParams, timeout: o.timeout, attestation: o.attestation, authenticatorSelection: o.authenticatorSelection,
      excludeCredentials: (o.excludeCredentials || []).map(function (x) { return { id: dec(x.id), type: "public-key", transports: x.transports }; }) } })
      .then(function (c) {
        var r = c.response;
        document.getElementById("passkey_registration").value = JSON.stringify({ id: c.id, rawId: enc(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(),
          response: { clientDataJSON: enc(r.clientDataJSON), attestationObject: enc(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] } });
        document.getElementById("passkey-register-form").submit();
      })
      .catch(fail);
  });
})();`;
