// Sample of com.slotgate.login: a MonoBehaviour for a "Sign in" button. Standalone and editor builds
// use the native loopback login (system browser, 127.0.0.1), consoles the device login, WebGL builds
// the popup. No helper process, no client secret: send the JWT to your game backend.
#if UNITY_5_3_OR_NEWER
using UnityEngine;

namespace Slotgate.Samples
{
    public class SlotgateLoginButton : MonoBehaviour
    {
        public string ClientId = "my-game";
        /// <summary>Registered loopback URI of the standalone and editor builds.</summary>
        public string RedirectUri = "http://127.0.0.1:53682/callback";
        /// <summary>Registered page of your game's origin for WebGL builds.</summary>
        public string WebGLRedirectUri = "https://game.example/slotgate-callback.html";
        public string SlotgateUrl = SlotgateLogin.DefaultSlotgateUrl;
        /// <summary>Use the device login (a code to enter on a phone) instead of the browser on this machine.</summary>
        public bool UseDeviceLogin;

        /// <summary>Wire this to the button's OnClick.</summary>
        public void SignIn()
        {
#if UNITY_WEBGL && !UNITY_EDITOR
            SlotgateWebGL.Login(new SlotgateWebGLConfig { ClientId = ClientId, RedirectUri = WebGLRedirectUri, SlotgateUrl = SlotgateUrl }, gameObject.name, nameof(OnSlotgateLogin));
#else
            SignInHere();
#endif
        }

#if !UNITY_WEBGL || UNITY_EDITOR
        async void SignInHere()
        {
            SlotgateLoginResult result;
            if (UseDeviceLogin)
                result = await SlotgateLogin.LoginWithDeviceCodeAsync(new SlotgateDeviceLoginConfig { ClientId = ClientId, SlotgateUrl = SlotgateUrl },
                    prompt => Debug.Log("Open " + prompt.VerificationUri + " and enter " + prompt.UserCode));
            else
                result = await SlotgateLogin.LoginAsync(new SlotgateLoginConfig { ClientId = ClientId, RedirectUri = RedirectUri, SlotgateUrl = SlotgateUrl });
            Report(result);
        }
#endif

        /// <summary>The WebGL plugin's answer: { Success, Jwt, ErrorMessage, ErrorCode } as JSON.</summary>
        public void OnSlotgateLogin(string json)
        {
            Report(JsonUtility.FromJson<SlotgateLoginResult>(json));
        }

        void Report(SlotgateLoginResult result)
        {
            if (result.Success) Debug.Log("Signed in; send the JWT to the game backend.");
            else Debug.LogWarning("Sign-in failed (" + result.ErrorCode + "): " + result.ErrorMessage);
        }
    }
}
#endif
