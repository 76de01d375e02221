//! The output of the audit commands: `tools` (a table of the server's
//! tools, or with `--json` its tool objects unaltered) and `call` (the tool
//! result: text as text, other content summarised, `structuredContent` as
//! JSON). Issues follow, as in the check report. Server text is escaped.

use crate::obj;
use serde_json::Value;

use crate::escape;
use crate::report::common::{issue_value, pretty};
use crate::report::style::Paint;
use crate::verdict::Report;

fn issue_lines(r: &Report) -> String {
    let plain = Paint { on: false };
    crate::report::text::issue_lines(&r.issues, &plain)
        .into_iter()
        .map(|l| l + "\n")
        .collect()
}

fn issues_json(r: &Report) -> Value {
    r.issues.iter().map(issue_value).collect()
}

/// `name: type` for each required argument of a tool.
fn required_args(tool: &Value) -> String {
    let schema = tool.get("inputSchema");
    let props = schema.and_then(|s| s.get("properties"));
    let required: Vec<String> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(|name| {
                    let ty = props
                        .and_then(|p| p.get(name))
                        .and_then(|p| p.get("type"))
                        .map_or("any".to_string(), |t| match t {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        });
                    format!("{name}: {ty}")
                })
                .collect()
        })
        .unwrap_or_default();
    required.join(", ")
}

/// `text` escaped, cut to `width` characters with a `…` marking the cut,
/// padded to `width`.
fn cell(text: &str, width: usize) -> String {
    let t = escape::line(text);
    let n = t.chars().count();
    let t: String = if n > width && width > 0 {
        t.chars()
            .take(width - 1)
            .chain(std::iter::once('…'))
            .collect()
    } else {
        t
    };
    crate::report::common::padded(&t, width)
}

/// The table's rows: name, title, first description line, required args.
fn rows(tools: &[Value]) -> Vec<[String; 4]> {
    tools
        .iter()
        .map(|t| {
            let text = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
            let title = t
                .get("title")
                .and_then(Value::as_str)
                .or_else(|| t.pointer("/annotations/title").and_then(Value::as_str))
                .unwrap_or("");
            let first_line = text("description").lines().next().unwrap_or("");
            [
                escape::line(text("name")),
                escape::line(title),
                escape::line(first_line),
                escape::line(&required_args(t)),
            ]
        })
        .collect()
}

/// The table: the name column is never cut (it must paste into `call`);
/// the others share what is left of `width`, each cut marked with `…`.
fn table(tools: &[Value], width: usize) -> String {
    let rows = rows(tools);
    let longest = |i: usize, head: &str| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain(std::iter::once(head.len()))
            .max()
            .unwrap_or(0)
    };
    let name_w = longest(0, "NAME");
    let room = width.saturating_sub(name_w + 3);
    // Natural widths when they fit. Otherwise the title and the arguments
    // keep at most a fifth of the room each, and the description takes
    // what is left (at least 11).
    let (mut title_w, mut desc_w, mut req_w) = (
        longest(1, "TITLE"),
        longest(2, "DESCRIPTION"),
        longest(3, "REQUIRED"),
    );
    if title_w + desc_w + req_w > room {
        title_w = title_w.min((room / 5).max(5));
        req_w = req_w.min((room / 5).max(8));
        desc_w = desc_w.min(room.saturating_sub(title_w + req_w)).max(11);
    }
    let mut out = format!(
        "{} {} {} {}\n",
        cell("NAME", name_w),
        cell("TITLE", title_w),
        cell("DESCRIPTION", desc_w),
        cell("REQUIRED", req_w).trim_end()
    );
    for r in &rows {
        let line = format!(
            "{} {} {} {}",
            cell(&r[0], name_w),
            cell(&r[1], title_w),
            cell(&r[2], desc_w),
            cell(&r[3], req_w)
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `server: NAME VERSION, protocol P, era E`.
fn server_line(r: &Report) -> String {
    let run = r.first();
    let field = |k: &str| {
        run.server_info
            .as_ref()
            .and_then(|i| i.get(k))
            .and_then(Value::as_str)
            .unwrap_or("?")
    };
    let era = run.era.as_ref().map_or("?", |e| e.speaks.as_str());
    format!(
        "server: {} {}, protocol {}, era {}\n",
        escape::line(field("name")),
        escape::line(field("version")),
        escape::line(run.negotiated()),
        era
    )
}

/// `tools`: the table (or JSON), then the issues; the table fits `width`
/// columns.
pub fn render_tools(r: &Report, as_json: bool, width: usize) -> String {
    let run = r.first();
    let tools = &run.tools;
    if as_json {
        let doc = obj! {
            "schemaVersion" => 1,
            "ok" => r.ok(),
            "command" => r.subject.command,
            "negotiatedProtocol" => run.negotiated(),
            "serverInfo" => run.server_info.clone(),
            "tools" => tools,
            "issues" => issues_json(r),
        };
        return pretty(&doc);
    }
    let mut out = String::new();
    if run.initialized {
        out.push_str(&server_line(r));
    }
    if tools.is_empty() {
        out.push_str(if run.initialized {
            "no tools listed\n"
        } else {
            "no tools listed: the server did not complete initialize\n"
        });
    } else {
        out.push_str(&table(tools, width));
    }
    out.push_str(&format!("{}\n", crate::plural::count(tools.len(), "tool")));
    out.push_str(&issue_lines(r));
    out
}

/// One content block as text: text as is, the rest summarised.
fn block_text(block: &Value) -> String {
    let kind = block.get("type").and_then(Value::as_str).unwrap_or("?");
    let s = |k: &str| block.get(k).and_then(Value::as_str).unwrap_or("");
    match kind {
        "text" => s("text").to_string(),
        "image" | "audio" => format!(
            "[{kind} {}, {} bytes of base64]",
            s("mimeType"),
            s("data").len()
        ),
        "resource_link" => format!("[resource link {} ({})]", s("uri"), s("name")),
        "resource" => {
            let res = block.get("resource");
            let uri = res
                .and_then(|r| r.get("uri"))
                .and_then(Value::as_str)
                .unwrap_or("");
            match res.and_then(|r| r.get("text")).and_then(Value::as_str) {
                Some(text) => format!("[resource {uri}]\n{text}"),
                None => format!("[resource {uri}, binary]"),
            }
        }
        other => format!("[{other} content]"),
    }
}

/// `call`: the result (or why there is none), then the issues.
pub fn render_call(r: &Report, as_json: bool) -> String {
    let run = r.first();
    let op = run.cli_call();
    if as_json {
        let params = op.and_then(|o| o.params.as_ref());
        let check = run.structured.as_ref().map(|v| {
            let status = if !v.errors.is_empty() {
                "fail"
            } else if v.unchecked.is_empty() {
                "pass"
            } else {
                "partial"
            };
            obj! {"status" => status, "errors" => v.errors, "notChecked" => v.unchecked}
        });
        let doc = obj! {
            "schemaVersion" => 1,
            "ok" => r.exit_code() == 0,
            "command" => r.subject.command,
            "tool" => params.and_then(|p| p.get("name")),
            "arguments" => params.and_then(|p| p.get("arguments")),
            "problem" => run.call_problem,
            "result" => op.and_then(|o| o.result.clone()),
            "error" => op.and_then(|o| o.error.clone()),
            "structuredContentCheck" => check,
            "issues" => issues_json(r),
        };
        return pretty(&doc);
    }
    let mut out = String::new();
    match op {
        Some(op) => {
            if let Some(result) = &op.result {
                for block in result
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    out.push_str(&escape::multiline(&block_text(block)));
                    out.push('\n');
                }
                if let Some(sc) = result.get("structuredContent") {
                    out.push_str("structuredContent:\n");
                    let pretty = serde_json::to_string_pretty(sc)
                        .expect("invariant: a Value always serializes");
                    out.push_str(&escape::multiline(&pretty));
                    out.push('\n');
                }
                if let Some(v) = &run.structured
                    && !v.unchecked.is_empty()
                {
                    out.push_str(&format!(
                        "outputSchema keywords not checked: {}\n",
                        v.unchecked.join(", ")
                    ));
                }
                if result.get("isError") == Some(&Value::Bool(true)) {
                    out.push_str("the tool reported an error (isError: true)\n");
                }
            } else if let Some(error) = &op.error {
                out.push_str(&format!(
                    "tools/call returned error: {}\n",
                    escape::line(&crate::jsonrpc::error_message(error))
                ));
            } else {
                out.push_str(&format!(
                    "tools/call got no response within {} ms; a slow tool needs a longer --timeout\n",
                    r.subject.timeout_ms
                ));
            }
        }
        None => {
            if !run.initialized {
                out.push_str("the server did not complete initialize; nothing was called\n");
            }
        }
    }
    out.push_str(&issue_lines(r));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_long_name_is_never_cut_and_every_other_cut_is_marked() {
        let tools = vec![json!({
            "name": "trigger-long-running-operation",
            "title": "Trigger a long running operation",
            "description": "Demonstrates a long running operation with progress updates",
            "inputSchema": {"type": "object", "properties": {"duration": {"type": "number"}},
                "required": ["duration"]},
        })];
        let out = table(&tools, 60);
        let row = out.lines().nth(1).expect("row");
        assert!(row.starts_with("trigger-long-running-operation "), "{out}");
        assert!(row.contains('…'), "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 60), "{out}");
        // Room enough: nothing is cut.
        assert!(!table(&tools, 200).contains('…'));
    }
}
