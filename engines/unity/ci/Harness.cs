// CI harness (not part of the Unity package): runs the package's C# login under Mono against a real
// Slotgate server and prints one JSON line per event for the test to read.
//   mono Harness.exe login   '<SlotgateLoginConfig as JSON>' [open|throw] [cancelAfterMs]
//       open: prints {"open": url} and lets the test drive the browser; throw: the opener throws.
//   mono Harness.exe device  '<SlotgateDeviceLoginConfig as JSON>'
//   mono Harness.exe configs   (one SlotgateLoginConfig JSON per stdin line; one result line each)
//   mono Harness.exe codes     (one line per SlotgateLoginError: its name, its string code, the code parsed back)
using System;
using System.IO;
using System.Runtime.Serialization.Json;
using System.Text;
using System.Threading;
using Slotgate;

static class Harness
{
    static readonly object Gate = new object();

    static string Json(string value)
    {
        if (value == null) return "null";
        var text = new StringBuilder("\"");
        foreach (var c in value)
        {
            if (c == '"' || c == '\\') text.Append('\\').Append(c);
            else if (c < ' ') text.Append("\\u").Append(((int)c).ToString("x4"));
            else text.Append(c);
        }
        return text.Append('"').ToString();
    }

    static void Print(string line)
    {
        lock (Gate)
        {
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }
    }

    static T Parse<T>(string json)
    {
        using (var stream = new MemoryStream(Encoding.UTF8.GetBytes(json)))
            return (T)new DataContractJsonSerializer(typeof(T)).ReadObject(stream);
    }

    static void PrintResult(SlotgateLoginResult result)
    {
        Print("{\"Success\":" + (result.Success ? "true" : "false") + ",\"Jwt\":" + Json(result.Jwt) + ",\"ErrorMessage\":" + Json(result.ErrorMessage) +
            ",\"ErrorCode\":" + Json(result.ErrorCode) + ",\"Error\":" + Json(result.Error.ToString()) + "}");
    }

    static int Main(string[] args)
    {
        Console.OutputEncoding = new UTF8Encoding(false);
        SlotgateLoginResult result;
        if (args.Length >= 2 && args[0] == "login")
        {
            var config = Parse<SlotgateLoginConfig>(args[1]);
            var opener = args.Length >= 3 ? args[2] : "open";
            var cancel = new CancellationTokenSource();
            if (args.Length >= 4) cancel.CancelAfter(int.Parse(args[3]));
            Action<string> open = url => Print("{\"open\":" + Json(url) + "}");
            if (opener == "throw") open = url => { throw new InvalidOperationException("no browser here: " + url); };
            result = SlotgateLogin.LoginAsync(config, cancel.Token, open).Result;
        }
        else if (args.Length == 2 && args[0] == "device")
        {
            var config = Parse<SlotgateDeviceLoginConfig>(args[1]);
            result = SlotgateLogin.LoginWithDeviceCodeAsync(config, prompt =>
                Print("{\"prompt\":true,\"UserCode\":" + Json(prompt.UserCode) + ",\"VerificationUri\":" + Json(prompt.VerificationUri) +
                    ",\"VerificationUriComplete\":" + Json(prompt.VerificationUriComplete) + ",\"ExpiresIn\":" + prompt.ExpiresIn + "}")).Result;
        }
        else if (args.Length == 1 && args[0] == "configs")
        {
            string line;
            while ((line = Console.In.ReadLine()) != null)
            {
                if (line.Trim().Length == 0) continue;
                PrintResult(SlotgateLogin.LoginAsync(Parse<SlotgateLoginConfig>(line), CancellationToken.None, url => { throw new InvalidOperationException("a refused config must not open the browser"); }).Result);
            }
            return 0;
        }
        else if (args.Length == 1 && args[0] == "codes")
        {
            foreach (SlotgateLoginError error in Enum.GetValues(typeof(SlotgateLoginError)))
            {
                var code = SlotgateErrorCodes.Of(error);
                Print("{\"Error\":" + Json(error.ToString()) + ",\"ErrorCode\":" + Json(code) + ",\"Parsed\":" + Json(SlotgateErrorCodes.Parse(code).ToString()) + "}");
            }
            return 0;
        }
        else
        {
            Console.Error.WriteLine("usage: Harness.exe login '<config json>' [open|throw] [cancelAfterMs] | device '<config json>' | configs | codes");
            return 2;
        }
        PrintResult(result);
        return result.Success ? 0 : 1;
    }
}
