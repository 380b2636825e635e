// Unity WebGL plugin of com.slotgate.login: the Slotgate popup login through the client SDK's script-tag
// build (<script src="slotgate.iife.js"> from @slotgate/client-sdk in the WebGL template), answering
// { Success, Jwt, ErrorMessage, ErrorCode } as JSON to gameObjectName.callbackMethod via SendMessage.
// ErrorCode uses the codes of the standalone login (and the slotgate-login CLI).
mergeInto(LibraryManager.library, {
  SlotgateLogin: function (configJson, gameObjectName, callbackMethod) {
    var target = UTF8ToString(gameObjectName);
    var method = UTF8ToString(callbackMethod);
    var send = typeof SendMessage === "function" ? SendMessage : Module.SendMessage;
    function reply(success, jwt, message, code) {
      send(target, method, JSON.stringify({ Success: success, Jwt: jwt, ErrorMessage: message, ErrorCode: code }));
    }
    // The client SDK's SlotgateError codes, as the codes of the standalone login.
    function codeOf(e) {
      switch (e && e.code) {
        case "popup_blocked": return "browser_open_failed";
        case "popup_closed": return "cancelled";
        case "login_timeout": return "timeout";
        case "invalid_options": return "invalid_config";
        case "login_failed": return e.reason === "access_denied" ? "access_denied" : "authorization_error";
        default: return "internal_error";
      }
    }
    var config;
    try {
      config = JSON.parse(UTF8ToString(configJson));
    } catch (e) {
      reply(false, null, "The Slotgate config is not valid JSON.", "invalid_config");
      return;
    }
    var sdk = typeof window !== "undefined" ? window.Slotgate : undefined;
    if (!sdk || typeof sdk.Slotgate !== "function") {
      reply(false, null, 'The Slotgate script-tag build is not on the page: add <script src="slotgate.iife.js"> (from @slotgate/client-sdk) to the WebGL template.', "invalid_config");
      return;
    }
    var client;
    try {
      client = new sdk.Slotgate({ slotgateUrl: config.SlotgateUrl || "https://auth.slotgate.io", clientId: config.ClientId, redirectUri: config.RedirectUri });
    } catch (e) {
      reply(false, null, String((e && e.message) || e), codeOf(e));
      return;
    }
    client.login(config.TimeoutMs > 0 ? { timeout: config.TimeoutMs } : {}).then(
      function (result) {
        reply(true, result.jwt, null, null);
      },
      function (e) {
        reply(false, null, String((e && e.message) || e), codeOf(e));
      },
    );
  },
});
