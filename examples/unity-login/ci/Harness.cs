// CI harness (not part of the Unity project): runs SlotgateLogin against a real Slotgate server with the
// single-executable slotgate-login, under Mono, and prints one JSON line per event for the test to read.
//   mono Harness.exe login  <executable> <clientId> <redirectUri> <slotgateUrl>
//   mono Harness.exe device <executable> <clientId> <slotgateUrl>
using System;
using Slotgate;

static class Harness
{
    static string Json(string value)
    {
        return value == null ? "null" : "\"" + value.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\"";
    }

    static int Main(string[] args)
    {
        SlotgateLoginResult result;
        if (args.Length == 5 && args[0] == "login")
        {
            result = SlotgateLogin.LoginAsync(args[1], new SlotgateLoginConfig { ClientId = args[2], RedirectUri = args[3], SlotgateUrl = args[4] }).Result;
        }
        else if (args.Length == 4 && args[0] == "device")
        {
            result = SlotgateLogin.LoginWithDeviceCodeAsync(args[1], new SlotgateLoginConfig { ClientId = args[2], SlotgateUrl = args[3] }, prompt =>
            {
                Console.WriteLine("{\"prompt\":true,\"UserCode\":" + Json(prompt.UserCode) + ",\"VerificationUriComplete\":" + Json(prompt.VerificationUriComplete) + ",\"ExpiresIn\":" + prompt.ExpiresIn + "}");
                Console.Out.Flush();
            }).Result;
        }
        else
        {
            Console.Error.WriteLine("usage: Harness.exe login <exe> <clientId> <redirectUri> <url> | device <exe> <clientId> <url>");
            return 2;
        }
        Console.WriteLine("{\"Success\":" + (result.Success ? "true" : "false") + ",\"Jwt\":" + Json(result.Jwt) + ",\"ErrorMessage\":" + Json(result.ErrorMessage) + ",\"ErrorCode\":" + Json(result.ErrorCode) + "}");
        return result.Success ? 0 : 1;
    }
}
