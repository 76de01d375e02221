//! How to fix each issue code: one line per code, written to the server's
//! author (or, for a setting of the guard, to its user). The text report,
//! the report card, the step summary and SARIF's `help` all read this one
//! table; the match is exhaustive, so a new code cannot ship without its
//! fix. Pure.

use super::Code;

/// The fix of `code`.
pub fn fix(code: Code) -> &'static str {
    use Code::*;
    match code {
        SpawnFailed => {
            "install the program or give its full path; check it is executable and the working directory (--cwd) exists"
        }
        ServerExited => {
            "run the command by hand and read its stderr: a missing dependency, setting or argument usually ends it before initialize"
        }
        InitializeTimeout => {
            "answer initialize as soon as the process starts (load heavy things after it); a server that is slow to start needs --startup-timeout"
        }
        OperationTimeout => {
            "answer every request, with an error if need be; a slow tool needs a longer --timeout"
        }
        OperationMissingResponse => {
            "keep running until every request is answered; read stderr for the crash"
        }
        ServerCrashed => {
            "read the quoted stderr for the crash; a server exits only when its stdin closes"
        }
        ServerPrintedUsage => {
            "give the command the subcommand or arguments that start its stdio server (often `stdio` or `--stdio`)"
        }
        ShutdownError => {
            "exit with status 0 when stdin closes: catch the error in the close handler"
        }
        CapabilityListNeedsConfiguration => {
            "give the server the configuration it asks for (--env NAME=VALUE), or answer the list without it"
        }
        ServerExitedEarly => {
            "stay alive until stdin closes: a host sees an exit as a dead connection"
        }
        PythonBufferedStdio => {
            "run Python with -u, or set PYTHONUNBUFFERED=1 (pass it with --env), or flush stdout after each message"
        }
        StderrOutputLimitExceeded => "log less on stderr, or raise --max-stderr-bytes",
        ShutdownSignalRequired => {
            "exit when stdin reaches end of file: stop background threads and timers, close servers you opened"
        }
        OrphanedProcesses => {
            "stop the processes you start when you exit (kill them, or wait for them), and do not daemonize"
        }
        StdoutHeldOpen => {
            "do not pass your stdout to processes that outlive you: give children their own stdout"
        }
        StdoutNonJson => {
            "write only JSON-RPC messages to stdout: send banners, logs and prints to stderr"
        }
        StdoutEmptyLine => "write no empty lines to stdout: one message a line, nothing else",
        StdoutContentLengthFraming => {
            "frame each message as one line of JSON ending in \\n, without Content-Length headers (that is LSP framing)"
        }
        StdoutWithoutNewline => "end every message with \\n and flush",
        StdoutLineTooLarge => {
            "keep each message under --max-stdout-line-bytes (page large lists, shorten results), or raise the limit"
        }
        StdoutOutputLimitExceeded => "write less to stdout, or raise --max-stdout-bytes",
        StdoutMessageTooLarge => "send smaller messages: page large lists and results",
        StdoutMessageTooDeep => {
            "nest results less deeply: many clients refuse JSON deeper than their parser's limit"
        }
        StdoutInvalidUtf8 => {
            "encode stdout as UTF-8 (set the stream's encoding; on Windows the console code page is not UTF-8)"
        }
        StdoutLoneSurrogate => {
            "send whole characters: a string cut in the middle of a surrogate pair becomes a lone surrogate"
        }
        StdoutCrlfLineEnding => {
            "write \\n, not \\r\\n, after each message (open stdout in binary mode on Windows)"
        }
        StdoutInvalidJsonRpc => {
            "send JSON-RPC 2.0 messages only (jsonrpc \"2.0\", an id and a method or result): structured logs go to stderr"
        }
        StdoutUnexpectedRequestId => {
            "answer a request with a response (result or error), never by sending the request back"
        }
        ResponseIdMismatch => "answer with the id of the request you are answering",
        ResponseIdTypeMismatch => {
            "answer with the request's id as it came, of the same type (1 stays 1, not \"1\")"
        }
        NotificationResponse => "send no response to a notification (a message without id)",
        InitializeError => {
            "accept initialize with the protocol versions you support: answer your own version when the requested one is not among them"
        }
        OperationError => {
            "read the error: the request was valid, so answer it with a result, or check what the server needs"
        }
        InitializeInvalidResult => {
            "answer initialize with an object result: protocolVersion, capabilities and serverInfo"
        }
        InitializeMissingProtocolVersion => "put protocolVersion in the initialize result",
        InitializeInvalidProtocolVersion => {
            "answer the requested protocolVersion if you support it, else a released version you support"
        }
        InitializeMissingCapabilities => {
            "put a capabilities object in the initialize result ({} when you offer nothing)"
        }
        InitializeInvalidCapabilities => {
            "make capabilities an object of objects, with boolean flags (tools: {listChanged: true})"
        }
        InitializeMissingServerInfo => "put serverInfo {name, version} in the initialize result",
        InitializeInvalidServerInfo => "make serverInfo an object with string name and version",
        ResponseDuplicate => "answer each request once",
        ResponseIdNull => {
            "answer a parse error (-32700) or invalid request (-32600) with the id of the request when you can read it"
        }
        StdoutJsonRpcBatch => {
            "send each message on its own line: JSON-RPC batches exist only in protocol 2025-03-26"
        }
        ServerRequestIdReused => "give every request you send a fresh id",
        ServerRequestUndeclaredCapability => {
            "send roots, sampling or elicitation requests only when the client declared that capability"
        }
        ServerRequestBeforeInitialize => {
            "send no request (other than ping) before you answer initialize"
        }
        LoggingWithoutCapability => {
            "declare the logging capability before sending notifications/message, or log to stderr"
        }
        ProgressUnknownToken => {
            "send progress only for the progressToken a request carried, and only while it runs"
        }
        CapabilityListUnsupported => {
            "implement the list method of each capability you advertise, or stop advertising it"
        }
        CapabilityListError => {
            "answer the list method of each capability you advertise with a result (an empty list is fine)"
        }
        CapabilityListTimeout => {
            "answer the list methods you advertise promptly; build slow lists ahead, or page them"
        }
        CapabilityListMissingResponse => {
            "keep running while a list request waits; read stderr for the crash"
        }
        CapabilityListInvalidCursor => {
            "make nextCursor a string that moves forward, and leave it out on the last page"
        }
        CapabilityListInvalidResult => {
            "answer resources/list, resources/templates/list and prompts/list with an array of items"
        }
        ResourceTemplatesListUnsupported => {
            "implement resources/templates/list when you advertise resources (answer an empty list)"
        }
        ResourceInvalid => "give each resource a string uri and name",
        ResourceTemplateInvalid => "give each resource template a string uriTemplate and name",
        PromptInvalid => "give each prompt, and each of its arguments, a string name",
        ToolsListInvalidResult => "answer tools/list with {tools: [...]}, each tool an object",
        ToolNameDuplicate => "give every tool its own name",
        ToolNameInvalid => "name tools with 1 to 128 of A-Z a-z 0-9 _ - . only",
        ToolInputSchemaInvalid => {
            "give every tool an inputSchema of type \"object\" ({\"type\": \"object\"} for none), with well-formed properties and required"
        }
        ToolInputSchemaRequiredMissing => {
            "define every property that required names, or take it out of required"
        }
        ToolOutputSchemaInvalid => {
            "make outputSchema a JSON Schema object of type \"object\" that defines what it requires"
        }
        ToolCallInvalidResult => {
            "answer tools/call with {content: [...]} and, when set, a boolean isError"
        }
        ToolCallError => {
            "read the tool's error text: the call's arguments, or the server's configuration, may need fixing"
        }
        ToolCallStructuredContentMissing => {
            "return structuredContent from every successful call of a tool with an outputSchema"
        }
        ToolCallStructuredContentInvalid => {
            "return structuredContent that matches the tool's outputSchema (or fix the schema)"
        }
        EvidenceDriftServerVersion => {
            "expected after an upgrade: record a new baseline with --evidence"
        }
        EvidenceDriftProtocol => {
            "check why the negotiated protocol changed; record a new baseline with --evidence when it is intended"
        }
        EvidenceDriftTools => {
            "review the tools added or removed; record a new baseline with --evidence when it is intended"
        }
        AdversarialInvalidMethodResult => {
            "answer an unknown method with error -32601 (method not found)"
        }
        AdversarialInvalidParamsResult => {
            "answer an invalid cursor with error -32602 (invalid params)"
        }
        AdversarialNotificationResponse => "ignore unknown notifications: send nothing back",
        AdversarialMalformedJsonResult => {
            "answer a line that is not JSON with error -32700 (parse error) and id null, and keep running"
        }
        AdversarialToolCallResult => {
            "validate tool arguments against the inputSchema and answer bad ones with an error"
        }
        AdversarialMissingMetaResult => {
            "answer a 2026-07-28 request without its _meta envelope with error -32602"
        }
        AdversarialProbeCrash => "survive bad input: answer it with an error instead of exiting",
        AdversarialProbeInvalidStdout => {
            "write only JSON-RPC to stdout, also when a request is bad (errors go in an error response or to stderr)"
        }
        AdversarialProbeTimeout => "answer every request, a bad one with an error",
        RepeatProtocolDrift => {
            "negotiate the same protocol on every start (no randomness or race at startup)"
        }
        RepeatCapabilityDrift => {
            "advertise the same capabilities on every start (do not advertise what finishes loading later)"
        }
        RepeatToolDrift => {
            "list the same tools on every start: register them before you answer initialize"
        }
        RepeatListShapeDrift => {
            "list the same resources and prompts on every start, or send list_changed when they change"
        }
        StaticStdoutWrite => {
            "write to stderr instead (console.error, print(..., file=sys.stderr), eprintln!), or guard the write behind the transport"
        }
        BenchFailed => {
            "answer concurrent requests: read stdin continuously and answer each request as it completes"
        }
        BenchSerialized => {
            "handle requests concurrently: do not block the read loop on a slow request"
        }
        BatchRunFailed => {
            "run this entry alone with `mcp-stdio-guard check --config FILE --server NAME` to see why it produced no report"
        }
        ToolDescriptionMissing => {
            "describe each tool: what it does, when to use it, what it returns"
        }
        DiscoverUnsupported => "implement server/discover (2026-07-28), or check with --era legacy",
        DiscoverInvalidResult => {
            "answer server/discover with supportedVersions (a non-empty array of strings) and a capabilities object"
        }
        InitializeModernOnly => {
            "nothing to fix if the server is meant for 2026-07-28 only; check it with --era auto or modern"
        }
        ModernResultTypeInvalid => {
            "set resultType to \"complete\" (or \"input_required\") on every 2026-07-28 result"
        }
        ModernCacheHintsMissing => {
            "put ttlMs and cacheScope on discover, list and resources/read results"
        }
        ModernCacheHintsInvalid => {
            "make ttlMs a non-negative integer and cacheScope \"public\" or \"private\""
        }
        ModernServerInfoMissing => {
            "put _meta[\"io.modelcontextprotocol/serverInfo\"] on your results"
        }
        ModernServerRequest => {
            "send no requests in the 2026-07-28 era: ask for input with an input_required result"
        }
        ModernUnrequestedLog => {
            "send notifications/message only to requests that set a logLevel in _meta; log to stderr otherwise"
        }
        ModernUnsupportedVersionError => {
            "answer an unsupported version with error -32022 listing the versions you support"
        }
        ToolInvalidInputCrash => {
            "validate tool input against the inputSchema before use, and answer bad input with an error"
        }
        ToolInvalidInputTimeout => {
            "validate tool input first and answer bad input at once with an error"
        }
        ToolInvalidInputInternalError => {
            "answer input the schema rejects with -32602 or an isError result, not -32603"
        }
        ToolInvalidInputAccepted => {
            "validate tool input against the inputSchema: MCP servers must refuse what it rejects"
        }
        ToolInvalidInputRan => {
            "validate tool input against the inputSchema before the tool runs, and answer bad input with a validation message"
        }
        ToolAnswerSecret => {
            "never put credentials in answers: mask tokens and keys in error messages and results"
        }
        ToolCallCrash => {
            "catch the tool's failures and answer them as an isError result; the server must keep running"
        }
        ToolCallTimeout => {
            "answer within the timeout, or report progress; a slow tool needs a longer --timeout"
        }
        ToolCallInternalError => {
            "answer a tool's own failure as an isError result with a message the model can act on"
        }
        ConfineSecretRead => {
            "do not read credential files: take secrets from the environment the host gives you"
        }
        ConfineNetwork => {
            "connect only where the server needs to, and name those hosts with --confine-connect"
        }
        ConfineWriteOutside => {
            "write only under the working directory or the temporary directory, or allow the path with --confine-write"
        }
        ConfineHiddenExec => "run programs from files on disk, not from memory or deleted files",
        ConfineDenied => {
            "allow what the server needs with --confine-read, --confine-write or --confine-connect, or stop it from needing it"
        }
        ToolAnnotationsContradict => {
            "set readOnlyHint or destructiveHint, not both (and make the tool do what they say)"
        }
        DefinitionHiddenTagText => {
            "remove the Unicode Tag characters (U+E0000-E007F) from the text"
        }
        DefinitionBidiControl => {
            "remove the bidirectional controls (U+202A-202E, U+2066-2069) from the text"
        }
        DefinitionInvisibleCharacter => {
            "remove the zero-width and invisible characters from the text"
        }
        DefinitionControlCharacter => "remove the control characters from the text",
        DefinitionConfusableName => {
            "write the name in one script (Latin letters for an ASCII-looking name)"
        }
        DefinitionOverrideInstructions => {
            "remove the sentence that tells the model to ignore its instructions"
        }
        DefinitionSensitiveFile => "remove the instruction to read or send secret files",
        DefinitionHideFromUser => "remove the instruction to keep things from the user",
        DefinitionExfiltration => "remove the instruction to send data elsewhere",
        DefinitionToolShadowing => {
            "describe this tool only; give no orders about other tools or servers"
        }
        DefinitionPromptMarkup => "remove the prompt markup; say plainly what the tool does",
        DefinitionAuthorityClaim => "remove the claim to speak for the system or its maker",
        DefinitionGuardrailRemoval => {
            "remove the instruction to skip safety checks or the user's consent"
        }
        DefinitionPreferenceManipulation => {
            "describe what the tool does; leave the choice of tool to the model"
        }
        DefinitionCrossToolTampering => {
            "remove the instruction about how other tools are called or read"
        }
        DefinitionCommandInjection => {
            "remove the instruction to add commands to what the model runs"
        }
        DefinitionInstructionLike => {
            "describe what the tool does and returns, rather than instructing the model"
        }
        DefinitionEncodedBlob => "remove the encoded blob; write what it means in plain text",
        ContextBudgetExceeded => {
            "shorten descriptions and schemas, or offer fewer tools at once (or raise --context-budget)"
        }
        RepeatToolDefinitionDrift => {
            "keep tool definitions stable across starts; a change after approval is a rug pull to clients"
        }
        EvidenceDriftToolDefinition => {
            "review the changed definition (the diff is shown); record a new baseline with --evidence when it is intended"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fix_is_one_line_of_modest_length() {
        for code in Code::ALL {
            let f = fix(*code);
            assert!(!f.is_empty() && !f.contains('\n'), "{code}");
            assert!(f.len() <= 160, "{code}: {} bytes", f.len());
            assert!(f.starts_with(|c: char| c.is_lowercase()), "{code}: {f}");
        }
    }
}
