using System;
using System.Text.Json;

// Console.WriteLine("in a comment");
class Program
{
    const string Verbatim = @"Console.WriteLine(""in a verbatim string"")";

    static void Send(object message)
    {
        Console.WriteLine(JsonSerializer.Serialize(message));
    }

    static void Main()
    {
        Console.Error.WriteLine("diagnostics");
        Console.WriteLine("starting"); // expect: csharp-console-write
        Console.Out.Flush(); // expect: csharp-console-write
        var s = $"Console.Write({Verbatim.Length})";
        Console.Error.WriteLine(s);
    }
}
