//! Capability honesty: a capability the server advertised must be listable.
//! This judges how each probe page was answered (method-not-found, another
//! error) and how the pages of each list chain together (`nextCursor` a
//! string, never repeating, at most `mcp::MAX_PAGES` pages). Timeouts and
//! exits during a probe are judged with the other timeouts and exits, in
//! `lifecycle`.

use serde_json::Value;

use crate::checks::{Code, Issue};
use crate::jsonrpc::{self, describe};
use crate::mcp::{self, LISTS};
use crate::session::transcript::Transcript;

pub fn check(tr: &Transcript, out: &mut Vec<Issue>) {
    let advertised = tr.opening_result().map(mcp::advertised).unwrap_or_default();
    let stderr = crate::checks::said::read(&tr.stderr.text());
    for probe in &tr.probes {
        let Some(error) = &probe.error else {
            continue;
        };
        let capability = mcp::list_spec(&probe.method).map_or("", |s| s.capability);
        if !advertised.contains(&capability) {
            // Listed without being advertised (the `tools` command asks
            // anyway): an error answer breaks no promise.
            continue;
        }
        let code = jsonrpc::error_code(error);
        let text = jsonrpc::error_message(error);
        let method = probe.method.as_str();
        let issue = match code {
            Some(-32601) if method == "resources/templates/list" => Issue::new(
                Code::ResourceTemplatesListUnsupported,
                format!(
                    "the server advertises resources but answered resources/templates/list with method not found: {text}"
                ),
            ),
            Some(-32601) => Issue::new(
                Code::CapabilityListUnsupported,
                format!(
                    "the server advertises {capability} but answered {method} with method not found: {text}"
                ),
            ),
            // An error answer is allowed; one that asks for configuration
            // (in its words or on stderr) says what the server lacks.
            _ if asks_for_configuration(error) || stderr.config => {
                let mut message = format!(
                    "{method} (advertised capability {capability}) answered an error that asks for configuration: {text}"
                );
                if let Some(said) = stderr.quote().filter(|_| stderr.config) {
                    message.push_str(&format!(
                        " (stderr: {})",
                        crate::escape::quote(said.as_bytes())
                    ));
                }
                message.push_str("; it needs configuration the guard did not give it");
                if !stderr.names.is_empty() {
                    let flags: Vec<String> =
                        stderr.names.iter().map(|n| format!("--env {n}")).collect();
                    message.push_str(&format!(" (pass {})", flags.join(", ")));
                }
                Issue::new(Code::CapabilityListNeedsConfiguration, message)
                    .with("variables", stderr.names.clone())
            }
            _ => Issue::new(
                Code::CapabilityListError,
                format!("{method} (advertised capability {capability}) returned error: {text}"),
            ),
        };
        out.push(
            issue
                .with("method", method)
                .with("errorCode", code.map_or(Value::Null, Value::from)),
        );
    }
    for spec in &LISTS {
        if let Some(issue) = cursor_issue(tr, spec.method) {
            out.push(issue.with("method", spec.method));
        }
    }
}

/// Whether an error object's message or data asks for configuration.
fn asks_for_configuration(error: &Value) -> bool {
    let text = format!(
        "{}\n{}",
        jsonrpc::error_message(error),
        error.get("data").map_or(String::new(), Value::to_string)
    );
    crate::checks::said::read(&text).config
}

/// Walks one list's pages and reports the first cursor fault.
fn cursor_issue(tr: &Transcript, method: &str) -> Option<Issue> {
    let chain = tr.list_chain(method);
    let mut seen: Vec<&str> = Vec::new();
    for (page, record) in chain.iter().enumerate() {
        let next = record.result.as_ref()?.get("nextCursor")?;
        let page = page + 1;
        let Some(cursor) = next.as_str() else {
            return Some(Issue::new(
                Code::CapabilityListInvalidCursor,
                format!(
                    "{method} page {page} has nextCursor {}, which must be a string (or absent at the end)",
                    describe(next)
                ),
            ));
        };
        if seen.contains(&cursor) {
            return Some(
                Issue::new(Code::CapabilityListInvalidCursor,
                    format!(
                        "{method} page {page} returns nextCursor {next}, a cursor it returned before: the pages loop"
                    ),
                )
                .with("cursor", cursor),
            );
        }
        seen.push(cursor);
        if page >= mcp::MAX_PAGES {
            return Some(Issue::new(
                Code::CapabilityListInvalidCursor,
                format!(
                    "{method} still returned a nextCursor after {} pages; the guard stopped following it",
                    mcp::MAX_PAGES
                ),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::transcript::OpRecord;
    use serde_json::json;

    fn page(method: &str, result: Option<Value>, error: Option<Value>) -> OpRecord {
        let mut r = OpRecord::new(method, None, crate::plan::OpSource::CapabilityProbe);
        r.responded = result.is_some() || error.is_some();
        r.result = result;
        r.error = error;
        r
    }

    fn codes(probes: Vec<OpRecord>) -> Vec<&'static str> {
        let mut tr = Transcript::for_tests();
        tr.init_reply = Some(Ok(
            json!({"capabilities": {"tools": {}, "resources": {}, "prompts": {}}}),
        ));
        tr.probes = probes;
        let mut out = Vec::new();
        check(&tr, &mut out);
        out.iter().map(|i| i.code.as_str()).collect()
    }

    #[test]
    fn answered_pages_with_fresh_cursors_pass() {
        let probes = vec![
            page(
                "tools/list",
                Some(json!({"tools": [], "nextCursor": "a"})),
                None,
            ),
            page(
                "tools/list",
                Some(json!({"tools": [], "nextCursor": "b"})),
                None,
            ),
            page("tools/list", Some(json!({"tools": []})), None),
        ];
        assert!(codes(probes).is_empty());
    }

    #[test]
    fn method_not_found_is_unsupported_and_other_errors_are_errors() {
        let nf = json!({"code": -32601, "message": "Method not found"});
        let ie = json!({"code": -32603, "message": "boom"});
        assert_eq!(
            codes(vec![page("prompts/list", None, Some(nf.clone()))]),
            ["capability-list-unsupported"]
        );
        assert_eq!(
            codes(vec![page("resources/templates/list", None, Some(nf))]),
            ["resource-templates-list-unsupported"]
        );
        assert_eq!(
            codes(vec![page("resources/list", None, Some(ie))]),
            ["capability-list-error"]
        );
    }

    #[test]
    fn an_error_from_a_list_that_was_not_advertised_is_no_broken_promise() {
        let mut tr = Transcript::for_tests();
        tr.init_reply = Some(Ok(json!({"capabilities": {}})));
        tr.probes = vec![page(
            "tools/list",
            None,
            Some(json!({"code": -32601, "message": "nf"})),
        )];
        let mut out = Vec::new();
        check(&tr, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn null_and_repeated_cursors_are_invalid() {
        assert_eq!(
            codes(vec![page(
                "tools/list",
                Some(json!({"tools": [], "nextCursor": null})),
                None
            )]),
            ["capability-list-invalid-cursor"]
        );
        let looping = vec![
            page(
                "tools/list",
                Some(json!({"tools": [], "nextCursor": "x"})),
                None,
            ),
            page(
                "tools/list",
                Some(json!({"tools": [], "nextCursor": "x"})),
                None,
            ),
        ];
        assert_eq!(codes(looping), ["capability-list-invalid-cursor"]);
    }

    #[test]
    fn more_than_the_page_bound_is_reported() {
        let pages = (0..mcp::MAX_PAGES)
            .map(|n| {
                page(
                    "tools/list",
                    Some(json!({"tools": [], "nextCursor": n.to_string()})),
                    None,
                )
            })
            .collect();
        assert_eq!(codes(pages), ["capability-list-invalid-cursor"]);
    }
}
