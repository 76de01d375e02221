//! The MCP script after the opening: the operations in order, the
//! capability probes (every advertised list, every page), the `call`
//! command's tool call, the adversarial probes, and the settle window. A
//! request that times out is cancelled and the script goes on; only an
//! exit, an interrupt or a fault no client could get past ends it.

use crate::obj;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::driver::{INTERRUPT_POLL, Outcome, ms};
use super::open::Opened;
use super::{Process, Record, Target};
use crate::args::call::CallSpec;
use crate::mcp;
use crate::plan::{AdvProbe, OpSource};

/// How long the notification and malformed-JSON probes watch for an answer
/// (or a crash), at least; `--settle` can lengthen it, the request timeout
/// caps it.
const OBSERVE_WINDOW: Duration = Duration::from_millis(500);

/// What the script has seen of the lists so far.
#[derive(Debug, Default)]
struct Lists {
    /// Lists an operation fetched from their first page: the method and
    /// the cursor it returned.
    covered: Vec<(String, Option<String>)>,
    /// Every tool listed so far, in order, kept only when a tool will be
    /// called (a copy of a large listing costs as much as the listing).
    tools: Vec<Value>,
    keep_tools: bool,
}

impl Lists {
    fn note(&mut self, method: &str, result: &Value) {
        if self.keep_tools
            && method == "tools/list"
            && let Some(tools) = result.get("tools").and_then(Value::as_array)
        {
            self.tools.extend(tools.iter().cloned());
        }
    }
}

/// The `nextCursor` of a list result, when it is a string.
fn next_cursor(result: &Value) -> Option<String> {
    result.get("nextCursor")?.as_str().map(String::from)
}

impl<P: Process> super::driver::Driver<'_, P> {
    pub(super) fn converse(&mut self) {
        let Some(opened) = self.open() else {
            return;
        };
        let mut lists = Lists {
            keep_tools: self.cfg.tool_call.is_some(),
            ..Lists::default()
        };
        for i in 0..self.cfg.operations.len() {
            if !self.operation(i, &mut lists) {
                return;
            }
        }
        if (self.cfg.capability_probes || self.cfg.force_tools_list)
            && !self.probe_capabilities(&opened, &mut lists)
        {
            return;
        }
        if let Some(spec) = &self.cfg.tool_call
            && !self.call_tool(spec, &lists)
        {
            return;
        }
        if !self.adversarial() {
            return;
        }
        let settle_end = Instant::now() + self.cfg.settle;
        self.wait_until(settle_end, INTERRUPT_POLL, |d| d.halted());
    }

    /// Sends one request and waits for its response under the request
    /// timeout. On timeout it tells the server it gave up (MCP: SHOULD) and
    /// the session goes on: one slow request is one failed exchange.
    fn exchange(
        &mut self,
        target: Target,
        method: &str,
        params: Option<&Value>,
        source: OpSource,
        cursor: Option<String>,
    ) -> Outcome {
        let spoke = self.spoke;
        let id = self.send_request(target, method, params, source, cursor);
        let answered = self.wait_for_reply(target, params);
        if answered && let Some(outcome) = self.take_reply(target) {
            return outcome;
        }
        if self.halted() {
            return Outcome::Halted;
        }
        self.requests.abandon(target);
        if !self.silent_methods.iter().any(|m| m == method) {
            self.silent_methods.push(method.to_string());
        }
        if self.silent_since.is_none() && self.spoke == spoke {
            self.silent_since = Some(spoke);
        }
        let timeout_ms = ms(self.cfg.request_timeout);
        self.timed_out(target, timeout_ms);
        let cancel = obj! {
            "jsonrpc" => "2.0",
            "method" => "notifications/cancelled",
            "params" => obj! {"requestId" => id, "reason" => "timeout"},
        };
        let mut bytes = cancel.to_string().into_bytes();
        bytes.push(b'\n');
        self.send_notification("notifications/cancelled", bytes);
        Outcome::TimedOut
    }

    /// Waits for the reply to `target` under the request timeout; a
    /// request that asked for progress (`_meta.progressToken`) is waited
    /// for while progress comes, each notification giving it the timeout
    /// again, up to the session's deadline (the robustness budget) or ten
    /// timeouts.
    fn wait_for_reply(&mut self, target: Target, params: Option<&Value>) -> bool {
        let start = Instant::now();
        let timeout = self.cfg.request_timeout;
        let asked = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .is_some();
        let mut limit = start + timeout.saturating_mul(10);
        if let Some(budget) = self.cfg.deadline {
            limit = limit.min(budget.max(start + timeout));
        }
        let mut deadline = start + timeout;
        loop {
            let answered = self.wait_until(deadline, INTERRUPT_POLL, |d| {
                !d.requests.is_pending(target) || d.halted()
            });
            let progress = self.last_progress.filter(|p| *p >= start);
            let later = progress.map(|p| (p + timeout).min(limit));
            match later {
                Some(next) if !answered && asked && next > deadline => deadline = next,
                _ => return answered,
            }
        }
    }

    /// Operation `i`. Returns false when the session has halted. A
    /// robustness call is left unsent past the deadline, or when an earlier
    /// call of its tool timed out.
    fn operation(&mut self, i: usize, lists: &mut Lists) -> bool {
        let op = &self.cfg.operations[i];
        let (method, params, source) = (op.method.clone(), op.params.clone(), op.source);
        let tool = (source == OpSource::RobustnessCall)
            .then(|| {
                params
                    .as_ref()
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str)
            })
            .flatten()
            .map(String::from);
        if let Some(tool) = &tool
            && (self.cfg.deadline.is_some_and(|d| Instant::now() >= d)
                || self.timed_out_tools.contains(tool))
        {
            return true;
        }
        match self.exchange(Target::Op(i), &method, params.as_ref(), source, None) {
            Outcome::Halted => false,
            Outcome::TimedOut => {
                self.timed_out_tools.extend(tool);
                true
            }
            Outcome::Result(result) => {
                lists.note(&method, &result);
                if params.is_none() && mcp::list_spec(&method).is_some() {
                    lists.covered.push((method, next_cursor(&result)));
                }
                true
            }
            _ => true,
        }
    }

    /// Lists everything the opening advertised, following `nextCursor`
    /// while it is a new string, for at most `mcp::MAX_PAGES` pages. A list
    /// an operation already fetched from its first page continues from that
    /// operation's cursor. Returns false when the session has halted.
    fn probe_capabilities(&mut self, opened: &Opened, lists: &mut Lists) -> bool {
        let advertised = mcp::advertised_keys(&opened.capabilities);
        let mut page_index = 0;
        for spec in &mcp::LISTS {
            let is_advertised = advertised.iter().any(|k| k == spec.capability);
            let wanted = (self.cfg.capability_probes && is_advertised)
                || (self.cfg.force_tools_list && spec.method == "tools/list");
            if !wanted {
                continue;
            }
            // The same method went unanswered, or the server has said
            // nothing since a request went unanswered: no second wait.
            let silent = self.silent_since == Some(self.spoke);
            if silent || self.silent_methods.iter().any(|m| m == spec.method) {
                self.emit(Record::ListSkipped {
                    method: spec.method.to_string(),
                });
                continue;
            }
            let mut cursor = None;
            let mut seen: Vec<String> = Vec::new();
            let mut pages = 0;
            if let Some((_, next)) = lists.covered.iter().find(|(m, _)| m == spec.method) {
                let Some(next) = next.clone() else { continue };
                seen.push(next.clone());
                cursor = Some(next);
                pages = 1;
            }
            while pages < mcp::MAX_PAGES {
                let params = cursor.as_ref().map(|c| obj! {"cursor" => c});
                let target = Target::Probe(page_index);
                page_index += 1;
                let outcome = self.exchange(
                    target,
                    spec.method,
                    params.as_ref(),
                    OpSource::CapabilityProbe,
                    cursor.clone(),
                );
                pages += 1;
                let result = match outcome {
                    Outcome::Halted => return false,
                    Outcome::Result(result) => result,
                    // An error or a timeout: the checks report it.
                    _ => break,
                };
                lists.note(spec.method, &result);
                match next_cursor(&result) {
                    Some(next) if !seen.contains(&next) => {
                        seen.push(next.clone());
                        cursor = Some(next);
                    }
                    // The end, or a cursor seen before (a loop, which the
                    // checks report).
                    _ => break,
                }
            }
        }
        true
    }

    /// Calls the `call` command's tool, its arguments typed from the listed
    /// schema. A tool or argument that does not fit is recorded and nothing
    /// is called. Returns false when the session has halted.
    fn call_tool(&mut self, spec: &CallSpec, lists: &Lists) -> bool {
        let arguments = match crate::args::call::arguments(&lists.tools, spec) {
            Ok(arguments) => arguments,
            Err(problem) => {
                self.emit(Record::CallRefused { problem });
                return true;
            }
        };
        let params = obj! {"name" => spec.tool, "arguments" => arguments};
        let target = Target::Op(self.cfg.operations.len());
        let outcome = self.exchange(target, "tools/call", Some(&params), OpSource::CliCall, None);
        outcome != Outcome::Halted
    }

    /// Runs every adversarial probe in order while the server lives; each
    /// is judged by the checks afterwards. Returns false when the session
    /// has halted (a crash during a probe ends the run).
    fn adversarial(&mut self) -> bool {
        // A longer --settle lengthens the window (a loaded machine).
        let observe = self
            .cfg
            .request_timeout
            .min(OBSERVE_WINDOW.max(self.cfg.settle));
        for i in 0..self.cfg.adversarial.len() {
            let probe = self.cfg.adversarial[i].clone();
            if probe.modern_only() && !self.modern {
                let reason = "a 2026-07-28 probe; this session spoke the 2025 era".to_string();
                self.emit(Record::ProbeSkipped { index: i, reason });
                continue;
            }
            if probe == AdvProbe::Builtin(crate::args::words::Probe::UnsupportedVersion) {
                // Asked as the opening message of a fresh process (SDKs pin
                // the version a connection opened with): the caller runs it.
                continue;
            }
            let started = Instant::now();
            self.emit(Record::ProbeStarted { index: i });
            self.active_probe = Some(i);
            let target = Target::Adversarial(i);
            match (probe.params(), probe.raw_line()) {
                (Some(params), _) => {
                    let source = OpSource::AdversarialProbe;
                    self.bare_next = probe.bare();
                    self.exchange(target, probe.method(), Some(&params), source, None);
                }
                (None, raw) => {
                    self.send_notification(probe.method(), raw.unwrap_or_default());
                    let end = Instant::now() + observe;
                    self.wait_until(end, INTERRUPT_POLL, |d| d.halted());
                }
            }
            // A crash in the window is judged as the probe's.
            self.await_exit_judged();
            self.active_probe = None;
            self.emit(Record::ProbeFinished {
                index: i,
                duration_ms: ms(started.elapsed()),
            });
            if self.halted() {
                return false;
            }
        }
        true
    }
}
