//! Colour for text output: ANSI sequences when on, plain text when off. The
//! only place that knows an escape sequence.

/// ANSI colour, when it is on.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    pub on: bool,
}

impl Paint {
    pub fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn pass(&self, text: &str) -> String {
        self.wrap("1;32", text)
    }

    pub fn fail(&self, text: &str) -> String {
        self.wrap("1;31", text)
    }

    pub fn error(&self, text: &str) -> String {
        self.wrap("31", text)
    }

    pub fn warning(&self, text: &str) -> String {
        self.wrap("33", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_is_added_only_when_on() {
        assert_eq!(Paint { on: false }.error("[error]"), "[error]");
        assert_eq!(
            Paint { on: true }.error("[error]"),
            "\x1b[31m[error]\x1b[0m"
        );
    }
}
