// Example: a sign-in panel (IMGUI, no UI package needed) on com.slotgate.login. Standalone and editor
// builds sign in through the system browser (native loopback login), the "code" button shows the device
// login's code for consoles, WebGL builds use the popup. The JWT goes to your game backend, which turns
// it into slot info with @slotgate/backend-sdk (see examples/game-backend); no client secret is in the game.
#if UNITY_5_3_OR_NEWER
using Slotgate;
using UnityEngine;

public class SlotgateLoginPanel : MonoBehaviour
{
    // Standalone, editor and console builds: a public client (no secret) registered with http://127.0.0.1/callback.
    public string ClientId = "my-game";
    public string RedirectUri = "http://127.0.0.1/callback";
    // WebGL builds: a web client registered with a page of the game's origin (a public client redirects to loopback only).
    public string WebGLClientId = "my-game-web";
    public string WebGLRedirectUri = "https://game.example/slotgate-callback.html";
    public string SlotgateUrl = SlotgateLogin.DefaultSlotgateUrl;

    string status = "Not signed in.";
    bool busy;

    void OnGUI()
    {
        GUILayout.Label(status);
        if (busy) return;
        if (GUILayout.Button("Sign in with Slotgate")) SignInWithBrowser();
#if !UNITY_WEBGL || UNITY_EDITOR
        if (GUILayout.Button("Sign in with a code (console)")) SignInWithCode();
#endif
    }

    void SignInWithBrowser()
    {
#if UNITY_WEBGL && !UNITY_EDITOR
        // From the click: browsers open popups only right after a user gesture.
        busy = true;
        SlotgateWebGL.Login(new SlotgateWebGLConfig { ClientId = WebGLClientId, RedirectUri = WebGLRedirectUri, SlotgateUrl = SlotgateUrl }, gameObject.name, nameof(OnSlotgateLogin));
#else
        Run(SlotgateLogin.LoginAsync(new SlotgateLoginConfig { ClientId = ClientId, RedirectUri = RedirectUri, SlotgateUrl = SlotgateUrl }));
#endif
    }

#if !UNITY_WEBGL || UNITY_EDITOR
    void SignInWithCode()
    {
        Run(SlotgateLogin.LoginWithDeviceCodeAsync(new SlotgateDeviceLoginConfig { ClientId = ClientId, SlotgateUrl = SlotgateUrl },
            prompt => status = "On your phone, open " + prompt.VerificationUri + " and enter " + prompt.UserCode));
    }

    async void Run(System.Threading.Tasks.Task<SlotgateLoginResult> login)
    {
        busy = true;
        Show(await login);
    }
#endif

    /// <summary>The WebGL plugin's answer.</summary>
    public void OnSlotgateLogin(string json)
    {
#if UNITY_WEBGL && !UNITY_EDITOR
        Show(SlotgateWebGL.ParseResult(json));
#endif
    }

    void Show(SlotgateLoginResult result)
    {
        busy = false;
        // A real game posts result.Jwt to its backend here.
        status = result.Success ? "Signed in." : "Sign-in failed (" + result.ErrorCode + "): " + result.ErrorMessage;
    }
}
#endif
