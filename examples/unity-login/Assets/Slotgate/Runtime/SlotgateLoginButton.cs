// A MonoBehaviour for a "Sign in" button: WebGL builds use the popup (jslib), standalone and editor
// builds the single-executable slotgate-login from StreamingAssets. Unity-only; not compiled in CI.
#if UNITY_5_3_OR_NEWER
using System.IO;
using UnityEngine;

namespace Slotgate
{
    public class SlotgateLoginButton : MonoBehaviour
    {
        public string ClientId = "my-game";
        public string RedirectUri = "http://127.0.0.1:53682/callback";
        public string WebGLRedirectUri = "https://game.example/slotgate-callback.html";
        public string SlotgateUrl = "https://auth.slotgate.io";

        /// <summary>Wire this to the button's OnClick.</summary>
        public async void SignIn()
        {
#if UNITY_WEBGL && !UNITY_EDITOR
            SlotgateWebGL.Login(new SlotgateWebGLConfig { ClientId = ClientId, RedirectUri = WebGLRedirectUri, SlotgateUrl = SlotgateUrl }, gameObject.name, nameof(OnSlotgateLogin));
#else
            var result = await SlotgateLogin.LoginAsync(ExecutablePath(), new SlotgateLoginConfig { ClientId = ClientId, RedirectUri = RedirectUri, SlotgateUrl = SlotgateUrl });
            OnSlotgateLogin(JsonUtility.ToJson(result));
#endif
        }

        /// <summary>Receives { Success, Jwt, ErrorMessage } as JSON.</summary>
        public void OnSlotgateLogin(string json)
        {
            var result = JsonUtility.FromJson<SlotgateLoginResult>(json);
            if (result.Success) Debug.Log("Signed in; send the JWT to the game backend.");
            else Debug.LogWarning("Sign-in failed: " + result.ErrorMessage);
        }

        static string ExecutablePath()
        {
            var folder = Path.Combine(Application.streamingAssetsPath, "slotgate-login");
            switch (Application.platform)
            {
                case RuntimePlatform.WindowsPlayer:
                case RuntimePlatform.WindowsEditor:
                    return Path.Combine(folder, "slotgate-login-win-x64.exe");
                case RuntimePlatform.OSXPlayer:
                case RuntimePlatform.OSXEditor:
                    return Path.Combine(folder, "slotgate-login-darwin-x64");
                default:
                    return Path.Combine(folder, "slotgate-login-linux-x64");
            }
        }
    }
}
#endif
