import kotlinx.serialization.json.Json

/* println("block /* nested */ comment") */
val template = "println(\"in a string\") ${1 + 1}"

fun send(message: Message) {
    println(Json.encodeToString(message))
}

fun main() {
    System.err.println("diagnostics")
    println("server starting") // expect: kotlin-println
    System.out.print("x") // expect: kotlin-system-out
    val raw = """
        println("in a raw string")
    """
    logger.print("a method named print is not the top-level println")
}
