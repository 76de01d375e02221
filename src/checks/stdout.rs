//! stdout hygiene and JSON-RPC matching: one verdict per stdout line, each
//! naming the physical line number and quoting the line.
//!
//! A server that logs to stdout in a loop would otherwise bury the report:
//! after `PER_CODE` issues of one code the rest are counted and reported as
//! one closing issue with the line range.

use std::collections::BTreeMap;

use crate::checks::traffic::Traffic;
use crate::checks::{Code, Context, Issue, Severity, initialize};
use crate::escape::quote;
use crate::jsonrpc::{self, Line};
use crate::mcp;
use crate::session::transcript::{Entry, EntryKind, Transcript};
use crate::session::{Role, StdoutLine, Target};

/// Issues of one stdout code listed one by one before the rest are summed.
const PER_CODE: usize = 10;

#[derive(Debug)]
struct Overflow {
    count: u64,
    first: u64,
    last: u64,
}

#[derive(Debug)]
pub struct Judge<'a> {
    ctx: &'a Context,
    listed: BTreeMap<&'static str, usize>,
    overflow: BTreeMap<&'static str, Overflow>,
    /// First CRLF line and how many there were.
    crlf: Option<(u64, u64)>,
    /// The protocol version whose rules apply.
    version: String,
    traffic: Traffic,
}

impl<'a> Judge<'a> {
    pub fn new(ctx: &'a Context, tr: &Transcript) -> Judge<'a> {
        Judge {
            ctx,
            listed: BTreeMap::new(),
            overflow: BTreeMap::new(),
            crlf: None,
            version: mcp::effective_version(&ctx.protocol, tr.negotiated_protocol()).to_string(),
            traffic: Traffic::default(),
        }
    }

    fn line_issue(&mut self, out: &mut Vec<Issue>, line: u64, offset: u64, issue: Issue) {
        let listed = self.listed.entry(issue.code.as_str()).or_insert(0);
        if *listed < PER_CODE {
            *listed += 1;
            out.push(issue.with("line", line).with("offset", offset));
            return;
        }
        let o = self
            .overflow
            .entry(issue.code.as_str())
            .or_insert(Overflow {
                count: 0,
                first: line,
                last: line,
            });
        o.count += 1;
        o.last = line;
    }

    /// Judges entry `index` of the transcript.
    pub fn entry(&mut self, tr: &Transcript, index: usize, entry: &Entry, out: &mut Vec<Issue>) {
        match &entry.kind {
            EntryKind::Line { .. } => self.line(tr, index, entry, out),
            EntryKind::Folded { .. } => self.folded(entry, out),
            EntryKind::Oversize {
                number,
                offset,
                head,
                len,
            } => {
                let issue = Issue::new(
                    Code::StdoutLineTooLarge,
                    format!(
                        "stdout line {number} is {len} bytes, over the {}-byte line limit (--max-stdout-line-bytes); it starts {}",
                        self.ctx.max_stdout_line_bytes,
                        quote(head)
                    ),
                )
                .with("bytes", *len)
                .with("limit", self.ctx.max_stdout_line_bytes);
                self.line_issue(out, *number, *offset, issue);
            }
            EntryKind::StdoutLimit { total } => out.push(
                Issue::new(
                    Code::StdoutOutputLimitExceeded,
                    format!(
                        "stdout passed the {}-byte limit (--max-stdout-bytes) at {total} bytes; the run was stopped",
                        self.ctx.max_stdout_bytes
                    ),
                )
                .with("limit", self.ctx.max_stdout_bytes),
            ),
            _ => {}
        }
    }

    /// One stdout line: its framing, its place in the exchange, and what
    /// the server started with it.
    fn line(&mut self, tr: &Transcript, index: usize, entry: &Entry, out: &mut Vec<Issue>) {
        let EntryKind::Line(StdoutLine {
            number,
            offset,
            bytes,
            terminated,
            line,
            crlf,
            quirks,
            role,
        }) = &entry.kind
        else {
            return;
        };
        {
            {
                let (n, off) = (*number, *offset);
                if *crlf {
                    let c = self.crlf.get_or_insert((n, 0));
                    c.1 += 1;
                }
                if !terminated && !matches!(line, Line::Blank) {
                    let issue = Issue::new(
                        Code::StdoutWithoutNewline,
                        format!(
                            "stdout ended with an incomplete JSON-RPC frame (line {n} has no newline): {}",
                            quote(bytes)
                        ),
                    );
                    self.line_issue(out, n, off, issue);
                    return;
                }
                if let Some(issue) = framing_issue(n, bytes, line, &self.version) {
                    self.line_issue(out, n, off, issue);
                }
                // A reply's content is judged from its request's record; only
                // the other messages are read again here.
                let value = match (line, role) {
                    (Line::Message(_), Role::Reply(_)) => Some(serde_json::Value::Null),
                    (Line::Message(_), _) => entry.value(),
                    _ => None,
                };
                for issue in quirk_issues(n, bytes, quirks) {
                    self.line_issue(out, n, off, issue);
                }
                let mut found = role_issues(
                    tr,
                    &self.ctx.protocol,
                    &self.version,
                    n,
                    bytes,
                    role,
                    value.as_ref(),
                );
                if let Some(value) = &value {
                    let provoked = tr.adversarial.iter().any(|a| a.entries.contains(&index));
                    found.extend(
                        self.traffic
                            .line(tr, &self.version, n, role, value, provoked),
                    );
                }
                for issue in found {
                    self.line_issue(out, n, off, issue);
                }
            }
        }
    }

    /// Faulty lines past `FOLD_AFTER` of their kind: they go straight to
    /// the closing sum.
    fn folded(&mut self, entry: &Entry, out: &mut Vec<Issue>) {
        let EntryKind::Folded {
            line,
            example,
            first,
            last,
            count,
            crlf,
        } = &entry.kind
        else {
            return;
        };
        if *crlf > 0 {
            let c = self.crlf.get_or_insert((*first, 0));
            c.1 += crlf;
        }
        if let Some(issue) = framing_issue(*first, example, line, &self.version) {
            *self.listed.entry(issue.code.as_str()).or_insert(0) = PER_CODE;
            let o = self
                .overflow
                .entry(issue.code.as_str())
                .or_insert(Overflow {
                    count: 0,
                    first: *first,
                    last: *last,
                });
            o.count += count;
            o.first = o.first.min(*first);
            o.last = o.last.max(*last);
            if !out.iter().any(|i| i.code == issue.code) {
                out.push(issue.with("line", *first));
            }
        }
    }

    pub fn finish(self, out: &mut Vec<Issue>) {
        for (code, o) in self.overflow {
            let template = out
                .iter()
                .find(|i| i.code.as_str() == code)
                .expect("invariant: overflow only follows listed issues");
            let mut summary = template.clone();
            summary.message = format!(
                "{} more stdout lines had the same problem ({code}), lines {} to {}",
                o.count, o.first, o.last
            );
            summary.details = vec![
                ("line", o.first.into()),
                ("lastLine", o.last.into()),
                ("count", o.count.into()),
            ];
            out.push(summary);
        }
        if let Some((first, count)) = self.crlf {
            let also = if count > 1 {
                format!(" ({count} lines in all)")
            } else {
                String::new()
            };
            out.push(
                Issue::new(Code::StdoutCrlfLineEnding,
                    format!(
                        "stdout line {first} ends with CRLF; MCP stdio messages end with a bare newline{also}"
                    ),
                )
                .with("line", first)
                .with("count", count),
            );
        }
    }
}

/// What was unusual about a message's JSON: nesting past the bound, a
/// lone surrogate.
fn quirk_issues(n: u64, bytes: &[u8], quirks: &crate::jsontext::Quirks) -> Vec<Issue> {
    let mut out = Vec::new();
    if quirks.too_deep {
        out.push(Issue::new(
            Code::StdoutMessageTooDeep,
            format!(
                "stdout line {n} nests deeper than {} levels: it was judged by its envelope, what lies deeper was not read (many clients refuse such a message)",
                crate::jsontext::MAX_DEPTH
            ),
        ));
    }
    if quirks.lone_surrogate {
        out.push(Issue::new(
            Code::StdoutLoneSurrogate,
            format!(
                "stdout line {n} holds a lone UTF-16 surrogate escape (\\uD800-\\uDFFF without its pair); JSON allows it, but many clients reject the message or replace the character: {}",
                quote(bytes)
            ),
        ));
    }
    out
}

/// The verdict on a line that is not a well-formed message.
pub fn framing_issue(n: u64, bytes: &[u8], line: &Line, version: &str) -> Option<Issue> {
    let issue = match line {
        Line::Invalid { batch: true, .. } => {
            let (severity, rule) = if version == mcp::BATCH_VERSION {
                (
                    Severity::Warning,
                    "2025-03-26 allows batches, but no official SDK client reads them",
                )
            } else {
                (
                    Severity::Error,
                    "MCP carries one message per line (only 2025-03-26 had batches)",
                )
            };
            Issue::new(
                Code::StdoutJsonRpcBatch,
                format!(
                    "stdout line {n} is a JSON-RPC batch array; {rule}: {}",
                    quote(bytes)
                ),
            )
            .at(severity)
        }
        Line::Message(_) => return None,
        Line::TooLarge {
            estimate,
            budget,
            len,
        } => Issue::new(
            Code::StdoutMessageTooLarge,
            format!(
                "stdout line {n} ({len} bytes) is JSON too dense to judge: held in memory it would take about {} MiB, past the bound of {} MiB (40 times its size, at most 192 MiB); the run was stopped. It starts {}",
                estimate >> 20,
                budget >> 20,
                quote(bytes)
            ),
        )
        .with("bytes", *len)
        .with("estimateBytes", *estimate)
        .with("limit", *budget),
        Line::Blank => Issue::new(Code::StdoutEmptyLine, format!("stdout line {n} is empty")),
        Line::ContentLength => Issue::new(
            Code::StdoutContentLengthFraming,
            format!(
                "stdout line {n} is a Content-Length header; MCP stdio frames each message as one line, not with LSP headers: {}",
                quote(bytes)
            ),
        ),
        Line::InvalidUtf8 { valid_up_to } => Issue::new(
            Code::StdoutInvalidUtf8,
            format!(
                "stdout line {n} is not valid UTF-8 (bad byte at offset {valid_up_to} of the line): {}",
                quote(bytes)
            ),
        ),
        Line::NotJson { bom: true, .. } => Issue::new(
            Code::StdoutNonJson,
            format!(
                "stdout line {n} starts with a UTF-8 byte order mark, which JSON-RPC forbids: {}",
                quote(bytes)
            ),
        ),
        Line::NotJson { .. } => Issue::new(
            Code::StdoutNonJson,
            format!("stdout line {n} is not JSON-RPC: {}", quote(bytes)),
        ),
        Line::Invalid { reason, .. } => Issue::new(
            Code::StdoutInvalidJsonRpc,
            format!(
                "stdout line {n} is not a valid JSON-RPC message ({reason}): {}",
                quote(bytes)
            ),
        ),
    };
    Some(issue)
}

fn id_text(value: Option<&serde_json::Value>) -> String {
    match value.and_then(|v| v.get("id")) {
        Some(id) => id.to_string(),
        None => "(none)".to_string(),
    }
}

/// The verdicts on how a message fits the exchange.
fn role_issues(
    tr: &Transcript,
    requested: &str,
    version: &str,
    n: u64,
    bytes: &[u8],
    role: &Role,
    value: Option<&serde_json::Value>,
) -> Vec<Issue> {
    let issue = match role {
        Role::Reply(target) => return reply_issues(tr, requested, *target),
        Role::ParseErrorReply => match parse_error_issue(version, n, value) {
            Some(issue) => issue,
            None => return Vec::new(),
        },
        Role::DuplicateReply(target) => Issue::new(
            Code::ResponseDuplicate,
            format!(
                "stdout line {n} is a second response to the {} request (id {}), which was already answered",
                tr.method_of(*target),
                id_text(value)
            ),
        ),
        Role::IdTypeMismatch { target, sent } => Issue::new(
            Code::ResponseIdTypeMismatch,
            format!(
                "{} response id {} does not exactly match request id {sent} (stdout line {n})",
                tr.method_of(*target),
                id_text(value)
            ),
        ),
        Role::UnknownId {
            pending: Some((target, sent)),
        } => Issue::new(
            Code::ResponseIdMismatch,
            format!(
                "{} response id {} does not match request id {sent} (stdout line {n})",
                tr.method_of(*target),
                id_text(value)
            ),
        ),
        Role::UnknownId { pending: None } => Issue::new(
            Code::ResponseIdMismatch,
            format!(
                "stdout line {n} is a response to id {}, which the guard never sent",
                id_text(value)
            ),
        ),
        Role::NotificationReply => Issue::new(
            Code::NotificationResponse,
            format!(
                "stdout line {n} answers a notification (id {}); notifications must get no response: {}",
                id_text(value),
                quote(bytes)
            ),
        ),
        Role::EchoedRequest(target) => Issue::new(
            Code::StdoutUnexpectedRequestId,
            format!(
                "stdout frame with id {} is not the {} response: it is the request echoed back (stdout line {n})",
                id_text(value),
                tr.method_of(*target)
            ),
        ),
        _ => return Vec::new(),
    };
    vec![issue]
}

/// The issues of a response to one of the guard's requests.
fn reply_issues(tr: &Transcript, requested: &str, target: Target) -> Vec<Issue> {
    if target == Target::Initialize && tr.modern() {
        // The guard's own fallback `initialize`, answered by a 2026-07-28
        // server: never the server's fault (a broken DiscoverResult, the
        // root cause when there is one, names the refusal).
        return Vec::new();
    }
    if target == Target::Initialize {
        return match &tr.init_reply {
            Some(Err(error)) if crate::checks::modern::modern_only_answer(error).is_some() => {
                let versions = crate::checks::modern::modern_only_answer(error).unwrap_or_default();
                vec![Issue::new(
                    Code::InitializeModernOnly,
                    format!(
                        "initialize got -32022 naming only {}: the server speaks only the 2026-07-28 era; judge it with --era auto",
                        versions.join(", ")
                    ),
                )]
            }
            Some(Err(error)) => vec![Issue::new(
                Code::InitializeError,
                format!(
                    "initialize returned error: {}",
                    jsonrpc::error_message(error)
                ),
            )],
            Some(Ok(result)) => initialize::result_issues(result, requested),
            None => Vec::new(),
        };
    }
    match tr.op(target).and_then(|op| op.error.as_ref()) {
        // Probe errors are judged as capability checks.
        Some(error) if matches!(target, Target::Op(_)) => vec![Issue::new(
            Code::OperationError,
            format!(
                "{} returned error: {}",
                tr.method_of(target),
                jsonrpc::error_message(error)
            ),
        )],
        _ => Vec::new(),
    }
}

/// A parse or invalid-request error without a usable id.
fn parse_error_issue(version: &str, n: u64, value: Option<&serde_json::Value>) -> Option<Issue> {
    let null = value.and_then(|v| v.get("id")).is_some();
    if !null && mcp::at_least(version, mcp::ERROR_ID_OPTIONAL_FROM) {
        return None;
    }
    let (how, rule) = if null {
        (
            "id null",
            "MCP ids are strings or integers, never null (from 2025-11-25 the id may be left out)",
        )
    } else {
        (
            "no id",
            "before 2025-11-25 every MCP response carries an id",
        )
    };
    Some(Issue::new(
        Code::ResponseIdNull,
        format!("stdout line {n} is a parse/invalid-request error with {how}; {rule}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::classify;

    fn ctx() -> Context {
        Context::for_tests()
    }

    fn line(number: u64, text: &str, role: Role) -> Entry {
        Entry {
            at_ms: number,
            kind: EntryKind::Line(StdoutLine {
                number,
                offset: number * 10,
                bytes: text.as_bytes().to_vec(),
                terminated: true,
                line: classify(text.as_bytes()).line,
                crlf: classify(text.as_bytes()).crlf,
                quirks: classify(text.as_bytes()).quirks,
                role,
            }),
        }
    }

    fn judge(tr: &Transcript) -> Vec<Issue> {
        let ctx = ctx();
        let mut j = Judge::new(&ctx, tr);
        let mut out = Vec::new();
        for e in &tr.entries {
            j.entry(tr, 0, e, &mut out);
        }
        j.finish(&mut out);
        out
    }

    fn transcript(entries: Vec<Entry>) -> Transcript {
        let mut tr = Transcript::with_op("tools/list");
        tr.entries = entries;
        tr
    }

    fn detail(issue: &Issue, key: &str) -> serde_json::Value {
        issue
            .details
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    #[test]
    fn a_banner_is_reported_with_its_physical_line_and_offset() {
        let tr = transcript(vec![
            line(
                1,
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                Role::Reply(Target::Initialize),
            ),
            line(2, "Listening on stdio", Role::NotAMessage),
        ]);
        let issues = judge(&tr);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].code, "stdout-non-json");
        assert_eq!(
            issues[0].message,
            "stdout line 2 is not JSON-RPC: \"Listening on stdio\""
        );
        assert_eq!(detail(&issues[0], "line"), 2);
        assert_eq!(detail(&issues[0], "offset"), 20);
    }

    #[test]
    fn a_flood_of_bad_lines_is_summed_after_ten() {
        let entries = (1..=25)
            .map(|n| line(n, "log line", Role::NotAMessage))
            .collect();
        let issues = judge(&transcript(entries));
        assert_eq!(issues.len(), 11);
        let last = &issues[10];
        assert_eq!(last.code, "stdout-non-json");
        assert!(
            last.message.contains("15 more stdout lines"),
            "{}",
            last.message
        );
        assert!(last.message.contains("lines 11 to 25"), "{}", last.message);
    }

    #[test]
    fn id_faults_name_the_method_and_ids() {
        let tr = transcript(vec![
            line(
                1,
                r#"{"jsonrpc":"2.0","id":"1","result":{}}"#,
                Role::IdTypeMismatch {
                    target: Target::Initialize,
                    sent: 1,
                },
            ),
            line(
                2,
                r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
                Role::UnknownId {
                    pending: Some((Target::Op(0), 2)),
                },
            ),
            line(
                3,
                r#"{"jsonrpc":"2.0","id":null,"result":{}}"#,
                Role::NotificationReply,
            ),
            line(
                4,
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
                Role::EchoedRequest(Target::Op(0)),
            ),
        ]);
        let issues = judge(&tr);
        let codes: Vec<&str> = issues.iter().map(|i| i.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "response-id-type-mismatch",
                "response-id-mismatch",
                "notification-response",
                "stdout-unexpected-request-id"
            ]
        );
        assert!(issues[0].message.contains("initialize response id \"1\""));
        assert!(
            issues[1]
                .message
                .contains("tools/list response id 7 does not match request id 2")
        );
        assert!(issues[3].message.contains("not the tools/list response"));
    }

    #[test]
    fn crlf_is_one_warning_with_a_count_and_valid_frames_pass() {
        let ok = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
        let tr = transcript(vec![
            line(1, &format!("{ok}\r"), Role::Notification),
            line(2, ok, Role::Notification),
            line(3, &format!("{ok}\r"), Role::Notification),
        ]);
        let issues = judge(&tr);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].code, "stdout-crlf-line-ending");
        assert_eq!(detail(&issues[0], "count"), 2);
        assert_eq!(detail(&issues[0], "line"), 1);
    }

    #[test]
    fn duplicates_batches_and_null_ids_follow_the_protocol_version() {
        let tr = transcript(vec![
            line(
                1,
                r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#,
                Role::DuplicateReply(Target::Op(0)),
            ),
            line(
                2,
                r#"[{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}]"#,
                Role::NotAMessage,
            ),
            line(
                3,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
                Role::ParseErrorReply,
            ),
            line(
                4,
                r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
                Role::ParseErrorReply,
            ),
        ]);
        let got: Vec<_> = judge(&tr)
            .iter()
            .map(|i| (i.code.as_str(), i.severity.as_str()))
            .collect();
        // Under 2025-11-25 an error without an id is allowed; a null id is not.
        assert_eq!(
            got,
            [
                ("response-duplicate", "error"),
                ("stdout-json-rpc-batch", "error"),
                ("response-id-null", "warning"),
            ]
        );
        let mut old = ctx();
        old.protocol = "2025-03-26".into();
        let mut j = Judge::new(&old, &tr);
        let mut out = Vec::new();
        for e in &tr.entries {
            j.entry(&tr, 0, e, &mut out);
        }
        let got: Vec<_> = out
            .iter()
            .map(|i| (i.code.as_str(), i.severity.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("response-duplicate", "error"),
                ("stdout-json-rpc-batch", "warning"),
                ("response-id-null", "warning"),
                ("response-id-null", "warning"),
            ]
        );
    }
}

/// One root cause, one error: a server that frames with LSP
/// `Content-Length` headers also leaves a blank separator line, CRLF
/// endings and a body without its newline. Those follow from the framing;
/// they are folded into its issue as `consequences` instead of standing as
/// findings of their own.
pub fn fold_content_length(issues: &mut Vec<Issue>) {
    let Some(at) = issues
        .iter()
        .position(|i| i.code == Code::StdoutContentLengthFraming)
    else {
        return;
    };
    let follows = |i: &Issue| {
        matches!(
            i.code,
            Code::StdoutEmptyLine
                | Code::StdoutCrlfLineEnding
                | Code::StdoutWithoutNewline
                | Code::StdoutNonJson
                | Code::StdoutInvalidJsonRpc
        )
    };
    let mut consequences: Vec<String> = Vec::new();
    for issue in issues.iter().filter(|i| follows(i)) {
        if !consequences.iter().any(|c| c == issue.code.as_str()) {
            consequences.push(issue.code.as_str().to_string());
        }
    }
    if consequences.is_empty() {
        return;
    }
    let mut root = issues.remove(at);
    issues.retain(|i| !follows(i));
    root.message.push_str(&format!(
        " (what follows from it is not reported apart: {})",
        consequences.join(", ")
    ));
    root.details.push(("consequences", consequences.into()));
    issues.insert(at.min(issues.len()), root);
}

#[cfg(test)]
mod content_length_tests {
    use super::*;

    #[test]
    fn content_length_framing_is_one_error_with_its_consequences() {
        let mut issues = vec![
            Issue::new(Code::StdoutContentLengthFraming, "line 1 is a header"),
            Issue::new(Code::StdoutEmptyLine, "line 2 is empty"),
            Issue::new(Code::StdoutWithoutNewline, "line 3 has no newline"),
            Issue::new(Code::StdoutCrlfLineEnding, "crlf"),
            Issue::new(Code::ServerCrashed, "unrelated"),
        ];
        fold_content_length(&mut issues);
        let codes: Vec<&str> = issues.iter().map(|i| i.code.as_str()).collect();
        assert_eq!(codes, ["stdout-content-length-framing", "server-crashed"]);
        assert_eq!(
            issues[0].detail("consequences"),
            Some(&serde_json::json!([
                "stdout-empty-line",
                "stdout-without-newline",
                "stdout-crlf-line-ending"
            ]))
        );
    }
}
