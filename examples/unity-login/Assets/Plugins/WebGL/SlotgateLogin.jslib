// Unity WebGL plugin: the Slotgate popup login through the client SDK's script-tag build
// (<script src="slotgate.iife.js"> from @slotgate/client-sdk in the WebGL template), answering
// { Success, Jwt, ErrorMessage } as JSON to gameObjectName.callbackMethod via SendMessage.
mergeInto(LibraryManager.library, {
  SlotgateLogin: function (configJson, gameObjectName, callbackMethod) {
    var target = UTF8ToString(gameObjectName);
    var method = UTF8ToString(callbackMethod);
    var send = typeof SendMessage === "function" ? SendMessage : Module.SendMessage;
    function reply(success, jwt, message) {
      send(target, method, JSON.stringify({ Success: success, Jwt: jwt, ErrorMessage: message }));
    }
    var config;
    try {
      config = JSON.parse(UTF8ToString(configJson));
    } catch (e) {
      reply(false, null, "The Slotgate config is not valid JSON.");
      return;
    }
    var sdk = typeof window !== "undefined" ? window.Slotgate : undefined;
    if (!sdk || typeof sdk.Slotgate !== "function") {
      reply(false, null, 'The Slotgate script-tag build is not on the page: add <script src="slotgate.iife.js"> (from @slotgate/client-sdk) to the WebGL template.');
      return;
    }
    var client;
    try {
      client = new sdk.Slotgate({ slotgateUrl: config.SlotgateUrl || "https://auth.slotgate.io", clientId: config.ClientId, redirectUri: config.RedirectUri });
    } catch (e) {
      reply(false, null, String((e && e.message) || e));
      return;
    }
    client.login(config.TimeoutMs > 0 ? { timeout: config.TimeoutMs } : {}).then(
      function (result) {
        reply(true, result.jwt, null);
      },
      function (e) {
        reply(false, null, String((e && e.message) || e));
      },
    );
  },
});
