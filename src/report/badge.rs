//! The score as a shields.io endpoint badge (`--badge`): the JSON that
//! `https://img.shields.io/endpoint?url=...` reads (schemaVersion 1, label,
//! message, color), written so a README can show a server's grade.

use crate::obj;

use crate::verdict::Report;

pub fn render(r: &Report) -> String {
    let s = &r.score;
    of(u64::from(s.value), s.grade, s.color())
}

/// The badge of a score, its grade and colour.
pub fn of(value: u64, grade: &str, color: &str) -> String {
    crate::report::common::pretty(&obj! {
        "schemaVersion" => 1,
        "label" => "mcp-stdio-guard",
        "message" => format!("{value}/100 {grade}"),
        "color" => color,
    })
}
