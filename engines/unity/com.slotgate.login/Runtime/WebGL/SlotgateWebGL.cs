// Unity WebGL builds (spec 4.14: popup and postMessage, the browser protocol): the plugin
// Runtime/Plugins/WebGL/SlotgateLogin.jslib calls the client SDK's script-tag build and answers
// { Success, Jwt, ErrorMessage, ErrorCode } as JSON through SendMessage(gameObject, callbackMethod, json).
#if UNITY_WEBGL && !UNITY_EDITOR
using System.Runtime.InteropServices;

namespace Slotgate
{
    /// <summary>The login of WebGL builds: the Slotgate popup, through the client SDK on the page.</summary>
    public static class SlotgateWebGL
    {
        [DllImport("__Internal")]
        static extern void SlotgateLogin(string configJson, string gameObjectName, string callbackMethod);

        /// <summary>
        /// Opens the Slotgate popup. Call it from a UI click handler (the browser allows popups only
        /// shortly after a user gesture). The answer arrives as JSON in gameObjectName.callbackMethod(string);
        /// read it with <see cref="ParseResult"/>. Put &lt;script src="slotgate.iife.js"&gt; (from @slotgate/client-sdk)
        /// in your WebGL template.
        /// </summary>
        /// <example><code>
        /// SlotgateWebGL.Login(new SlotgateWebGLConfig { ClientId = "my-game", RedirectUri = "https://game.example/slotgate-callback.html" },
        ///     gameObject.name, nameof(OnSlotgateLogin));
        /// </code></example>
        public static void Login(SlotgateWebGLConfig config, string gameObjectName, string callbackMethod)
        {
            SlotgateLogin(UnityEngine.JsonUtility.ToJson(config), gameObjectName, callbackMethod);
        }

        /// <summary>The result the plugin sent to the callback.</summary>
        /// <example><code>public void OnSlotgateLogin(string json) { var result = SlotgateWebGL.ParseResult(json); }</code></example>
        public static SlotgateLoginResult ParseResult(string json)
        {
            return UnityEngine.JsonUtility.FromJson<SlotgateLoginResult>(json);
        }
    }

    /// <summary>Config of the WebGL login: RedirectUri is a page of your game's origin registered for the client.</summary>
    [System.Serializable]
    public class SlotgateWebGLConfig
    {
        public string ClientId;
        public string RedirectUri;
        public string SlotgateUrl = SlotgateLogin.DefaultSlotgateUrl;
        public int TimeoutMs;
    }
}
#endif
