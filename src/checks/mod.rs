//! Judgement: pure functions from a transcript (and the run's settings) to
//! issues. Nothing here touches a process or a file, so every rule is tested
//! on hand-made transcripts.
//!
//! `CODES` is the one table of issue codes: class, default severity, and the
//! report checks each code belongs to. README.md documents the same table, and
//! a test keeps the two in step.

use serde_json::Value;

use crate::transcript::Transcript;

pub mod adversarial;
pub mod against;
pub mod capabilities;
pub mod catalog;
pub mod drift;
pub mod initialize;
pub mod lifecycle;
pub mod schema;
pub mod stdout;
pub mod toolcall;
pub mod traffic;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    InstallRuntime,
    StdioTransport,
    McpProtocol,
}

impl Class {
    pub const ALL: [Class; 3] = [
        Class::InstallRuntime,
        Class::StdioTransport,
        Class::McpProtocol,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Class::InstallRuntime => "installRuntime",
            Class::StdioTransport => "stdioTransport",
            Class::McpProtocol => "mcpProtocol",
        }
    }
}

/// The badge-friendly checks of the JSON report's `checks` object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

#[derive(Debug)]
pub struct CodeInfo {
    pub code: &'static str,
    pub class: Class,
    pub severity: Severity,
    pub groups: &'static [Group],
    /// One line for README.md and `--help`-style listings.
    pub meaning: &'static str,
}

use Class::{InstallRuntime as IR, McpProtocol as MP, StdioTransport as ST};
use Group::*;
use Severity::{Error as E, Warning as W};

macro_rules! code {
    ($code:literal, $class:expr, $sev:expr, [$($g:expr),*], $meaning:literal) => {
        CodeInfo { code: $code, class: $class, severity: $sev, groups: &[$($g),*], meaning: $meaning }
    };
}

/// Every issue code the guard can emit.
pub const CODES: &[CodeInfo] = &[
    code!(
        "spawn-failed",
        IR,
        E,
        [Initialize, Process],
        "the command could not be started (missing program, permission denied)"
    ),
    code!(
        "server-exited",
        IR,
        E,
        [Initialize, Process],
        "the server exited before it answered initialize"
    ),
    code!(
        "initialize-timeout",
        IR,
        E,
        [Initialize],
        "no initialize response within the startup timeout"
    ),
    code!(
        "operation-timeout",
        IR,
        E,
        [Operation],
        "no response to the request within the timeout"
    ),
    code!(
        "operation-missing-response",
        IR,
        E,
        [Operation],
        "the server exited while a request was waiting for its response"
    ),
    code!(
        "server-crashed",
        IR,
        E,
        [Process],
        "the server exited with a non-zero code or a signal after initialize, before the guard stopped it"
    ),
    code!(
        "python-buffered-stdio",
        IR,
        W,
        [PythonBuffering],
        "a Python server runs without -u or PYTHONUNBUFFERED; piped stdout is block-buffered"
    ),
    code!(
        "stderr-output-limit-exceeded",
        IR,
        W,
        [Process],
        "stderr passed --max-stderr-bytes; the middle was dropped from the report (logging to stderr is allowed)"
    ),
    code!(
        "shutdown-signal-required",
        IR,
        W,
        [Process],
        "the server did not exit within the grace after its stdin was closed; it needed SIGTERM or SIGKILL"
    ),
    code!(
        "orphaned-processes",
        IR,
        W,
        [Process],
        "processes of the server's group were still running after the server exited; they were killed"
    ),
    code!(
        "stdout-held-open",
        IR,
        W,
        [Process],
        "stdout stayed open after the server's group was gone: a process that left the group holds it"
    ),
    code!(
        "stdout-non-json",
        ST,
        E,
        [Stdout],
        "a stdout line is not JSON (a banner, a log line, a print)"
    ),
    code!(
        "stdout-empty-line",
        ST,
        W,
        [Stdout],
        "a stdout line is empty or whitespace only"
    ),
    code!(
        "stdout-content-length-framing",
        ST,
        E,
        [Stdout],
        "the server frames messages with LSP Content-Length headers instead of newlines"
    ),
    code!(
        "stdout-without-newline",
        ST,
        E,
        [Stdout],
        "stdout ended with bytes after the last newline (an unterminated message)"
    ),
    code!(
        "stdout-line-too-large",
        ST,
        E,
        [Stdout],
        "a stdout line is longer than --max-stdout-line-bytes; the run was stopped"
    ),
    code!(
        "stdout-output-limit-exceeded",
        ST,
        E,
        [Stdout],
        "stdout passed --max-stdout-bytes; the run was stopped"
    ),
    code!(
        "stdout-invalid-utf8",
        ST,
        E,
        [Stdout],
        "a stdout line is not valid UTF-8"
    ),
    code!(
        "stdout-crlf-line-ending",
        ST,
        W,
        [Stdout],
        "stdout lines end with CRLF instead of a bare newline"
    ),
    code!(
        "stdout-invalid-json-rpc",
        MP,
        E,
        [Stdout, JsonRpc],
        "a stdout line is JSON but not a valid JSON-RPC 2.0 message (a structured log line, a bad envelope)"
    ),
    code!(
        "stdout-unexpected-request-id",
        MP,
        E,
        [Stdout, JsonRpc],
        "a frame carries the id of the guard's pending request but is a request (the server echoed it), not the response"
    ),
    code!(
        "response-id-mismatch",
        MP,
        E,
        [JsonRpc],
        "a response carries an id the guard never sent"
    ),
    code!(
        "response-id-type-mismatch",
        MP,
        E,
        [JsonRpc],
        "a response id equals the request id only after a type change (\"1\" for 1)"
    ),
    code!(
        "notification-response",
        MP,
        E,
        [JsonRpc],
        "the server answered a notification, which must get no response"
    ),
    code!(
        "initialize-error",
        MP,
        E,
        [Initialize],
        "initialize returned a JSON-RPC error"
    ),
    code!(
        "operation-error",
        MP,
        W,
        [Operation],
        "the request returned a JSON-RPC error"
    ),
    code!(
        "initialize-invalid-result",
        MP,
        E,
        [Initialize],
        "the initialize result is not an object; the handshake stops before notifications/initialized"
    ),
    code!(
        "initialize-missing-protocol-version",
        MP,
        E,
        [Initialize],
        "the initialize result has no protocolVersion; the handshake stops"
    ),
    code!(
        "initialize-invalid-protocol-version",
        MP,
        E,
        [Initialize],
        "protocolVersion is not a string, not a date-shaped version, or neither the requested nor a released version (an echoed unknown version included); the handshake stops"
    ),
    code!(
        "initialize-missing-capabilities",
        MP,
        E,
        [Initialize],
        "the initialize result has no capabilities; the handshake stops"
    ),
    code!(
        "initialize-invalid-capabilities",
        MP,
        E,
        [Initialize],
        "capabilities is not an object, or a known capability is not an object or has a non-boolean flag; the handshake stops"
    ),
    code!(
        "initialize-missing-server-info",
        MP,
        W,
        [Initialize],
        "the initialize result has no serverInfo"
    ),
    code!(
        "initialize-invalid-server-info",
        MP,
        W,
        [Initialize],
        "serverInfo is not an object with string name and version"
    ),
    code!(
        "response-duplicate",
        MP,
        E,
        [JsonRpc],
        "a second response to a request that was already answered"
    ),
    code!(
        "response-id-null",
        MP,
        W,
        [JsonRpc],
        "a parse or invalid-request error (-32700/-32600) with a null id, or (before 2025-11-25) no id"
    ),
    code!(
        "stdout-json-rpc-batch",
        MP,
        E,
        [Stdout, JsonRpc],
        "a JSON-RPC batch array on stdout; batches exist only in 2025-03-26 (a warning there, an error otherwise)"
    ),
    code!(
        "server-request-id-reused",
        MP,
        E,
        [JsonRpc],
        "the server sent a request with an id it had already used in the session"
    ),
    code!(
        "server-request-undeclared-capability",
        MP,
        E,
        [JsonRpc],
        "the server sent a request (roots/list, sampling/createMessage, elicitation/create, ...) for a capability the guard did not declare; answered -32601 (a warning before 2025-06-18)"
    ),
    code!(
        "server-request-before-initialize",
        MP,
        W,
        [JsonRpc],
        "the server sent a request other than ping before it answered initialize"
    ),
    code!(
        "logging-without-capability",
        MP,
        E,
        [JsonRpc],
        "the server sent notifications/message without advertising the logging capability"
    ),
    code!(
        "progress-unknown-token",
        MP,
        E,
        [JsonRpc],
        "the server sent notifications/progress for a token the guard never sent"
    ),
    code!(
        "capability-list-unsupported",
        MP,
        E,
        [Capabilities],
        "an advertised capability's list method answered method-not-found (-32601)"
    ),
    code!(
        "capability-list-error",
        MP,
        E,
        [Capabilities],
        "an advertised capability's list method returned a JSON-RPC error"
    ),
    code!(
        "capability-list-timeout",
        MP,
        E,
        [Capabilities],
        "an advertised capability's list method did not answer within the timeout"
    ),
    code!(
        "capability-list-missing-response",
        MP,
        E,
        [Capabilities],
        "the server exited while an advertised capability's list method was waiting for its response"
    ),
    code!(
        "capability-list-invalid-cursor",
        MP,
        E,
        [Capabilities],
        "a list result's nextCursor is not a string, repeats an earlier cursor (a loop), or pages go on past 100"
    ),
    code!(
        "capability-list-invalid-result",
        MP,
        E,
        [Capabilities],
        "a resources, resource templates or prompts list result has no array of items"
    ),
    code!(
        "resource-templates-list-unsupported",
        MP,
        W,
        [Capabilities],
        "the server advertises resources but answers resources/templates/list with method-not-found"
    ),
    code!(
        "resource-invalid",
        MP,
        E,
        [Capabilities],
        "a resources/list item is not an object with a string uri and name"
    ),
    code!(
        "resource-template-invalid",
        MP,
        E,
        [Capabilities],
        "a resources/templates/list item is not an object with a string uriTemplate and name"
    ),
    code!(
        "prompt-invalid",
        MP,
        E,
        [Capabilities],
        "a prompts/list item has no string name, or an argument without a string name"
    ),
    code!(
        "tools-list-invalid-result",
        MP,
        E,
        [ToolSchema],
        "a tools/list result has no tools array, or an item that is not an object"
    ),
    code!(
        "tool-name-duplicate",
        MP,
        E,
        [ToolSchema],
        "two tools share a name"
    ),
    code!(
        "tool-name-invalid",
        MP,
        E,
        [ToolSchema],
        "a tool name is missing, not a string or empty (error), or outside ^[A-Za-z0-9_.-]{1,128}$ (warning: the spec says SHOULD)"
    ),
    code!(
        "tool-input-schema-invalid",
        MP,
        E,
        [ToolSchema],
        "a tool's inputSchema is missing, not an object, not type \"object\", or has malformed properties/required"
    ),
    code!(
        "tool-input-schema-required-missing",
        MP,
        E,
        [ToolSchema],
        "inputSchema.required names a property that inputSchema.properties does not define"
    ),
    code!(
        "tool-output-schema-invalid",
        MP,
        E,
        [ToolSchema],
        "a tool's outputSchema is not an object, not type \"object\" (before 2026-07-28), or requires an undefined property"
    ),
    code!(
        "tool-call-invalid-result",
        MP,
        E,
        [Operation],
        "a tools/call result has no content array, or isError is not a boolean"
    ),
    code!(
        "tool-call-error",
        MP,
        W,
        [Operation],
        "the tool answered with isError: true (the call command exits 1)"
    ),
    code!(
        "tool-call-structured-content-missing",
        MP,
        E,
        [Operation],
        "the tool declares an outputSchema but its successful result has no structuredContent"
    ),
    code!(
        "tool-call-structured-content-invalid",
        MP,
        E,
        [Operation],
        "structuredContent breaks the tool's outputSchema (type, properties, required, items, enum, const, additionalProperties)"
    ),
    code!(
        "evidence-drift-server-version",
        MP,
        W,
        [Against],
        "--against: the server's version differs from the newest record for this command"
    ),
    code!(
        "evidence-drift-protocol",
        MP,
        W,
        [Against],
        "--against: the negotiated protocol differs from the newest record for this command"
    ),
    code!(
        "evidence-drift-tools",
        MP,
        W,
        [Against],
        "--against: tools were added or removed since the newest record for this command"
    ),
    code!(
        "adversarial-invalid-method-result",
        MP,
        E,
        [Adversarial],
        "an unknown method got a result (an error code other than -32601/-32602 is a warning)"
    ),
    code!(
        "adversarial-invalid-params-result",
        MP,
        E,
        [Adversarial],
        "invalid params got a result (an error code other than -32602 is a warning)"
    ),
    code!(
        "adversarial-notification-response",
        MP,
        E,
        [Adversarial],
        "the server answered the probe's unknown notification"
    ),
    code!(
        "adversarial-malformed-json-result",
        MP,
        E,
        [Adversarial],
        "malformed JSON got an answer other than a -32700 parse error"
    ),
    code!(
        "adversarial-tool-call-result",
        MP,
        E,
        [Adversarial],
        "a tool called with invalid arguments returned a normal result, not an error"
    ),
    code!(
        "adversarial-probe-crash",
        MP,
        E,
        [Adversarial],
        "the server exited during an adversarial probe (reported instead of server-crashed)"
    ),
    code!(
        "adversarial-probe-invalid-stdout",
        MP,
        E,
        [Adversarial],
        "the server wrote something other than JSON-RPC to stdout during a probe"
    ),
    code!(
        "adversarial-probe-timeout",
        MP,
        E,
        [Adversarial],
        "no response to a request probe within the timeout"
    ),
    code!(
        "repeat-protocol-drift",
        MP,
        W,
        [Repeat],
        "--repeat: the negotiated protocol changed between runs"
    ),
    code!(
        "repeat-capability-drift",
        MP,
        W,
        [Repeat],
        "--repeat: the advertised capability keys changed between runs"
    ),
    code!(
        "repeat-tool-drift",
        MP,
        W,
        [Repeat],
        "--repeat: tool names or the tool count changed between runs (order ignored)"
    ),
    code!(
        "repeat-list-shape-drift",
        MP,
        W,
        [Repeat],
        "--repeat: the resources/list or prompts/list item count changed between runs"
    ),
    code!(
        "static-stdout-write",
        ST,
        W,
        [StaticScan],
        "--scan found source code that writes to stdout (an error with --fail-on-static)"
    ),
    code!(
        "tool-description-missing",
        MP,
        W,
        [ToolSchema],
        "a tool has no description"
    ),
];

/// The code table as text, for `mcp-stdio-guard help codes`.
pub fn code_listing() -> String {
    let mut out = String::from("code\tclass\tseverity\tmeaning\n");
    for c in CODES {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            c.code,
            c.class.as_str(),
            c.severity.as_str(),
            c.meaning
        ));
    }
    out
}

pub fn info(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code == code)
}

/// One finding. `details` are the additive fields of the JSON issue
/// (`detailCode`, `phase`, `line`, ...), in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub code: &'static str,
    pub severity: Severity,
    pub class: Class,
    pub message: String,
    pub details: Vec<(&'static str, Value)>,
}

impl Issue {
    /// An issue with its code's default class and severity.
    pub fn new(code: &'static str, message: impl Into<String>) -> Issue {
        let info = info(code).expect("invariant: every emitted code is in CODES");
        Issue {
            code,
            severity: info.severity,
            class: info.class,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// The same issue at another severity, for rules whose force depends
    /// on the protocol version (MUST in one, SHOULD in another).
    pub fn at(mut self, severity: Severity) -> Issue {
        self.severity = severity;
        self
    }

    pub fn with(mut self, key: &'static str, value: impl Into<Value>) -> Issue {
        self.details.push((key, value.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn in_group(&self, group: Group) -> bool {
        info(self.code).is_some_and(|i| i.groups.contains(&group))
    }
}

/// What the checks need to know about the run besides the transcript.
#[derive(Debug, Clone)]
pub struct Context {
    /// The server argv as given (program first).
    pub argv: Vec<String>,
    /// The server's environment (names and values), for the buffering check.
    pub env: Vec<(String, String)>,
    pub max_stdout_bytes: u64,
    pub max_stdout_line_bytes: u64,
    pub max_stderr_bytes: u64,
    pub grace_ms: u64,
    /// The protocol version the guard requested.
    pub protocol: String,
}

impl Context {
    /// A context for unit tests: small limits, the default protocol.
    #[cfg(test)]
    pub fn for_tests() -> Context {
        Context {
            argv: vec![],
            env: vec![],
            max_stdout_bytes: 1000,
            max_stdout_line_bytes: 100,
            max_stderr_bytes: 1000,
            grace_ms: 2000,
            protocol: "2025-11-25".into(),
        }
    }
}

/// All issues of one run, in the order they were detected.
pub fn run(ctx: &Context, tr: &Transcript) -> Vec<Issue> {
    let mut issues = Vec::new();
    if lifecycle::python_is_buffered(&ctx.argv, &ctx.env) {
        issues.push(Issue::new(
            "python-buffered-stdio",
            "Python stdout is buffered when piped; use python -u or PYTHONUNBUFFERED=1 for MCP stdio servers",
        ));
    }
    if let Some(e) = &tr.spawn_error {
        issues.push(lifecycle::spawn_failed(e));
        return issues;
    }
    let mut judge = stdout::Judge::new(ctx, tr);
    for (index, entry) in tr.entries.iter().enumerate() {
        judge.entry(tr, index, entry, &mut issues);
        lifecycle::entry(tr, entry, &mut issues);
    }
    judge.finish(&mut issues);
    capabilities::check(tr, &mut issues);
    catalog::check(ctx, tr, &mut issues);
    toolcall::check(tr, &mut issues);
    adversarial::check(tr, &mut issues);
    lifecycle::after(ctx, tr, &mut issues);
    issues
}

/// One `static-stdout-write` issue per finding: warnings, or errors when
/// static findings fail the run.
pub fn static_scan(report: &crate::scan::ScanReport, fail: bool) -> Vec<Issue> {
    report
        .findings
        .iter()
        .map(|f| {
            let issue = Issue::new(
                "static-stdout-write",
                format!("{}:{} {}", f.path, f.line, f.message),
            )
            .with("file", f.path.clone())
            .with("line", f.line)
            .with("column", f.column)
            .with("language", f.language.as_str())
            .with("reason", f.reason)
            .with("reasons", f.reasons.clone());
            if fail {
                issue.at(Severity::Error)
            } else {
                issue
            }
        })
        .collect()
}

/// Quotes text from the server for a message: control characters escaped,
/// at most 160 characters, in double quotes.
pub fn quote(bytes: &[u8]) -> String {
    const MAX: usize = 160;
    // Decoded text, with each invalid byte kept as a `\xNN` escape.
    let mut pieces: Vec<Result<char, u8>> = Vec::new();
    for chunk in bytes.utf8_chunks() {
        pieces.extend(chunk.valid().chars().map(Ok));
        pieces.extend(chunk.invalid().iter().map(|&b| Err(b)));
    }
    let long = pieces.len() > MAX;
    let mut out = String::from("\"");
    for (count, piece) in pieces.into_iter().enumerate() {
        if long && count == MAX - 3 {
            out.push_str("...");
            break;
        }
        let c = match piece {
            Ok(c) => c,
            Err(b) => {
                out.push_str(&format!("\\x{b:02x}"));
                continue;
            }
        };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_control_characters_and_shortens() {
        assert_eq!(
            quote(b"hi \x1b[31mred\x07\n"),
            "\"hi \\u{1b}[31mred\\u{7}\\n\""
        );
        let long = "x".repeat(500);
        let q = quote(long.as_bytes());
        assert_eq!(q.len(), 157 + 3 + 2);
        assert!(q.ends_with("...\""));
        assert_eq!(quote(b"a\xffb"), "\"a\\xffb\"");
    }

    #[test]
    fn codes_are_unique_and_kebab_case() {
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
            let i = info(code).expect(code);
            assert_eq!((i.class, i.severity), (class, sev), "{code}");
        }
    }
}
