// The few UnityEngine members the package's Unity-only files and the example use, so mcs can type-check
// those files (with UNITY_5_3_OR_NEWER and UNITY_WEBGL defined) where Unity is not installed. Signatures
// only; nothing here runs. A name or signature the real UnityEngine lacks would still slip through.
namespace UnityEngine
{
    public class Object { public string name; }
    public class GameObject : Object { }
    public class Component : Object { public GameObject gameObject { get { return null; } } }
    public class Behaviour : Component { public bool enabled; }
    public class MonoBehaviour : Behaviour { }
    public static class Application
    {
        public static void OpenURL(string url) { }
    }
    public static class Debug
    {
        public static void Log(object message) { }
        public static void LogWarning(object message) { }
    }
    public static class GUILayout
    {
        public static void Label(string text) { }
        public static bool Button(string text) { return false; }
    }
    public static class JsonUtility
    {
        public static string ToJson(object obj) { return null; }
        public static T FromJson<T>(string json) { return default(T); }
    }
}
