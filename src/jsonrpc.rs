//! JSON-RPC 2.0 as MCP uses it over stdio: classifying one stdout line, and
//! building the messages the guard writes. Pure functions, no I/O.

use crate::obj;
use serde_json::{Map, Value};

/// What one stdout line is, before any judgement about the session.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// Empty or whitespace only.
    Blank,
    /// An LSP-style `Content-Length:` header instead of a JSON line.
    ContentLength,
    /// Bytes that are not UTF-8; `valid_up_to` is where decoding failed.
    InvalidUtf8 { valid_up_to: usize },
    /// Text that does not parse as JSON.
    NotJson { error: String, bom: bool },
    /// JSON that is not a JSON-RPC 2.0 message.
    Invalid { reason: String, batch: bool },
    /// JSON too large to judge: its parsed form would take about
    /// `estimate` bytes, more than `budget` (`jsontext::message_budget` of
    /// its `len` bytes).
    TooLarge {
        estimate: u64,
        budget: u64,
        len: u64,
    },
    /// A well-formed JSON-RPC message.
    Message(Message),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Request {
        id: Value,
        method: String,
    },
    Notification {
        method: String,
    },
    /// A response. `id` is `None` when the member is absent; `error_code`
    /// is the code of an error response (`None` for a result).
    Response {
        id: Option<Value>,
        error_code: Option<i64>,
    },
}

/// A classified line: what it is, whether it ended in `\r`, the parsed
/// JSON when it was a message, and what was unusual about its JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Classified {
    pub line: Line,
    pub crlf: bool,
    pub value: Option<Value>,
    pub quirks: crate::jsontext::Quirks,
}

/// The members of a message's envelope `classify_envelope` reads.
const ENVELOPE: [&str; 6] = ["jsonrpc", "id", "method", "result", "error", "params"];

/// Where each member of `ENVELOPE` stands in the object `src` holds (the
/// text checked strictly on the way); `None` for anything but one object
/// whose keys have no escape and whose envelope members come once.
fn envelope_spans(src: &[u8]) -> Option<[Option<(usize, usize)>; 6]> {
    use crate::jsontext::{skip_ws, string_end_strict, value_end};
    let mut i = skip_ws(src, 0);
    if src.get(i) != Some(&b'{') {
        return None;
    }
    let mut spans: [Option<(usize, usize)>; 6] = [None; 6];
    i = skip_ws(src, i + 1);
    loop {
        let key_end = string_end_strict(src, i).filter(|_| src[i] == b'"')?;
        let key = &src[i + 1..key_end - 1];
        if key.contains(&b'\\') {
            return None;
        }
        i = skip_ws(src, key_end);
        if src.get(i) != Some(&b':') {
            return None;
        }
        let from = skip_ws(src, i + 1);
        let to = value_end(src, from)?;
        if let Some(k) = ENVELOPE.iter().position(|m| m.as_bytes() == key) {
            if spans[k].is_some() {
                return None;
            }
            spans[k] = Some((from, to));
        }
        i = skip_ws(src, to);
        match src.get(i) {
            Some(b',') => i = skip_ws(src, i + 1),
            Some(b'}') => break,
            _ => return None,
        }
    }
    (skip_ws(src, i + 1) == src.len()).then_some(spans)
}

/// A member's value: a string without escapes or a small integer taken
/// as written (the text was checked), anything else parsed.
fn member_value(raw: &str) -> Option<Value> {
    let b = raw.as_bytes();
    if b.len() >= 2 && b[0] == b'"' && !raw[1..raw.len() - 1].contains('\\') {
        return Some(Value::String(raw[1..raw.len() - 1].to_string()));
    }
    if !b.is_empty() && b.len() <= 15 && b.iter().all(u8::is_ascii_digit) {
        return raw.parse::<u64>().ok().map(Value::from);
    }
    serde_json::from_str::<Value>(raw).ok()
}

/// Classifies a line as `classify` does, reading only its envelope: the
/// text is checked strictly without building it, and only `jsonrpc`,
/// `id`, `method` and `error` are parsed, and `params` when
/// `params_wanted(method)`; a `result` is checked, never built. The
/// judgement (`validate`) is the same; the value holds only `params`, when
/// they were wanted. `None` for whatever `classify` must read itself (not
/// a well-formed message, a key with an escape, a member twice, a
/// surrogate escape): call it then.
pub fn classify_envelope(bytes: &[u8], params_wanted: &dyn Fn(&str) -> bool) -> Option<Classified> {
    let (bytes, crlf) = match bytes.strip_suffix(b"\r") {
        Some(rest) => (rest, true),
        None => (bytes, false),
    };
    let text = std::str::from_utf8(bytes).ok()?;
    if !text.trim_start().starts_with('{') {
        return None;
    }
    crate::jsontext::fits(text, crate::jsontext::message_budget(text.len())).ok()?;
    let spans = envelope_spans(text.as_bytes())?;
    let parse = |(from, to): (usize, usize)| member_value(&text[from..to]);
    // The members as parsed (a result as `null`: it is checked, not built).
    let mut members: [Option<Value>; 6] = Default::default();
    for k in [0, 1, 2, 4] {
        if let Some(span) = spans[k] {
            members[k] = Some(parse(span)?);
        }
    }
    members[3] = spans[3].map(|_| Value::Null);
    let member = |key: &str| {
        let k = ENVELOPE.iter().position(|m| *m == key)?;
        members[k].as_ref()
    };
    let message = validate_members(&member).ok()?;
    let wanted = match &message {
        Message::Request { method, .. } | Message::Notification { method } => params_wanted(method),
        Message::Response { .. } => false,
    };
    let value = match spans[5] {
        Some((from, to)) if wanted => {
            let t = &text[from..to];
            let params = crate::jsontext::parse_within(t, crate::jsontext::message_budget(t.len()))
                .ok()?
                .0;
            Some(crate::obj! {"params" => params})
        }
        _ => None,
    };
    Some(Classified {
        line: Line::Message(message),
        crlf,
        value,
        quirks: crate::jsontext::Quirks::default(),
    })
}

/// Classifies one stdout line (without its `\n`).
pub fn classify(bytes: &[u8]) -> Classified {
    let (bytes, crlf) = match bytes.strip_suffix(b"\r") {
        Some(rest) => (rest, true),
        None => (bytes, false),
    };
    let done = |line| Classified {
        line,
        crlf,
        value: None,
        quirks: crate::jsontext::Quirks::default(),
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            return done(Line::InvalidUtf8 {
                valid_up_to: e.valid_up_to(),
            });
        }
    };
    if text.trim().is_empty() {
        return done(Line::Blank);
    }
    if is_content_length_header(text) {
        return done(Line::ContentLength);
    }
    let (bom, json_text) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let budget = crate::jsontext::message_budget(json_text.len());
    let (value, quirks) = match crate::jsontext::parse_within(json_text, budget) {
        Ok(parsed) if !bom => parsed,
        Ok(_) => {
            return done(Line::NotJson {
                error: "the line starts with a UTF-8 byte order mark".to_string(),
                bom,
            });
        }
        Err(crate::jsontext::Fail::TooLarge { estimate, budget }) => {
            let len = json_text.len() as u64;
            return done(Line::TooLarge {
                estimate,
                budget,
                len,
            });
        }
        Err(crate::jsontext::Fail::Syntax(error)) => return done(Line::NotJson { error, bom }),
    };
    match validate(&value) {
        Ok(msg) => Classified {
            line: Line::Message(msg),
            crlf,
            value: Some(value),
            quirks,
        },
        Err(reason) => done(Line::Invalid {
            reason,
            batch: value.is_array(),
        }),
    }
}

fn is_content_length_header(text: &str) -> bool {
    let lower = text.trim_start().as_bytes();
    lower.len() >= 14
        && lower[..14].eq_ignore_ascii_case(b"content-length")
        && text.trim_start()[14..].trim_start().starts_with(':')
}

/// Checks the JSON-RPC envelope; the first rule broken is the reason.
pub fn validate(value: &Value) -> Result<Message, String> {
    let obj = match value {
        Value::Object(obj) => obj,
        Value::Array(_) => {
            return Err(
                "a JSON-RPC batch array; MCP stdio carries one message per line".to_string(),
            );
        }
        _ => return Err("JSON-RPC frame must be an object".to_string()),
    };
    validate_members(&|k| obj.get(k))
}

/// The envelope's rules over an object's members (`member(key)`).
fn validate_members<'v>(member: &dyn Fn(&str) -> Option<&'v Value>) -> Result<Message, String> {
    if member("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err("JSON-RPC frame must include jsonrpc: \"2.0\"".to_string());
    }
    let has_result = member("result").is_some();
    let error = member("error");
    let has_error = error.is_some();
    match member("method") {
        Some(Value::String(method)) => {
            if has_result || has_error {
                return Err("request/notification frame must not include result or error".into());
            }
            match member("id") {
                None => Ok(Message::Notification {
                    method: method.clone(),
                }),
                Some(id) if is_valid_id(id) => Ok(Message::Request {
                    id: id.clone(),
                    method: method.clone(),
                }),
                Some(id) => Err(format!(
                    "request id must be a string or an integer, not {}",
                    describe(id)
                )),
            }
        }
        Some(other) => Err(format!("method must be a string, not {}", describe(other))),
        None => {
            if !has_result && !has_error {
                return Err(if member("id").is_some() {
                    "response frame must include result or error".to_string()
                } else {
                    "notification/request frame must include method".to_string()
                });
            }
            if has_result && has_error {
                return Err("response frame must not include both result and error".to_string());
            }
            if let Some(error) = error {
                check_error_object(error)?;
            }
            let id = member("id").cloned();
            if let Some(id) = &id
                && !id.is_null()
                && !is_valid_id(id)
            {
                return Err(format!(
                    "response id must be a string or an integer, not {}",
                    describe(id)
                ));
            }
            Ok(Message::Response {
                id,
                // An integer code too large for i64 still marks an error.
                error_code: error.map(|e| error_code(e).unwrap_or(i64::MIN)),
            })
        }
    }
}

fn check_error_object(error: &Value) -> Result<(), String> {
    let Some(obj) = error.as_object() else {
        return Err(format!(
            "error must be an object with code and message, not {}",
            describe(error)
        ));
    };
    match obj.get("code") {
        Some(code) if code.is_i64() || code.is_u64() => {}
        Some(code) => {
            return Err(format!(
                "error.code must be an integer, not {}",
                describe(code)
            ));
        }
        None => return Err("error object must include an integer code".to_string()),
    }
    match obj.get("message") {
        Some(Value::String(_)) => Ok(()),
        Some(m) => Err(format!(
            "error.message must be a string, not {}",
            describe(m)
        )),
        None => Err("error object must include a string message".to_string()),
    }
}

/// MCP ids are strings or integers (never floats, booleans, arrays, objects).
pub fn is_valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// A short description of a JSON value's type, for messages.
pub fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a fractional number",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The error code of an error object, when it is an integer.
pub fn error_code(error: &Value) -> Option<i64> {
    error.get("code").and_then(Value::as_i64)
}

/// The error message of an error object, or its JSON.
pub fn error_message(error: &Value) -> String {
    match error.get("message").and_then(Value::as_str) {
        Some(m) => m.to_string(),
        None => error.to_string(),
    }
}

fn line(value: Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&value).expect("invariant: a Value always serializes");
    bytes.push(b'\n');
    bytes
}

pub fn request(id: u64, method: &str, params: Option<&Value>) -> Vec<u8> {
    let mut msg = Map::new();
    msg.insert("jsonrpc".into(), "2.0".into());
    msg.insert("id".into(), id.into());
    msg.insert("method".into(), method.into());
    if let Some(params) = params {
        msg.insert("params".into(), params.clone());
    }
    line(Value::Object(msg))
}

pub fn notification(method: &str) -> Vec<u8> {
    line(obj! {"jsonrpc" => "2.0", "method" => method})
}

pub fn result_response(id: &Value, result: Value) -> Vec<u8> {
    line(obj! {"jsonrpc" => "2.0", "id" => id, "result" => result})
}

pub fn error_response(id: &Value, code: i64, message: &str) -> Vec<u8> {
    line(obj! {
        "jsonrpc" => "2.0",
        "id" => id,
        "error" => obj! {"code" => code, "message" => message},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line_of(text: &str) -> Line {
        classify(text.as_bytes()).line
    }

    fn reason(text: &str) -> String {
        match line_of(text) {
            Line::Invalid { reason, .. } => reason,
            other => panic!("expected invalid, got {other:?}"),
        }
    }

    #[test]
    fn messages_are_told_apart() {
        assert_eq!(
            line_of(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Line::Message(Message::Response {
                id: Some(json!(1)),
                error_code: None
            })
        );
        assert_eq!(
            line_of(r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#),
            Line::Message(Message::Request {
                id: json!("a"),
                method: "ping".into()
            })
        );
        assert_eq!(
            line_of(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#),
            Line::Message(Message::Notification {
                method: "notifications/message".into()
            })
        );
        assert_eq!(
            line_of(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
            Line::Message(Message::Response {
                id: Some(Value::Null),
                error_code: Some(-32700)
            })
        );
    }

    #[test]
    fn framing_faults_are_classified() {
        assert_eq!(line_of("   "), Line::Blank);
        assert_eq!(line_of("Content-Length: 52"), Line::ContentLength);
        assert_eq!(line_of("content-length :1"), Line::ContentLength);
        assert!(matches!(
            line_of("server starting..."),
            Line::NotJson { bom: false, .. }
        ));
        assert!(matches!(
            line_of("\u{feff}{}"),
            Line::NotJson { bom: true, .. }
        ));
        assert_eq!(
            classify(b"{\"a\":\xff}").line,
            Line::InvalidUtf8 { valid_up_to: 5 }
        );
        let c = classify(b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r");
        assert!(c.crlf);
        assert!(matches!(c.line, Line::Message(_)));
    }

    #[test]
    fn envelope_rules_give_a_reason() {
        assert!(reason("[1]").contains("batch"));
        assert!(reason("5").contains("must be an object"));
        assert!(reason(r#"{"level":"info","msg":"started"}"#).contains("jsonrpc"));
        assert!(
            reason(r#"{"jsonrpc":"2.0","method":"x","result":{}}"#).contains("must not include")
        );
        assert!(reason(r#"{"jsonrpc":"2.0","id":1}"#).contains("must include result or error"));
        assert!(reason(r#"{"jsonrpc":"2.0"}"#).contains("must include method"));
        assert!(reason(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#).contains("both"));
        assert!(
            reason(r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#)
                .contains("error.code must be an integer")
        );
        assert!(reason(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#).contains("message"));
        assert!(reason(r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#).contains("fractional"));
        assert!(reason(r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#).contains("boolean"));
        assert!(reason(r#"{"jsonrpc":"2.0","method":7}"#).contains("method must be a string"));
    }

    #[test]
    fn built_messages_are_single_lines() {
        let r = request(2, "tools/list", None);
        assert_eq!(
            r,
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
        );
        let r = request(3, "x", Some(&json!({"a": "b\nc"})));
        assert_eq!(r.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(
            notification("n"),
            b"{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n"
        );
        assert_eq!(
            error_response(&json!("q"), -32601, "nope"),
            b"{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"error\":{\"code\":-32601,\"message\":\"nope\"}}\n"
        );
    }
}

#[cfg(test)]
mod envelope_tests {
    use super::*;

    /// Lines of every shape: messages, near-messages, and what only the
    /// whole reader can judge.
    const LINES: &[&str] = &[
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}"#,
        r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"bad","data":[1,2.5e-3,null,true]}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":3}}}"#,
        r#" { "id" : 2 , "jsonrpc" : "2.0" , "result" : [ ] } "#,
        r#"{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":1,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":2.5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
        r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":"\ud800"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":"caf\u00e9 \" \\ \/ \n"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
        r#"{"json\u0072pc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":01}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":1.}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":[1,]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}} x"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":tru}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":1e400}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#,
        r#"{}"#,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"a\tb\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r",
        "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
        "Content-Length: 12",
        "hello",
        "",
    ];

    #[test]
    fn the_envelope_reader_judges_every_line_as_the_whole_reader_does() {
        let all = |_: &str| true;
        let mut read = 0;
        for line in LINES {
            let whole = classify(line.as_bytes());
            let Some(env) = classify_envelope(line.as_bytes(), &all) else {
                continue;
            };
            read += 1;
            assert_eq!(env.line, whole.line, "{line}");
            assert_eq!(env.crlf, whole.crlf, "{line}");
            let params = |c: &Classified| c.value.as_ref().and_then(|v| v.get("params").cloned());
            assert_eq!(params(&env), params(&whole), "{line}");
        }
        // The messages are read by it, not handed back.
        assert!(read >= 9, "{read}");
    }

    /// Every line one byte away from a message (a byte dropped, or one of
    /// JSON's own put in): whatever the envelope reader reads, it reads as
    /// the whole reader does.
    #[test]
    fn lines_one_byte_away_are_judged_alike() {
        let mut read = 0;
        for line in &LINES[..5] {
            let b = line.as_bytes();
            let mut variants: Vec<Vec<u8>> = Vec::new();
            for at in 0..b.len() {
                let mut v = b.to_vec();
                v.remove(at);
                variants.push(v);
                for c in [b'"', b',', b'}', b']', b'\\', b'0', b'-', b'e', b' ', 0x01] {
                    let mut v = b.to_vec();
                    v.insert(at, c);
                    variants.push(v);
                }
            }
            for v in variants {
                if let Some(env) = classify_envelope(&v, &|_| true) {
                    read += 1;
                    let whole = classify(&v);
                    assert_eq!(env.line, whole.line, "{}", String::from_utf8_lossy(&v));
                }
            }
        }
        assert!(read > 100, "{read}");
    }

    #[test]
    fn what_only_the_whole_reader_can_judge_is_handed_back() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":"\ud800"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
            r#"{"json\u0072pc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":[1,]}}"#,
            r#"{"jsonrpc":"2.0","id":2.5,"result":{}}"#,
            "hello",
        ] {
            assert_eq!(
                classify_envelope(line.as_bytes(), &|_| true),
                None,
                "{line}"
            );
        }
        // A result is checked, never built.
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"text":"{}"}}}}"#,
            "x".repeat(200_000)
        );
        let env = classify_envelope(big.as_bytes(), &|_| true).expect("a message");
        assert_eq!(env.value, None);
        // Params are parsed only when wanted.
        let progress = LINES[2].as_bytes();
        let skipped = classify_envelope(progress, &|_| false).expect("a message");
        assert_eq!(skipped.value, None);
    }
}
