//! The context cost of a server's definitions: what a client puts in every
//! prompt once the server is connected, its tools (name, description and
//! input schema, the members a client passes to a model) and its
//! `instructions`. Tokens are estimated as bytes / 4, rounded up: a stated
//! estimate, not any model's tokenizer. Over the budget (`--context-budget`)
//! is a warning. Pure.

use serde_json::Value;

use crate::checks::{Code, Issue};
use crate::session::transcript::Transcript;

/// The estimate's rule, as the report states it.
pub const ESTIMATE: &str = "bytes/4";

/// One tool's share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCost {
    pub name: String,
    pub bytes: usize,
    pub tokens: usize,
}

/// The cost of everything the server adds to a prompt.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContextCost {
    /// Per tool (shared between runs that listed the same).
    pub tools: std::sync::Arc<Vec<ToolCost>>,
    pub instructions_bytes: usize,
    pub total_bytes: usize,
    pub total_tokens: usize,
    pub budget_tokens: u64,
}

pub fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// Counts the bytes written to it.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The size of the members of a tool a client passes to a model, as
/// compact JSON (`{"name":…,"description":…,"inputSchema":…}`), counted
/// as it would be written, without a copy of the tool.
fn model_view_len(tool: &Value) -> usize {
    let mut count = Count(0);
    let mut members = 0;
    for key in ["name", "description", "inputSchema"] {
        if let Some(v) = tool.get(key) {
            // `"key":` and a comma before every member but the first.
            count.0 += key.len() + 3 + usize::from(members > 0);
            let _ = serde_json::to_writer(&mut count, v);
            members += 1;
        }
    }
    count.0 + 2
}

/// The server's `instructions`, from its opening result.
pub fn instructions(tr: &Transcript) -> Option<&str> {
    tr.opening_result()
        .and_then(|r| r.get("instructions"))
        .and_then(Value::as_str)
}

/// What a session's listed tools and instructions cost.
pub fn of_session(tr: &Transcript, budget_tokens: u64) -> ContextCost {
    ContextCost::of(tr.listed("tools/list"), instructions(tr), budget_tokens)
}

impl ContextCost {
    pub fn of<'a>(
        tools: impl IntoIterator<Item = &'a Value>,
        instructions: Option<&str>,
        budget_tokens: u64,
    ) -> ContextCost {
        let tools: Vec<ToolCost> = tools
            .into_iter()
            .map(|t| {
                let bytes = model_view_len(t);
                ToolCost {
                    name: t
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    bytes,
                    tokens: tokens(bytes),
                }
            })
            .collect();
        let instructions_bytes = instructions.map_or(0, str::len);
        let total_bytes = tools.iter().map(|t| t.bytes).sum::<usize>() + instructions_bytes;
        ContextCost {
            tools: tools.into(),
            instructions_bytes,
            total_bytes,
            total_tokens: tokens(total_bytes),
            budget_tokens,
        }
    }

    pub fn over_budget(&self) -> bool {
        self.total_tokens as u64 > self.budget_tokens
    }

    /// The warning when the definitions pass the budget, naming the
    /// costliest tools.
    pub fn issue(&self) -> Option<Issue> {
        if !self.over_budget() {
            return None;
        }
        let mut costly: Vec<&ToolCost> = self.tools.iter().collect();
        crate::order::sort_by(&mut costly, |a, b| {
            b.tokens.cmp(&a.tokens).then(a.name.cmp(&b.name))
        });
        let top: Vec<String> = costly
            .iter()
            .take(3)
            .map(|t| format!("{} ~{}", crate::escape::quote(t.name.as_bytes()), t.tokens))
            .collect();
        Some(
            Issue::new(
                Code::ContextBudgetExceeded,
                format!(
                    "the definitions add about {} tokens ({} bytes, estimated as {ESTIMATE}) to every prompt, over the budget of {} (--context-budget); costliest: {}",
                    self.total_tokens,
                    self.total_bytes,
                    self.budget_tokens,
                    top.join(", ")
                ),
            )
            .with("tokens", self.total_tokens)
            .with("budgetTokens", self.budget_tokens),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_are_bytes_over_four_and_the_budget_warns() {
        let tool = json!({"name": "echo", "description": "Echoes.", "title": "not counted",
            "inputSchema": {"type": "object"}});
        let view = r#"{"name":"echo","description":"Echoes.","inputSchema":{"type":"object"}}"#;
        let cost = ContextCost::of(std::slice::from_ref(&tool), Some("Use echo."), 100);
        assert_eq!(cost.tools[0].bytes, view.len());
        assert_eq!(cost.tools[0].tokens, view.len().div_ceil(4));
        assert_eq!(cost.total_bytes, view.len() + 9);
        assert!(cost.issue().is_none());
        let tight = ContextCost::of(std::slice::from_ref(&tool), None, 5);
        let issue = tight.issue().expect("over budget");
        assert_eq!(issue.code, Code::ContextBudgetExceeded);
        assert!(issue.message.contains("\"echo\" ~18"), "{}", issue.message);
    }
}
