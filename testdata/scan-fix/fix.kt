// println("in a comment")
fun start(port: Int) {
    println("listening on $port")
    System.out.println("ready")
    print("no newline")
}
