import { BRAND } from "@slotgate/protocol";
import { PAGE_STYLE } from "../http/html.js";

/**
 * The developer-center page: sign in or sign up, list client applications, register one (the
 * secret is shown once), manage one (edit, rotate the secret, disable, delete, its deliveries and audit list),
 * and on the embedded default the development mailbox (players' codes). It only calls the JSON API with
 * the developer token as `Authorization: Bearer` (kept in sessionStorage, never a cookie: no ambient
 * credential, so no cross-site request can act for the developer).
 */
export function renderDeveloperCenter(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${BRAND.name} developer center</title>
<style nonce="${nonce}">${PAGE_STYLE} body{max-width:52rem} .scroll{overflow-x:auto;position:relative} table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;font-size:.9rem;vertical-align:top} textarea{width:100%;box-sizing:border-box} .hidden{display:none} .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap} code{word-break:break-all} td{overflow-wrap:break-word} td button{white-space:nowrap;margin:0} #notice,#error{position:sticky;bottom:0;background:#fff;margin:0;padding:.25rem 0} button:focus-visible,input:focus-visible,textarea:focus-visible,select:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px} .danger{color:#b00020} fieldset{border:1px solid #ddd;margin:1rem 0;padding:.5rem 1rem;min-width:0} @media (max-width:40rem){body{margin:1rem auto} td,th{font-size:.8rem}}</style></head>
<body>
<h1>${BRAND.name} developer center</h1>
<section id="auth">
  <h2>Sign in</h2>
  <form id="auth-form">
    <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
    <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" minlength="8" required>
    <button type="submit" name="action" value="login">Sign in</button>
    <button type="submit" name="action" value="signup">Create account</button>
  </form>
</section>
<section id="center" class="hidden">
  <p><button id="logout" type="button">Sign out</button></p>
  <h2>Your client applications</h2>
  <div class="scroll"><table><thead><tr><th>Name</th><th>client_id</th><th>Redirect URIs</th><th>Platform</th><th>Blockchain</th><th>Grants</th><th>State</th><th><span class="sr-only">Actions</span></th></tr></thead><tbody id="clients"></tbody></table></div>
  <section id="manage" class="hidden" aria-labelledby="manage-title">
    <h2 id="manage-title" tabindex="-1">Manage <span id="m-name"></span></h2>
    <p class="muted">client_id: <code id="m-id"></code> · <span id="m-state"></span></p>
    <form id="edit-form">
      <fieldset><legend>Settings</legend>
      <label for="e-name">Name</label><input id="e-name" name="name" required maxlength="100">
      <label for="e-redirect_uris">Redirect URIs, one per line (exact match)</label>
      <textarea id="e-redirect_uris" name="redirect_uris" rows="3" required></textarea>
      <label for="e-download_url">Download URL</label><input id="e-download_url" name="download_url" type="url" required>
      <label for="e-web_url">Web application URL</label><input id="e-web_url" name="web_url" type="url" required>
      <button type="submit" id="save">Save changes</button></fieldset>
    </form>
    <fieldset><legend>Client secret</legend>
      <p class="muted" id="m-overlap"></p>
      <button type="button" id="rotate">Rotate secret</button>
      <div id="rotated" class="hidden" role="status"><p>New client_secret (shown only once): <code id="rotated-secret"></code></p></div>
    </fieldset>
    <fieldset id="provider" class="hidden"><legend>Content tokens (provider side)</legend>
      <p class="muted" id="p-state"></p>
      <button type="button" id="p-replay">Turn spend replay protection on</button>
      <div class="scroll"><table><thead><tr><th>cuid</th><th>release_per</th><th>Release enabled</th><th>Owner address</th></tr></thead><tbody id="cuids"></tbody></table></div>
      <form id="cuid-form">
        <label for="p-cuid">cuid</label><input id="p-cuid" name="cuid" required maxlength="64">
        <label for="p-release_per">release_per (share of used balances you may release)</label><input id="p-release_per" name="release_per" type="number" required min="0" step="1">
        <label for="p-owner_addr">Owner address (0x…)</label><input id="p-owner_addr" name="owner_addr" required pattern="0x[0-9a-fA-F]{40}">
        <button type="submit">Register cuid</button>
      </form>
      <button type="button" id="p-rotate">Rotate AES key and IV</button>
      <div id="p-key" class="hidden" role="status"><p>Copy or download the key now — it is shown only once.</p><p>aes_key: <code id="p-aes-key"></code></p><p>aes_iv: <code id="p-aes-iv"></code></p><p><a id="p-download" download="slotgate-provider-key.json" href="#">Download the key file</a></p></div>
    </fieldset>
    <fieldset><legend>Deliveries</legend>
      <p class="muted">Authorize callbacks and marketplace webhooks sent for this application, newest first. <button type="button" id="deliveries-refresh">Refresh</button></p>
      <div class="scroll"><table><thead><tr><th>Kind</th><th>Target</th><th>Status</th><th>Attempts</th><th>Last error</th><th>Next retry</th><th><span class="sr-only">Actions</span></th></tr></thead><tbody id="deliveries"></tbody></table></div>
    </fieldset>
    <fieldset><legend>Switch off</legend>
      <p class="muted">Disabling stops sign-ins and client authentication and revokes every token issued so far; enabling again lets new sign-ins in. Deleting is final.</p>
      <button type="button" id="toggle-disabled">Disable</button>
      <button type="button" id="delete" class="danger">Delete application</button>
    </fieldset>
    <fieldset><legend>Audit list</legend>
      <div class="scroll"><table><thead><tr><th>When</th><th>Who</th><th>What</th></tr></thead><tbody id="audit"></tbody></table></div>
    </fieldset>
  </section>
  <h2>Register a client application</h2>
  <form id="client-form">
    <label for="name">Name</label><input id="name" name="name" required maxlength="100">
    <label for="redirect_uris">Redirect URIs, one per line (exact match; game clients: http://127.0.0.1:{port}/callback)</label>
    <textarea id="redirect_uris" name="redirect_uris" rows="3" required></textarea>
    <label for="download_url">Download URL</label><input id="download_url" name="download_url" type="url" required>
    <label for="web_url">Web application URL</label><input id="web_url" name="web_url" type="url" required>
    <label for="platform">Platform</label><select id="platform" name="platform"><option>web</option><option>desktop</option><option>game</option></select>
    <label><input type="checkbox" id="blockchain" name="blockchain"> Content requires blockchain authorization</label>
    <label><input type="checkbox" id="grant_refresh" name="grant_types" value="refresh_token"> Refresh tokens for your backend (server-side refresh)</label>
    <label><input type="checkbox" id="grant_device" name="grant_types" value="urn:ietf:params:oauth:grant-type:device_code"> Device login for consoles and TVs (enter a code on another device)</label>
    <button type="submit">Register</button>
  </form>
  <section id="mailbox" class="hidden">
    <h2>Development mailbox</h2>
    <p class="error" id="mailbox-warning"></p>
    <p class="muted">Players' sign-up, link and recovery codes, newest last. <button id="mailbox-refresh" type="button">Refresh</button></p>
    <table><thead><tr><th>Sent</th><th>To</th><th>Subject</th><th>Message</th></tr></thead><tbody id="mails"></tbody></table>
  </section>
  <div id="secret" class="hidden"><h3>Copy the secret now — it is shown only once</h3><p>client_id: <code id="new-id"></code></p><p>client_secret: <code id="new-secret"></code></p></div>
</section>
<p class="muted" id="notice" role="status"></p>
<p class="error" id="error" role="alert"></p>
<script nonce="${nonce}">
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var token = sessionStorage.getItem("slotgate_dev_token");
  function show() { $("auth").classList.toggle("hidden", !!token); $("center").classList.toggle("hidden", !token); if (token) load(); }
  function api(method, path, body) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) { if (r.status === 401 && token) { token = null; sessionStorage.removeItem("slotgate_dev_token"); show(); } throw new Error(j.error + ": " + j.message); } return j; });
    });
  }
  function fail(e) { $("error").textContent = e.message; }
  function cell(tr, text) { var td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }
  function loadMail() {
    fetch("/v1/dev-user/mailbox", { headers: { Authorization: "Bearer " + token } }).then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
      $("mailbox").classList.toggle("hidden", !j);
      if (!j) return;
      $("mailbox-warning").textContent = j.warning;
      var tbody = $("mails"); tbody.textContent = "";
      j.messages.forEach(function (m) { var tr = document.createElement("tr"); cell(tr, m.date); cell(tr, m.to); cell(tr, m.subject); cell(tr, m.text); tbody.appendChild(tr); });
    }).catch(fail);
  }
  var current = null;
  function say(text) { $("notice").textContent = text; $("error").textContent = ""; }
  function button(tr, label, aria, onClick) { var td = document.createElement("td"); var b = document.createElement("button"); b.type = "button"; b.textContent = label; b.setAttribute("aria-label", aria); b.addEventListener("click", onClick); td.appendChild(b); tr.appendChild(td); return b; }
  function base(c) { return "/v1/dev-user/clients/" + encodeURIComponent(c.client_id); }
  function load() {
    loadMail();
    api("GET", "/v1/dev-user/clients").then(function (j) {
      var tbody = $("clients"); tbody.textContent = "";
      j.clients.forEach(function (c) {
        var tr = document.createElement("tr"); tr.dataset.clientId = c.client_id;
        cell(tr, c.name); cell(tr, c.client_id); cell(tr, c.redirect_uris.join(" ")); cell(tr, c.platform); cell(tr, c.blockchain ? "yes" : "no"); cell(tr, (c.grant_types || []).join(" ")); cell(tr, c.disabled ? "disabled" : "active");
        button(tr, "Manage", "Manage " + c.name, function () { manage(c, true); });
        tbody.appendChild(tr);
        if (current && current.client_id === c.client_id) manage(c, false);
      });
      if (current && !j.clients.some(function (c) { return c.client_id === current.client_id; })) { current = null; $("manage").classList.add("hidden"); }
    }).catch(fail);
  }
  function manage(c, focus) {
    var changed = !current || current.client_id !== c.client_id;
    current = c;
    $("manage").classList.remove("hidden");
    $("m-name").textContent = c.name; $("m-id").textContent = c.client_id;
    $("m-state").textContent = c.disabled ? "disabled" : "active";
    $("toggle-disabled").textContent = c.disabled ? "Enable" : "Disable";
    $("m-overlap").textContent = c.previous_secret_valid_until ? "The previous secret still works until " + c.previous_secret_valid_until + "." : "Only the current secret works.";
    if (changed) {
      $("rotated").classList.add("hidden");
      $("e-name").value = c.name; $("e-redirect_uris").value = c.redirect_uris.join("\\n"); $("e-download_url").value = c.download_url; $("e-web_url").value = c.web_url;
    }
    if (changed) $("p-key").classList.add("hidden");
    loadDeliveries(); loadAudit(); loadProvider();
    if (focus) $("manage-title").focus();
  }
  var provider = null;
  function loadProvider() {
    if (!current || !current.blockchain) { $("provider").classList.add("hidden"); return; }
    $("provider").classList.remove("hidden");
    api("GET", base(current) + "/provider").then(function (p) {
      provider = p;
      $("p-state").textContent = (p.registered ? "AES key issued" + (p.key_rotated_at ? ", last rotated " + p.key_rotated_at : "") + (p.previous_key_valid_until ? "; the previous key still decrypts until " + p.previous_key_valid_until : "") : "No cuid registered yet: the first registration issues the AES key and IV.") + (p.registered ? "." : "") + " Spend replay protection: " + (p.replay_protection ? "on" : "off") + ".";
      $("p-replay").textContent = "Turn spend replay protection " + (p.replay_protection ? "off" : "on");
      $("p-replay").disabled = !p.registered; $("p-rotate").disabled = !p.registered;
      var tbody = $("cuids"); tbody.textContent = "";
      p.cuids.forEach(function (c) { var tr = document.createElement("tr"); tr.dataset.cuid = c.cuid; cell(tr, c.cuid); cell(tr, c.release_per === null ? "" : String(c.release_per)); cell(tr, c.release_enabled ? "yes" : "no"); cell(tr, c.owner_addr || ""); tbody.appendChild(tr); });
    }).catch(fail);
  }
  function showKey(j) {
    if (!j.aes_key) return;
    $("p-aes-key").textContent = j.aes_key; $("p-aes-iv").textContent = j.aes_iv;
    var file = JSON.stringify({ client_id: current.client_id, aes_key: j.aes_key, aes_iv: j.aes_iv }, null, 2);
    $("p-download").href = URL.createObjectURL(new Blob([file], { type: "application/json" }));
    $("p-key").classList.remove("hidden");
  }
  function loadAudit() {
    if (!current) return;
    api("GET", base(current) + "/audit").then(function (j) {
      var tbody = $("audit"); tbody.textContent = "";
      j.entries.forEach(function (e) { var tr = document.createElement("tr"); cell(tr, e.at); cell(tr, e.actor); cell(tr, e.action + " " + JSON.stringify(e.detail)); tbody.appendChild(tr); });
    }).catch(fail);
  }
  function loadDeliveries() {
    if (!current) return;
    var c = current;
    api("GET", base(c) + "/deliveries").then(function (j) {
      var tbody = $("deliveries"); tbody.textContent = "";
      j.deliveries.forEach(function (d) {
        var tr = document.createElement("tr"); tr.dataset.deliveryId = d.id; tr.dataset.status = d.status;
        cell(tr, d.kind); cell(tr, d.target || "(not configured)"); cell(tr, d.status); cell(tr, d.attempts + " of " + d.max_attempts); cell(tr, d.last_error || ""); cell(tr, d.next_attempt_at || "");
        if (d.status === "delivered") cell(tr, "");
        else button(tr, "Retry now", "Retry delivery " + d.id + " now", function () {
          api("POST", base(c) + "/deliveries/" + d.id + "/retry").then(function () { say("Delivery " + d.id + " is being retried."); setTimeout(loadDeliveries, 500); }).catch(fail);
        });
        tbody.appendChild(tr);
      });
    }).catch(fail);
  }
  $("edit-form").addEventListener("submit", function (ev) {
    ev.preventDefault(); if (!current) return;
    api("PATCH", base(current), { name: $("e-name").value, redirect_uris: $("e-redirect_uris").value.split(/\\s+/).filter(Boolean), download_url: $("e-download_url").value, web_url: $("e-web_url").value })
      .then(function (j) { current = null; manage(j, false); say("Saved."); load(); }).catch(fail);
  });
  $("rotate").addEventListener("click", function () {
    if (!current) return;
    api("POST", base(current) + "/secret").then(function (j) { $("rotated-secret").textContent = j.client_secret; $("rotated").classList.remove("hidden"); say("Secret rotated."); manage(j, false); }).catch(fail);
  });
  $("toggle-disabled").addEventListener("click", function () {
    if (!current) return;
    api("POST", base(current) + (current.disabled ? "/enable" : "/disable")).then(function (j) { say(j.disabled ? "Disabled." : "Enabled."); load(); }).catch(fail);
  });
  $("delete").addEventListener("click", function () {
    if (!current || !confirm("Delete " + current.name + "? Its users can no longer sign in and its tokens stop working. This cannot be undone.")) return;
    api("DELETE", base(current)).then(function () { say("Deleted."); current = null; $("manage").classList.add("hidden"); load(); }).catch(fail);
  });
  $("deliveries-refresh").addEventListener("click", loadDeliveries);
  $("cuid-form").addEventListener("submit", function (ev) {
    ev.preventDefault(); if (!current) return;
    api("POST", base(current) + "/provider/cuids", { cuid: $("p-cuid").value, release_per: Number($("p-release_per").value), owner_addr: $("p-owner_addr").value })
      .then(function (j) { say(j.write_id ? "The cuid registration is on its way (write " + j.write_id + "); refresh in a moment." : "cuid registered."); showKey(j); loadProvider(); loadAudit(); }).catch(fail);
  });
  $("p-replay").addEventListener("click", function () {
    if (!current || !provider) return;
    api("POST", base(current) + "/provider/replay_protection", { enabled: !provider.replay_protection }).then(function (p) { say("Spend replay protection " + (p.replay_protection ? "on." : "off.")); loadProvider(); loadAudit(); }).catch(fail);
  });
  $("p-rotate").addEventListener("click", function () {
    if (!current) return;
    api("POST", base(current) + "/provider/key").then(function (j) { say("AES key rotated."); showKey(j); loadProvider(); loadAudit(); }).catch(fail);
  });
  $("auth-form").addEventListener("submit", function (ev) {
    ev.preventDefault(); $("error").textContent = "";
    var path = ev.submitter && ev.submitter.value === "signup" ? "/v1/dev-user/signup" : "/v1/dev-user/login_devuser";
    api("POST", path, { email: $("email").value, password: $("password").value }).then(function (j) { token = j.token; sessionStorage.setItem("slotgate_dev_token", token); show(); }).catch(fail);
  });
  $("mailbox-refresh").addEventListener("click", loadMail);
  $("logout").addEventListener("click", function () { token = null; sessionStorage.removeItem("slotgate_dev_token"); show(); });
  $("client-form").addEventListener("submit", function (ev) {
    ev.preventDefault(); $("error").textContent = "";
    api("POST", "/v1/dev-user/clients", {
      name: $("name").value,
      redirect_uris: $("redirect_uris").value.split(/\\s+/).filter(Boolean),
      download_url: $("download_url").value, web_url: $("web_url").value,
      platform: $("platform").value, blockchain: $("blockchain").checked,
      grant_types: [$("grant_refresh"), $("grant_device")].filter(function (b) { return b.checked; }).map(function (b) { return b.value; })
    }).then(function (j) { $("new-id").textContent = j.client_id; $("new-secret").textContent = j.client_secret; $("secret").classList.remove("hidden"); load(); }).catch(fail);
  });
  show();
})();
</script>
</body></html>`;
}
