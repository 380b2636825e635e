// Unity WebGL builds (spec 4.14: popup and postMessage, the browser protocol): the jslib plugin
// Assets/Plugins/WebGL/SlotgateLogin.jslib calls the client SDK's script-tag build and answers
// { Success, Jwt, ErrorMessage } as JSON through SendMessage(gameObject, callbackMethod, json).
#if UNITY_WEBGL && !UNITY_EDITOR
using System.Runtime.InteropServices;

namespace Slotgate
{
    public static class SlotgateWebGL
    {
        [DllImport("__Internal")]
        static extern void SlotgateLogin(string configJson, string gameObjectName, string callbackMethod);

        /// <summary>
        /// Opens the Slotgate popup. Call it from a UI click handler (the browser allows popups only
        /// shortly after a user gesture). The answer arrives as JSON in gameObjectName.callbackMethod(string).
        /// Put &lt;script src="slotgate.iife.js"&gt; (from @slotgate/client-sdk) in your WebGL template.
        /// </summary>
        public static void Login(SlotgateWebGLConfig config, string gameObjectName, string callbackMethod)
        {
            SlotgateLogin(UnityEngine.JsonUtility.ToJson(config), gameObjectName, callbackMethod);
        }
    }

    /// <summary>Config of the WebGL login: RedirectUri is a page of your game's origin registered for the client.</summary>
    [System.Serializable]
    public class SlotgateWebGLConfig
    {
        public string ClientId;
        public string RedirectUri;
        public string SlotgateUrl = "https://auth.slotgate.io";
        public int TimeoutMs;
    }
}
#endif
