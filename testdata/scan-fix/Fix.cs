using System;

class Fix {
    // Console.WriteLine("in a comment")
    static void Start(int port) {
        Console.WriteLine("listening on {0}", port);
        Console.Write("ready");
        Console.Out.WriteLine("again");
    }
}
