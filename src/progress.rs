//! The one status line of a long command (`batch`, `bench`, `--robustness`,
//! `--repeat`, a big `lint`), on stderr only: drawn when stderr is a
//! terminal, or when `--progress` forces it (`--no-progress` never),
//! redrawn at most ten times a second, kept to the terminal's width, and
//! erased before anything else is written. Off, it costs one branch.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// The least time between two redraws.
const REDRAW: Duration = Duration::from_millis(100);

/// The status line of one command.
#[derive(Debug)]
pub struct Progress {
    on: bool,
    /// When the line was last drawn.
    drawn_at: Option<Instant>,
    /// The characters on screen now (0: nothing to erase).
    shown: usize,
    width: usize,
}

impl Progress {
    /// The line as asked: `Some(true)` forces it, `Some(false)` keeps it
    /// off, `None` draws it when stderr is a terminal (and TERM is not
    /// `dumb`).
    pub fn new(choice: Option<bool>) -> Progress {
        let on = choice.unwrap_or_else(|| {
            std::io::stderr().is_terminal() && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        });
        let width = if on {
            crate::sys::stderr_columns().unwrap_or(80)
        } else {
            80
        };
        Progress {
            on,
            drawn_at: None,
            shown: 0,
            width: width.saturating_sub(1).max(20),
        }
    }

    /// A line that is never drawn.
    pub fn off() -> Progress {
        Progress::new(Some(false))
    }

    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Draws the line `text` makes, unless it was drawn less than a tenth
    /// of a second ago (`text` is then not even called).
    pub fn show(&mut self, text: impl FnOnce() -> String) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        if self.drawn_at.is_some_and(|t| now < t + REDRAW) {
            return;
        }
        self.drawn_at = Some(now);
        self.draw(&text());
    }

    /// Draws `text` now, whenever the last line was drawn (a step that
    /// will take a while).
    pub fn now(&mut self, text: impl FnOnce() -> String) {
        if self.on {
            self.drawn_at = Some(Instant::now());
            self.draw(&text());
        }
    }

    /// Erases the line, so what follows starts on a clean one.
    pub fn clear(&mut self) {
        if self.on && self.shown > 0 {
            let blank = " ".repeat(self.shown);
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{blank}\r");
            let _ = err.flush();
            self.shown = 0;
        }
    }

    fn draw(&mut self, text: &str) {
        let line = fit(text, self.width);
        let shown = line.chars().count();
        let pad = " ".repeat(self.shown.saturating_sub(shown));
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}{pad}");
        let _ = err.flush();
        self.shown = shown;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `text` on one line within `width` characters: control characters (a
/// server's name may hold any) become spaces, and a line too long ends in
/// `…`.
fn fit(text: &str, width: usize) -> String {
    let clean = text.chars().map(|c| if c.is_control() { ' ' } else { c });
    let count = text.chars().count();
    if count <= width {
        return clean.collect();
    }
    let mut cut: String = clean.take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `done/total noun`, as the line shows counts (`3/7 servers`).
pub fn of(done: usize, total: usize, noun: &str) -> String {
    let words = crate::plural::count(total, noun);
    let noun = words.split_once(' ').map_or(noun, |(_, w)| w);
    format!("{done}/{total} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_fits_its_width_and_carries_no_control_character() {
        assert_eq!(fit("short", 10), "short");
        assert_eq!(fit("a\x1b[31mb\r\nc", 40), "a [31mb  c");
        let long = fit(&"x".repeat(100), 20);
        assert_eq!(long.chars().count(), 20);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn counts_name_their_noun_in_the_plural_of_the_total() {
        assert_eq!(of(3, 7, "server"), "3/7 servers");
        assert_eq!(of(0, 1, "server"), "0/1 server");
        assert_eq!(of(12, 40, "call"), "12/40 calls");
    }

    #[test]
    fn a_line_that_is_off_draws_nothing_and_asks_for_no_text() {
        let mut p = Progress::off();
        assert!(!p.is_on());
        p.show(|| unreachable!("an off line never builds its text"));
        p.now(|| unreachable!("an off line never builds its text"));
        p.clear();
        assert_eq!(p.shown, 0);
    }
}
