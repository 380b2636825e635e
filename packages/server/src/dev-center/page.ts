import { BRAND } from "@slotgate/protocol";
import { PAGE_STYLE } from "../http/html.js";

/**
 * The developer-center page: sign in or sign up, list client applications, register one (the
 * secret is shown once). It only calls the JSON API; the session token lives in sessionStorage.
 */
export function renderDeveloperCenter(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${BRAND.name} developer center</title>
<style nonce="${nonce}">${PAGE_STYLE} body{max-width:44rem} table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;font-size:.9rem} textarea{width:100%} .hidden{display:none} code{word-break:break-all}</style></head>
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
  <table><thead><tr><th>Name</th><th>client_id</th><th>Redirect URIs</th><th>Platform</th><th>Blockchain</th></tr></thead><tbody id="clients"></tbody></table>
  <h2>Register a client application</h2>
  <form id="client-form">
    <label for="name">Name</label><input id="name" name="name" required maxlength="100">
    <label for="redirect_uris">Redirect URIs, one per line (exact match; game clients: http://127.0.0.1:{port}/callback)</label>
    <textarea id="redirect_uris" name="redirect_uris" rows="3" required></textarea>
    <label for="download_url">Download URL</label><input id="download_url" name="download_url" type="url" required>
    <label for="web_url">Web application URL</label><input id="web_url" name="web_url" type="url" required>
    <label for="platform">Platform</label><select id="platform" name="platform"><option>web</option><option>desktop</option><option>game</option></select>
    <label><input type="checkbox" id="blockchain" name="blockchain"> Content requires blockchain authorization</label>
    <button type="submit">Register</button>
  </form>
  <div id="secret" class="hidden"><h3>Copy the secret now — it is shown only once</h3><p>client_id: <code id="new-id"></code></p><p>client_secret: <code id="new-secret"></code></p></div>
</section>
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
  function load() {
    api("GET", "/v1/dev-user/clients").then(function (j) {
      var tbody = $("clients"); tbody.textContent = "";
      j.clients.forEach(function (c) { var tr = document.createElement("tr"); cell(tr, c.name); cell(tr, c.client_id); cell(tr, c.redirect_uris.join(" ")); cell(tr, c.platform); cell(tr, c.blockchain ? "yes" : "no"); tbody.appendChild(tr); });
    }).catch(fail);
  }
  $("auth-form").addEventListener("submit", function (ev) {
    ev.preventDefault(); $("error").textContent = "";
    var path = ev.submitter && ev.submitter.value === "signup" ? "/v1/dev-user/signup" : "/v1/dev-user/login_devuser";
    api("POST", path, { email: $("email").value, password: $("password").value }).then(function (j) { token = j.token; sessionStorage.setItem("slotgate_dev_token", token); show(); }).catch(fail);
  });
  $("logout").addEventListener("click", function () { token = null; sessionStorage.removeItem("slotgate_dev_token"); show(); });
  $("client-form").addEventListener("submit", function (ev) {
    ev.preventDefault(); $("error").textContent = "";
    api("POST", "/v1/dev-user/clients", {
      name: $("name").value,
      redirect_uris: $("redirect_uris").value.split(/\\s+/).filter(Boolean),
      download_url: $("download_url").value, web_url: $("web_url").value,
      platform: $("platform").value, blockchain: $("blockchain").checked
    }).then(function (j) { $("new-id").textContent = j.client_id; $("new-secret").textContent = j.client_secret; $("secret").classList.remove("hidden"); load(); }).catch(fail);
  });
  show();
})();
</script>
</body></html>`;
}
