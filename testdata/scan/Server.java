import com.fasterxml.jackson.databind.ObjectMapper;

/** System.out.println("in a javadoc") */
public class Server {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String TEXT = """
        System.out.println("in a text block");
        """;

    static void send(Object message) throws Exception {
        System.out.println(MAPPER.writeValueAsString(message));
    }

    public static void main(String[] args) {
        System.err.println("diagnostics");
        System.out.println("starting"); // expect: java-system-out
        System.out.printf("%s%n", TEXT); // expect: java-system-out
        // System.out.println("commented out");
        char quote = '"';
        System.err.println(quote);
    }
}
