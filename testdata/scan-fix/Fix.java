public class Fix {
    // System.out.println("in a comment")
    public static void start(int port) {
        System.out.println("listening on " + port);
        System.out.print("ready");
        System.out.printf("%d%n", port);
        String s = "System.out.println(\"in a string\")";
    }
}
