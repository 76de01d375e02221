//! The one table of issue codes: each code's spelling, class, default
//! severity, the report checks it belongs to, and its one-line meaning,
//! with the vocabulary they are written in (severity, class, group).
//! `Code` is generated from the table, so an unknown code is a compile
//! error; README.md documents the same table and a test keeps them in step.

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The registry-facing class of an issue (the 1.0 contract's three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    InstallRuntime,
    StdioTransport,
    McpProtocol,
    /// What the server touched (`--confine`).
    Security,
}

impl Class {
    pub const ALL: [Class; 4] = [
        Class::InstallRuntime,
        Class::StdioTransport,
        Class::McpProtocol,
        Class::Security,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Class::InstallRuntime => "installRuntime",
            Class::StdioTransport => "stdioTransport",
            Class::McpProtocol => "mcpProtocol",
            Class::Security => "security",
        }
    }
}

/// The badge-friendly checks of the JSON report's `checks` object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    Initialize,
    Stdout,
    JsonRpc,
    Operation,
    Capabilities,
    ToolSchema,
    Adversarial,
    Process,
    PythonBuffering,
    StaticScan,
    Repeat,
    /// `--against`: drift from an earlier evidence record.
    Against,
    /// The lint of what the server tells the model.
    Definitions,
    /// `--robustness`: every tool called with bad (and safe valid) input.
    Robustness,
    /// `--confine`: what the server touched.
    Confinement,
}

/// A code's fixed facts.
#[derive(Debug)]
pub struct CodeInfo {
    pub code: &'static str,
    pub class: Class,
    pub severity: Severity,
    pub groups: &'static [Group],
    /// One line for README.md and `help codes`.
    pub meaning: &'static str,
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $class:ident, $sev:ident, [$($g:ident),*], $meaning:literal;)*) => {
        /// Every issue code the guard can emit.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code { $($variant,)* }

        /// The table, in `Code` order.
        pub const CODES: &[CodeInfo] = &[$(CodeInfo {
            code: $code,
            class: Class::$class,
            severity: Severity::$sev,
            groups: &[$(Group::$g),*],
            meaning: $meaning,
        },)*];

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
        }
    };
}

impl Code {
    pub fn info(self) -> &'static CodeInfo {
        &CODES[self as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.info().code
    }

    /// The code with this spelling.
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == text)
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

codes! {
    SpawnFailed = "spawn-failed", InstallRuntime, Error, [Initialize, Process],
        "the command could not be started (missing program, permission denied)";
    ServerExited = "server-exited", InstallRuntime, Error, [Initialize, Process],
        "the server exited before it answered initialize";
    InitializeTimeout = "initialize-timeout", InstallRuntime, Error, [Initialize],
        "no initialize response within the startup timeout";
    OperationTimeout = "operation-timeout", InstallRuntime, Error, [Operation],
        "no response to the request within the timeout";
    OperationMissingResponse = "operation-missing-response", InstallRuntime, Error, [Operation],
        "the server exited while a request was waiting for its response";
    ServerCrashed = "server-crashed", InstallRuntime, Error, [Process],
        "the server exited with a non-zero code or a signal after initialize, before the guard stopped it";
    ServerPrintedUsage = "server-printed-usage", InstallRuntime, Error, [Initialize, Process],
        "the command printed its usage text and exited before it spoke MCP: it needs a subcommand or arguments to start a server (the lines it wrote and its exit are folded in)";
    ShutdownError = "shutdown-error", InstallRuntime, Warning, [Process],
        "after the guard closed its stdin to stop it, the server exited with a non-zero code or wrote an error (a crash in its close handler); the error is quoted";
    CapabilityListNeedsConfiguration = "capability-list-needs-configuration", InstallRuntime, Warning, [Capabilities],
        "an advertised list answered an error that asks for configuration (a missing key, setting or database): the server needs configuration the guard did not give it";
    ServerExitedEarly = "server-exited-early", InstallRuntime, Warning, [Process],
        "the server exited with code 0 on its own while its stdin was still open (a host sees a dead connection: scout's stdio.alive)";
    PythonBufferedStdio = "python-buffered-stdio", InstallRuntime, Warning, [PythonBuffering],
        "a Python server's reply came only after the guard gave up on it (block-buffered stdout, flushed at exit): decided from behaviour, never from argv alone; the fix names -u, or --env PYTHONUNBUFFERED when the allow-list dropped yours";
    StderrOutputLimitExceeded = "stderr-output-limit-exceeded", InstallRuntime, Warning, [Process],
        "stderr passed --max-stderr-bytes; the middle was dropped from the report (logging to stderr is allowed)";
    ShutdownSignalRequired = "shutdown-signal-required", InstallRuntime, Warning, [Process],
        "the server did not exit within the grace after its stdin was closed; it needed SIGTERM or SIGKILL";
    OrphanedProcesses = "orphaned-processes", InstallRuntime, Warning, [Process],
        "processes of the server (its group, or on Linux any descendant, however it left the group) were still running after it exited; they were killed and are named with pid and command";
    StdoutHeldOpen = "stdout-held-open", InstallRuntime, Warning, [Process],
        "stdout stayed open after the server's group was gone: a process that left the group holds it";
    StdoutNonJson = "stdout-non-json", StdioTransport, Error, [Stdout],
        "a stdout line is not JSON (a banner, a log line, a print)";
    StdoutEmptyLine = "stdout-empty-line", StdioTransport, Warning, [Stdout],
        "a stdout line is empty or whitespace only";
    StdoutContentLengthFraming = "stdout-content-length-framing", StdioTransport, Error, [Stdout],
        "the server frames messages with LSP Content-Length headers instead of newlines";
    StdoutWithoutNewline = "stdout-without-newline", StdioTransport, Error, [Stdout],
        "stdout ended with bytes after the last newline (an unterminated message)";
    StdoutLineTooLarge = "stdout-line-too-large", StdioTransport, Error, [Stdout],
        "a stdout line is longer than --max-stdout-line-bytes; the run was stopped";
    StdoutOutputLimitExceeded = "stdout-output-limit-exceeded", StdioTransport, Error, [Stdout],
        "stdout passed --max-stdout-bytes; the run was stopped";
    StdoutMessageTooLarge = "stdout-message-too-large", StdioTransport, Error, [Stdout],
        "a stdout line is valid JSON too dense to judge: held in memory it would take more than 40 times its size (and at most 192 MiB); the run was stopped";
    StdoutMessageTooDeep = "stdout-message-too-deep", StdioTransport, Warning, [Stdout],
        "a stdout message nests deeper than 1024 levels: it is judged by its envelope, what lies deeper is not read (a depth many clients refuse)";
    StdoutInvalidUtf8 = "stdout-invalid-utf8", StdioTransport, Error, [Stdout],
        "a stdout line is not valid UTF-8";
    StdoutLoneSurrogate = "stdout-lone-surrogate", StdioTransport, Warning, [Stdout],
        "a stdout message holds a lone UTF-16 surrogate escape, which JSON allows but many clients reject (read as U+FFFD)";
    StdoutCrlfLineEnding = "stdout-crlf-line-ending", StdioTransport, Warning, [Stdout],
        "stdout lines end with CRLF instead of a bare newline";
    StdoutInvalidJsonRpc = "stdout-invalid-json-rpc", McpProtocol, Error, [Stdout, JsonRpc],
        "a stdout line is JSON but not a valid JSON-RPC 2.0 message (a structured log line, a bad envelope)";
    StdoutUnexpectedRequestId = "stdout-unexpected-request-id", McpProtocol, Error, [Stdout, JsonRpc],
        "a frame carries the id of the guard's pending request but is a request (the server echoed it), not the response";
    ResponseIdMismatch = "response-id-mismatch", McpProtocol, Error, [JsonRpc],
        "a response carries an id the guard never sent";
    ResponseIdTypeMismatch = "response-id-type-mismatch", McpProtocol, Error, [JsonRpc],
        "a response id equals the request id only after a type change (\"1\" for 1)";
    NotificationResponse = "notification-response", McpProtocol, Error, [JsonRpc],
        "the server answered a notification, which must get no response";
    InitializeError = "initialize-error", McpProtocol, Error, [Initialize],
        "initialize returned a JSON-RPC error";
    OperationError = "operation-error", McpProtocol, Warning, [Operation],
        "the request returned a JSON-RPC error";
    InitializeInvalidResult = "initialize-invalid-result", McpProtocol, Error, [Initialize],
        "the initialize result is not an object; the handshake stops before notifications/initialized";
    InitializeMissingProtocolVersion = "initialize-missing-protocol-version", McpProtocol, Error, [Initialize],
        "the initialize result has no protocolVersion; the handshake stops";
    InitializeInvalidProtocolVersion = "initialize-invalid-protocol-version", McpProtocol, Error, [Initialize],
        "protocolVersion is not a string, not a date-shaped version, or neither the requested nor a released version (an echoed unknown version included); the handshake stops";
    InitializeMissingCapabilities = "initialize-missing-capabilities", McpProtocol, Error, [Initialize],
        "the initialize result has no capabilities; the handshake stops";
    InitializeInvalidCapabilities = "initialize-invalid-capabilities", McpProtocol, Error, [Initialize],
        "capabilities is not an object, or a known capability is not an object or has a non-boolean flag; the handshake stops";
    InitializeMissingServerInfo = "initialize-missing-server-info", McpProtocol, Error, [Initialize],
        "the initialize result has no serverInfo (required by the schema; the session goes on)";
    InitializeInvalidServerInfo = "initialize-invalid-server-info", McpProtocol, Error, [Initialize],
        "serverInfo is not an object with string name and version (required by the schema; the session goes on)";
    ResponseDuplicate = "response-duplicate", McpProtocol, Error, [JsonRpc],
        "a second response to a request that was already answered";
    ResponseIdNull = "response-id-null", McpProtocol, Warning, [JsonRpc],
        "a parse or invalid-request error (-32700/-32600) with a null id, or (before 2025-11-25) no id";
    StdoutJsonRpcBatch = "stdout-json-rpc-batch", McpProtocol, Error, [Stdout, JsonRpc],
        "a JSON-RPC batch array on stdout; batches exist only in 2025-03-26 (a warning there, an error otherwise)";
    ServerRequestIdReused = "server-request-id-reused", McpProtocol, Error, [JsonRpc],
        "the server sent a request with an id it had already used in the session";
    ServerRequestUndeclaredCapability = "server-request-undeclared-capability", McpProtocol, Error, [JsonRpc],
        "the server sent a request (roots/list, sampling/createMessage, elicitation/create, ...) for a capability the guard did not declare; answered -32601 (a warning before 2025-06-18)";
    ServerRequestBeforeInitialize = "server-request-before-initialize", McpProtocol, Warning, [JsonRpc],
        "the server sent a request other than ping before it answered initialize";
    LoggingWithoutCapability = "logging-without-capability", McpProtocol, Error, [JsonRpc],
        "the server sent notifications/message without advertising the logging capability";
    ProgressUnknownToken = "progress-unknown-token", McpProtocol, Error, [JsonRpc],
        "the server sent notifications/progress for a token the guard never sent";
    CapabilityListUnsupported = "capability-list-unsupported", McpProtocol, Error, [Capabilities],
        "an advertised capability's list method answered method-not-found (-32601)";
    CapabilityListError = "capability-list-error", McpProtocol, Error, [Capabilities],
        "an advertised capability's list method returned a JSON-RPC error";
    CapabilityListTimeout = "capability-list-timeout", McpProtocol, Error, [Capabilities],
        "an advertised capability's list method did not answer within the timeout";
    CapabilityListMissingResponse = "capability-list-missing-response", McpProtocol, Error, [Capabilities],
        "the server exited while an advertised capability's list method was waiting for its response";
    CapabilityListInvalidCursor = "capability-list-invalid-cursor", McpProtocol, Error, [Capabilities],
        "a list result's nextCursor is not a string, repeats an earlier cursor (a loop), or pages go on past 100";
    CapabilityListInvalidResult = "capability-list-invalid-result", McpProtocol, Error, [Capabilities],
        "a resources, resource templates or prompts list result has no array of items";
    ResourceTemplatesListUnsupported = "resource-templates-list-unsupported", McpProtocol, Warning, [Capabilities],
        "the server advertises resources but answers resources/templates/list with method-not-found";
    ResourceInvalid = "resource-invalid", McpProtocol, Error, [Capabilities],
        "a resources/list item is not an object with a string uri and name";
    ResourceTemplateInvalid = "resource-template-invalid", McpProtocol, Error, [Capabilities],
        "a resources/templates/list item is not an object with a string uriTemplate and name";
    PromptInvalid = "prompt-invalid", McpProtocol, Error, [Capabilities],
        "a prompts/list item has no string name, or an argument without a string name";
    ToolsListInvalidResult = "tools-list-invalid-result", McpProtocol, Error, [ToolSchema],
        "a tools/list result has no tools array, or an item that is not an object";
    ToolNameDuplicate = "tool-name-duplicate", McpProtocol, Error, [ToolSchema],
        "two tools share a name";
    ToolNameInvalid = "tool-name-invalid", McpProtocol, Error, [ToolSchema],
        "a tool name is missing, not a string or empty (error), or outside ^[A-Za-z0-9_.-]{1,128}$ (warning: the spec says SHOULD)";
    ToolInputSchemaInvalid = "tool-input-schema-invalid", McpProtocol, Error, [ToolSchema],
        "a tool's inputSchema is missing, not an object, not type \"object\", or has malformed properties/required";
    ToolInputSchemaRequiredMissing = "tool-input-schema-required-missing", McpProtocol, Error, [ToolSchema],
        "inputSchema.required names a property that inputSchema.properties does not define";
    ToolOutputSchemaInvalid = "tool-output-schema-invalid", McpProtocol, Error, [ToolSchema],
        "a tool's outputSchema is not an object, not type \"object\" (before 2026-07-28), or requires an undefined property";
    ToolCallInvalidResult = "tool-call-invalid-result", McpProtocol, Error, [Operation],
        "a tools/call result has no content array, or isError is not a boolean";
    ToolCallError = "tool-call-error", McpProtocol, Warning, [Operation],
        "the tool answered with isError: true (a warning in check; an error in the call command, which exits 1)";
    ToolCallStructuredContentMissing = "tool-call-structured-content-missing", McpProtocol, Error, [Operation],
        "the tool declares an outputSchema but its successful result has no structuredContent";
    ToolCallStructuredContentInvalid = "tool-call-structured-content-invalid", McpProtocol, Error, [Operation],
        "structuredContent breaks the tool's outputSchema (type, properties, required, items, enum, const, additionalProperties)";
    EvidenceDriftServerVersion = "evidence-drift-server-version", McpProtocol, Warning, [Against],
        "--against: the server's version differs from the newest record for this command";
    EvidenceDriftProtocol = "evidence-drift-protocol", McpProtocol, Warning, [Against],
        "--against: the negotiated protocol differs from the newest record for this command";
    EvidenceDriftTools = "evidence-drift-tools", McpProtocol, Warning, [Against],
        "--against: tools were added or removed since the newest record for this command";
    AdversarialInvalidMethodResult = "adversarial-invalid-method-result", McpProtocol, Error, [Adversarial],
        "an unknown method got a result (an error code other than -32601/-32602 is a warning)";
    AdversarialInvalidParamsResult = "adversarial-invalid-params-result", McpProtocol, Warning, [Adversarial],
        "tools/list with a numeric cursor got a result or an error other than -32602 (the spec: invalid cursors SHOULD get -32602)";
    AdversarialNotificationResponse = "adversarial-notification-response", McpProtocol, Error, [Adversarial],
        "the server answered the probe's unknown notification";
    AdversarialMalformedJsonResult = "adversarial-malformed-json-result", McpProtocol, Error, [Adversarial],
        "malformed JSON got an answer other than a -32700 parse error";
    AdversarialToolCallResult = "adversarial-tool-call-result", McpProtocol, Error, [Adversarial],
        "a tool called with invalid arguments returned a normal result, not an error";
    AdversarialMissingMetaResult = "adversarial-missing-meta-result", McpProtocol, Error, [Adversarial],
        "2026-07-28, --adversarial-probe missing-meta: a request without the required _meta envelope got a result or an error other than -32602 (MUST be -32602)";
    AdversarialProbeCrash = "adversarial-probe-crash", McpProtocol, Error, [Adversarial],
        "the server exited during an adversarial probe (reported instead of server-crashed)";
    AdversarialProbeInvalidStdout = "adversarial-probe-invalid-stdout", McpProtocol, Error, [Adversarial],
        "the server wrote something other than JSON-RPC to stdout during a probe";
    AdversarialProbeTimeout = "adversarial-probe-timeout", McpProtocol, Error, [Adversarial],
        "no response to a request probe within the timeout";
    RepeatProtocolDrift = "repeat-protocol-drift", McpProtocol, Warning, [Repeat],
        "--repeat: the negotiated protocol changed between runs";
    RepeatCapabilityDrift = "repeat-capability-drift", McpProtocol, Warning, [Repeat],
        "--repeat: the advertised capability keys changed between runs";
    RepeatToolDrift = "repeat-tool-drift", McpProtocol, Warning, [Repeat],
        "--repeat: tool names or the tool count changed between runs (order ignored)";
    RepeatListShapeDrift = "repeat-list-shape-drift", McpProtocol, Warning, [Repeat],
        "--repeat: the resources/list or prompts/list item count changed between runs";
    StaticStdoutWrite = "static-stdout-write", StdioTransport, Warning, [StaticScan],
        "--scan found source code that writes to stdout (an error with --fail-on-static)";
    BenchFailed = "bench-failed", InstallRuntime, Error, [Process],
        "bench: requests failed or got no answer under modest concurrency (8 or fewer in flight), or the server did not open";
    BenchSerialized = "bench-serialized", InstallRuntime, Warning, [Process],
        "bench: a request that takes a millisecond or more alone waits behind the others in flight (median latency at least half the concurrency times that of one alone): the server handles requests one after another";
    BatchRunFailed = "batch-run-failed", InstallRuntime, Error, [Process],
        "batch: an entry's check produced no report (the guard refused the entry, such as a server that is not stdio, or could not run)";
    ToolDescriptionMissing = "tool-description-missing", McpProtocol, Warning, [ToolSchema],
        "a tool has no description";
    DiscoverUnsupported = "discover-unsupported", McpProtocol, Error, [Initialize],
        "--era modern: server/discover answered with an error; a 2026-07-28 server MUST implement it";
    DiscoverInvalidResult = "discover-invalid-result", McpProtocol, Error, [Initialize],
        "the server/discover result is not an object with a non-empty supportedVersions array of strings and a capabilities object";
    InitializeModernOnly = "initialize-modern-only", McpProtocol, Warning, [Initialize],
        "initialize got -32022 naming only 2026-07-28 versions: a modern-only server, answering as the spec asks; judge it with --era auto or modern";
    ModernResultTypeInvalid = "modern-result-type-invalid", McpProtocol, Error, [JsonRpc],
        "2026-07-28: a result has no resultType, or one other than \"complete\" and \"input_required\"";
    ModernCacheHintsMissing = "modern-cache-hints-missing", McpProtocol, Error, [Capabilities],
        "2026-07-28: a complete discover, list or resources/read result has no ttlMs or no cacheScope";
    ModernCacheHintsInvalid = "modern-cache-hints-invalid", McpProtocol, Error, [Capabilities],
        "2026-07-28: ttlMs is not a non-negative integer, or cacheScope is not \"public\" or \"private\"";
    ModernServerInfoMissing = "modern-server-info-missing", McpProtocol, Warning, [Initialize],
        "2026-07-28: results carry no _meta[\"io.modelcontextprotocol/serverInfo\"] (SHOULD)";
    ModernServerRequest = "modern-server-request", McpProtocol, Error, [JsonRpc],
        "2026-07-28: the server sent a JSON-RPC request on stdout, which this era forbids (MUST NOT)";
    ModernUnrequestedLog = "modern-unrequested-log", McpProtocol, Error, [JsonRpc],
        "2026-07-28: notifications/message though no request set a logLevel in _meta";
    ModernUnsupportedVersionError = "modern-unsupported-version-error", McpProtocol, Error, [Adversarial],
        "2026-07-28, --adversarial-probe unsupported-version: an unsupported version did not get -32022 listing the supported versions (not echoing the requested one is a warning)";
    ToolInvalidInputCrash = "tool-invalid-input-crash", McpProtocol, Error, [Robustness],
        "--robustness: the server exited while handling a call with input its own inputSchema rejects (MCP: servers MUST validate all tool inputs)";
    ToolInvalidInputTimeout = "tool-invalid-input-timeout", McpProtocol, Error, [Robustness],
        "--robustness: no answer within --timeout to a call with input its own inputSchema rejects";
    ToolInvalidInputInternalError = "tool-invalid-input-internal-error", McpProtocol, Warning, [Robustness],
        "--robustness: input its own inputSchema rejects got -32603 or another non-standard error instead of -32602 or an isError result";
    ToolInvalidInputAccepted = "tool-invalid-input-accepted", McpProtocol, Warning, [Robustness],
        "--robustness: a success for input its own inputSchema rejects (MCP: servers MUST validate all tool inputs; an error under --profile strict)";
    ToolInvalidInputRan = "tool-invalid-input-ran", McpProtocol, Error, [Robustness],
        "--robustness: input its own inputSchema rejects was run anyway: the answer (an isError result or a success) carries a runtime failure (a Python, Node, Go, Java, Rust or .NET traceback, [object Object], an attribute or type error), not a validation message (MCP: servers MUST validate all tool inputs)";
    ToolAnswerSecret = "tool-answer-secret", Security, Error, [Robustness],
        "--robustness: a tool's answer holds the value of a variable the guard forwarded to the server (an error), or a string shaped like a credential (a warning); the value is never shown";
    ToolCallCrash = "tool-call-crash", McpProtocol, Error, [Robustness],
        "--robustness: the server exited while handling a call with valid input";
    ToolCallTimeout = "tool-call-timeout", McpProtocol, Warning, [Robustness],
        "--robustness: no answer within --timeout to a call with valid input (a tool may be slow by design)";
    ToolCallInternalError = "tool-call-internal-error", McpProtocol, Warning, [Robustness],
        "--robustness: valid input got -32603 or another non-standard JSON-RPC error instead of a result (a tool's own failure belongs in an isError result)";
    ConfineSecretRead = "confine-secret-read", Security, Error, [Confinement],
        "--confine: the server opened, or tried to open, a credential file (an SSH key, cloud, registry or git credentials, .netrc, a browser profile, an MCP client's configuration), by its path or through a hard link to it";
    ConfineNetwork = "confine-network", Security, Warning, [Confinement],
        "--confine: the server connected, or sent a datagram, to an address --confine-connect does not allow (DNS included), opened a socket of another family, a raw or an unasked-for UDP socket, sent with TCP Fast Open, or connected to another program's named unix socket (an SSH agent, a daemon)";
    ConfineWriteOutside = "confine-write-outside", Security, Warning, [Confinement],
        "--confine: the server wrote, created, removed, renamed or linked a path, or changed its mode, owner, times or extended attributes, outside its private home, the temporary and cache trees and --confine-write";
    ConfineHiddenExec = "confine-hidden-exec", Security, Warning, [Confinement],
        "--confine: the server ran a program that is not a file on disk (a memfd, a deleted file, a descriptor: execveat AT_EMPTY_PATH or /proc/self/fd), which no path rule sees; refused under enforce";
    ConfineDenied = "confine-denied", Security, Error, [Confinement],
        "--confine enforce: the server failed after the confinement refused it something; the refusal is the cause (allow it with --confine-read, --confine-write or --confine-connect, or fix the server)";
    ToolAnnotationsContradict = "tool-annotations-contradict", McpProtocol, Warning, [ToolSchema],
        "a tool is annotated readOnlyHint: true and destructiveHint: true: a client cannot tell whether calling it is safe";
    DefinitionHiddenTagText = "definition-hidden-tag-text", McpProtocol, Error, [Definitions],
        "a definition string holds Unicode Tag characters (U+E0000-E007F): text a model reads and a person does not see (decoded and quoted; a flag emoji's tags are fine)";
    DefinitionBidiControl = "definition-bidi-control", McpProtocol, Error, [Definitions],
        "a definition string holds bidirectional embeddings, overrides or isolates (U+202A-202E, U+2066-2069) that reorder what a reader sees (Trojan Source)";
    DefinitionInvisibleCharacter = "definition-invisible-character", McpProtocol, Warning, [Definitions],
        "a definition string holds zero-width or other invisible characters (an error when several stand together: room to carry hidden content; emoji joiners and the joiners of scripts that need them are fine)";
    DefinitionControlCharacter = "definition-control-character", McpProtocol, Warning, [Definitions],
        "a definition string holds control characters (an error for ESC, backspace and a lone carriage return, which hide or overwrite text on a terminal)";
    DefinitionConfusableName = "definition-confusable-name", McpProtocol, Error, [Definitions],
        "a name mixes Latin with Cyrillic or Greek lookalike letters, or is written wholly in them (a warning for a word of prose)";
    DefinitionOverrideInstructions = "definition-override-instructions", McpProtocol, Error, [Definitions],
        "a definition tells the model to ignore, disregard or override its previous or system instructions";
    DefinitionSensitiveFile = "definition-sensitive-file", McpProtocol, Error, [Definitions],
        "a definition tells the model to read, send or include a secret file (SSH keys, .env, credentials, an MCP client's config); a mention (a scanner that detects .env files) is not a finding";
    DefinitionHideFromUser = "definition-hide-from-user", McpProtocol, Error, [Definitions],
        "a definition tells the model to keep something from the user";
    DefinitionExfiltration = "definition-exfiltration", McpProtocol, Error, [Definitions],
        "a definition tells the model to send data out: to a URL, an e-mail address (BCC, CC), a webhook, a DNS name, or into a parameter (the conversation, keys, the system prompt)";
    DefinitionToolShadowing = "definition-tool-shadowing", McpProtocol, Error, [Definitions],
        "a definition gives orders about other tools or servers (when this tool is available …; all other tools must …)";
    DefinitionPromptMarkup = "definition-prompt-markup", McpProtocol, Warning, [Definitions],
        "a definition holds chat-template or prompt markup addressed to the model (`<IMPORTANT>`, `<system>`, `[INST]`, `<<SYS>>`, an im_start token)";
    DefinitionAuthorityClaim = "definition-authority-claim", McpProtocol, Error, [Definitions],
        "a definition claims to speak for the system, its administrator or the model's maker, or grants the model rights (SYSTEM NOTICE, [SYSTEM: …], act as root, developer mode is on)";
    DefinitionGuardrailRemoval = "definition-guardrail-removal", McpProtocol, Error, [Definitions],
        "a definition tells the model to drop safety checks, filters or the user's consent (disable content filtering, no need to ask for confirmation, security_level = 0)";
    DefinitionPreferenceManipulation = "definition-preference-manipulation", McpProtocol, Error, [Definitions],
        "a definition tells the model to choose this tool over others, or disparages them (always use this tool first, never use other weather tools, this tool replaces read_file)";
    DefinitionCrossToolTampering = "definition-cross-tool-tampering", McpProtocol, Error, [Definitions],
        "a definition changes how another tool is called or what its result means (before calling X run this tool and replace the values; the result of X is wrong)";
    DefinitionCommandInjection = "definition-command-injection", McpProtocol, Error, [Definitions],
        "a definition tells the model to add commands to what it runs (every shell command must start with …; append | curl … to each command); a payload alone is a warning";
    DefinitionInstructionLike = "definition-instruction-like", McpProtocol, Warning, [Definitions],
        "a sentence of a definition that the lint's classifier reads as an instruction to the model, in no family's words (an error when it scores above the model's error threshold)";
    DefinitionEncodedBlob = "definition-encoded-blob", McpProtocol, Warning, [Definitions],
        "a definition holds a long encoded blob (base64 or hex) a person cannot read";
    ContextBudgetExceeded = "context-budget-exceeded", McpProtocol, Warning, [Definitions],
        "the tools and instructions add more tokens (estimated as bytes/4) to every prompt than --context-budget";
    RepeatToolDefinitionDrift = "repeat-tool-definition-drift", McpProtocol, Warning, [Repeat],
        "--repeat: a tool kept its name but changed its description, schemas or other members between runs (a rug pull; the diff is shown)";
    EvidenceDriftToolDefinition = "evidence-drift-tool-definition", McpProtocol, Warning, [Against],
        "--against: a tool kept its name but its definition differs from the record's pinned hash (a rug pull; the diff is shown)";
}

impl Code {
    /// Whether the rule behind the code is a SHOULD of the MCP or JSON-RPC
    /// specification: a warning by default, an error under `--profile
    /// strict`. (MUST rules are errors always; the guard's own advice,
    /// such as python-buffered-stdio, is never promoted.)
    pub fn is_should(self) -> bool {
        matches!(
            self,
            // "the server SHOULD NOT send requests other than pings and
            // logging before receiving initialized"
            Code::ServerRequestBeforeInitialize
            // tool names SHOULD match ^[A-Za-z0-9_.-]{1,128}$
                | Code::ToolNameInvalid
            // "Invalid cursors SHOULD result in an error with code -32602"
                | Code::AdversarialInvalidParamsResult
            // an unknown method: -32601 (JSON-RPC), -32602 accepted
                | Code::AdversarialInvalidMethodResult
            // serverInfo SHOULD be in every 2026-07-28 result's _meta
                | Code::ModernServerInfoMissing
            // a response to a garbled request SHOULD carry a null id
                | Code::ResponseIdNull
            // a missing -32700 answer to malformed JSON
                | Code::AdversarialMalformedJsonResult
        )
    }
}

impl Code {
    /// The force of the rule behind the code: `MUST` (the spec, JSON-RPC
    /// or the schema requires it: an error), `SHOULD` (a warning that
    /// `--profile strict` promotes), `security` (the lint of what the
    /// server tells the model: no spec rule; never promoted), `runtime`
    /// (the server did not start,
    /// answer or live: an error), `limit` (past a `--max-*` bound the
    /// user sets), or `advice` (the guard's own judgement of what breaks
    /// hosts, or a report of what happened: never promoted).
    pub fn level(self) -> &'static str {
        if self.is_should() {
            return "SHOULD";
        }
        let info = self.info();
        if info.groups.contains(&Group::Definitions) && self != Code::ContextBudgetExceeded
            || info.class == Class::Security
        {
            return "security";
        }
        match (info.severity, info.class) {
            _ if matches!(
                self,
                Code::StdoutLineTooLarge
                    | Code::StdoutOutputLimitExceeded
                    | Code::StdoutMessageTooLarge
                    | Code::StdoutMessageTooDeep
            ) =>
            {
                "limit"
            }
            (Severity::Error, Class::InstallRuntime) => "runtime",
            (Severity::Error, _) => "MUST",
            (Severity::Warning, _) => "advice",
        }
    }
}

/// The code table as text, for `mcp-stdio-guard help codes`.
pub fn listing() -> String {
    let mut out = String::from("code\tclass\tseverity\trule\tmeaning\n");
    for (c, code) in CODES.iter().zip(Code::ALL) {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\n",
            c.code,
            c.class.as_str(),
            c.severity.as_str(),
            code.level(),
            c.meaning
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Class::{InstallRuntime as IR, McpProtocol as MP, StdioTransport as ST};
    use Severity::{Error as E, Warning as W};

    #[test]
    fn codes_are_unique_kebab_case_and_in_table_order() {
        for (i, c) in CODES.iter().enumerate() {
            assert!(
                c.code
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            );
            assert!(
                CODES[i + 1..].iter().all(|o| o.code != c.code),
                "{}",
                c.code
            );
            assert_eq!(Code::ALL[i].as_str(), c.code);
            assert_eq!(Code::parse(c.code), Some(Code::ALL[i]));
        }
    }

    #[test]
    fn the_1_0_codes_keep_their_class_and_severity() {
        let expect = [
            ("spawn-failed", IR, E),
            ("server-exited", IR, E),
            ("initialize-timeout", IR, E),
            ("operation-timeout", IR, E),
            ("operation-missing-response", IR, E),
            ("server-crashed", IR, E),
            ("python-buffered-stdio", IR, W),
            ("stdout-non-json", ST, E),
            ("stdout-empty-line", ST, W),
            ("stdout-content-length-framing", ST, E),
            ("stdout-without-newline", ST, E),
            ("stdout-line-too-large", ST, E),
            ("stdout-output-limit-exceeded", ST, E),
            ("stdout-invalid-json-rpc", MP, E),
            ("stdout-unexpected-request-id", MP, E),
            ("response-id-mismatch", MP, E),
            ("response-id-type-mismatch", MP, E),
            ("notification-response", MP, E),
            ("initialize-error", MP, E),
            ("operation-error", MP, W),
        ];
        for (code, class, sev) in expect {
            let i = Code::parse(code).expect(code).info();
            assert_eq!((i.class, i.severity), (class, sev), "{code}");
        }
    }
}
