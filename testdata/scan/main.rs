//! A Rust MCP server. println!("in a doc comment")
use std::io::{self, Write};

/* println!("block /* nested */ comment") */
const RAW: &str = r#"println!("in a raw string")"#;
const ESCAPED: &str = "print!(\"in a string\")";

fn send(message: &serde_json::Value) -> io::Result<()> {
    // The protocol channel.
    serde_json::to_writer(&mut io::stdout().lock(), message)?;
    let line = serde_json::to_string(message)?;
    println!("{line}");
    println!("{}", serde_json::to_string(message)?);
    Ok(())
}

fn main() {
    eprintln!("diagnostics go to stderr");
    dbg!(RAW.len());
    println!("server starting"); // expect: rust-print-macro
    print!("no newline"); // expect: rust-print-macro
    let mut out = io::stdout(); // expect: rust-stdout-handle
    let _ = writeln!(out, "{}", ESCAPED);
    let c = '"';
    let s = "a lifetime-free string";
    println!( // expect: rust-print-macro
        "{} {}",
        c, s
    );
}

fn longest<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.len() > b.len() { a } else { b }
}
