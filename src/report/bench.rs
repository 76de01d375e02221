//! `bench`'s report: its figures as text (a latency table and the
//! throughput) followed by every issue, or the JSON document with its
//! `bench` block (latencies in microseconds) and every issue.

use crate::obj;
use serde_json::{Value, json};

use crate::report::common::{issue_value, pretty};
use crate::report::style::Paint;
use crate::session::Speaks;
use crate::session::bench::{Measured, Stats};
use crate::verdict::Report;

/// The table (or the JSON document), then every issue.
pub fn render(report: &Report, measured: &Measured, json: bool) -> String {
    if json {
        return pretty(&obj! {
            "schemaVersion" => 1,
            "ok" => report.ok(),
            "command" => report.subject.command,
            "negotiatedProtocol" => report.first().negotiated(),
            "bench" => value(measured),
            "issues" => report.issues.iter().map(issue_value).collect::<Vec<_>>(),
        });
    }
    let plain = Paint { on: false };
    let mut text = text(measured);
    for line in crate::report::text::issue_lines(&report.issues, &plain) {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// The `bench` block of the JSON report.
pub fn value(r: &Measured) -> Value {
    obj! {
        "era" => r.speaks.map(Speaks::as_str),
        "liveness" => r.liveness,
        "method" => r.method,
        "coldStart" => r.cold_start.value(),
        "warm" => obj! {
            "liveness" => r.warm_liveness.value(),
            "toolsList" => r.tools_list.value(),
            "tool" => r.tool.as_ref().map(|(n, s)| json!({"name": n, "latency": s.value()})),
        },
        "sequential" => r.sequential.value(),
        "burst" => r.burst.value(),
        "guardShareUs" => r.guard_share.value(),
    }
}

fn ms(us: u64) -> String {
    crate::clock::thousandths(us)
}

/// The text table.
pub fn text(r: &Measured) -> String {
    let mut out = String::new();
    let row = |name: &str, s: &Stats| {
        format!(
            "{name:<22} {:>6} {:>9} {:>9} {:>9} {:>9}\n",
            s.count,
            ms(s.p50_us),
            ms(s.p95_us),
            ms(s.p99_us),
            ms(s.max_us)
        )
    };
    out.push_str(&format!(
        "era: {} (liveness: {})\n",
        r.speaks.map_or("?", Speaks::as_str),
        r.liveness
    ));
    out.push_str(&format!(
        "{:<22} {:>6} {:>9} {:>9} {:>9} {:>9}\n",
        "latency (ms)", "n", "p50", "p95", "p99", "max"
    ));
    out.push_str(&row("cold start", &r.cold_start));
    out.push_str(&row(&format!("warm {}", r.liveness), &r.warm_liveness));
    out.push_str(&row("tools/list", &r.tools_list));
    if let Some((name, s)) = &r.tool {
        out.push_str(&row(&format!("tool {}", crate::escape::line(name)), s));
    }
    out.push_str(&row(&format!("{} x1", r.method), &r.sequential.latency));
    out.push_str(&row(
        &format!("{} x{}", r.method, r.burst.concurrency),
        &r.burst.latency,
    ));
    out.push_str(&format!(
        "throughput: {} requests/s one at a time, {}/s with {} in flight ({} sent, {}, {})\n",
        r.sequential.rate().round() as u64,
        r.burst.rate().round() as u64,
        r.burst.concurrency,
        r.burst.sent,
        crate::plural::count(r.burst.errors as usize, "error"),
        crate::plural::count(r.burst.timeouts as usize, "timeout")
    ));
    out.push_str(&format!(
        "guard's own share per reply: p50 {} us, max {} us\n",
        r.guard_share.p50_us, r.guard_share.max_us
    ));
    out
}
