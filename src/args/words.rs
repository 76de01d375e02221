//! The words a user chooses with: profiles, colour, `--env` forms and the
//! adversarial probes. Each parses from the text a flag or a config field
//! holds (`FromStr`) and prints back as that text, so the command line, the
//! config file and the report share one spelling. No I/O.

use std::fmt;
use std::str::FromStr;

/// A value that is not one of the allowed words: what was given, and the
/// words that would have been accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotOneOf {
    pub given: String,
    pub allowed: &'static [&'static str],
}

impl fmt::Display for NotOneOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not one of {}",
            self.given,
            self.allowed.join(", ")
        )
    }
}

/// Declares a word enum: variants, their spelling, `FromStr`, `as_str`.
macro_rules! words {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vmeta])* $variant,)* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
            pub const NAMES: &'static [&'static str] = &[$($text,)*];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text,)* }
            }
        }

        impl FromStr for $name {
            type Err = NotOneOf;
            fn from_str(s: &str) -> Result<Self, NotOneOf> {
                match s {
                    $($text => Ok($name::$variant),)*
                    _ => Err(NotOneOf { given: s.to_string(), allowed: $name::NAMES }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

words! {
    /// The deterministic presets of the 1.0 tool.
    #[derive(Default)]
    Profile {
        /// The flags as given (the default).
        #[default]
        Custom = "custom",
        /// Initialize only (and --request): no capability probes.
        Smoke = "smoke",
        /// Capability probes and two runs for cold/warm consistency.
        Registry = "registry",
        /// JSON output; static findings fail when --scan is used.
        Ci = "ci",
        /// ci + registry + every built-in adversarial probe.
        Strict = "strict",
    }
}

words! {
    /// When to colour text output.
    #[derive(Default)]
    ColorChoice {
        #[default]
        Auto = "auto",
        Always = "always",
        Never = "never",
    }
}

words! {
    /// The built-in adversarial probes, in the order they run.
    Probe {
        InvalidMethod = "invalid-method",
        InvalidParams = "invalid-params",
        Notification = "notification",
        MalformedJson = "malformed-json",
        /// 2026-07-28 only: a request without the required `_meta`.
        MissingMeta = "missing-meta",
        /// 2026-07-28 only: a version the server cannot support, as the
        /// opening message of a fresh process.
        UnsupportedVersion = "unsupported-version",
    }
}

impl Probe {
    /// Whether the probe belongs to the 2026-07-28 era only (skipped in a
    /// 2025-era session).
    pub fn modern_only(self) -> bool {
        matches!(self, Probe::MissingMeta | Probe::UnsupportedVersion)
    }
}

words! {
    /// `--confine`: what the server may touch.
    #[derive(Default)]
    Confine {
        /// No filter, no ruleset: the server runs with the user's reach.
        #[default]
        Off = "off",
        /// Record what the server touches; deny nothing.
        Observe = "observe",
        /// Landlock denies what the policy does not allow; still recorded.
        Enforce = "enforce",
        /// As `enforce`, and refuse to run where something cannot be
        /// enforced.
        Require = "require",
    }
}

words! {
    /// The shells `completions` writes for.
    Shell {
        Bash = "bash",
        Zsh = "zsh",
        Fish = "fish",
    }
}

words! {
    /// `--annotations`: GitHub workflow commands, or none.
    #[derive(Default)]
    Annotations {
        /// GitHub's when `GITHUB_ACTIONS=true`.
        #[default]
        Auto = "auto",
        Github = "github",
        None = "none",
    }
}

words! {
    /// Which protocol era the session speaks (`--era`).
    #[derive(Default)]
    Era {
        /// Probe with `server/discover`, fall back to `initialize`.
        #[default]
        Auto = "auto",
        /// The 2025 handshake only (no probe).
        Legacy = "legacy",
        /// 2026-07-28 only: the server must answer `server/discover`.
        Modern = "modern",
        /// Judge every era the server claims, each on a fresh process.
        Both = "both",
    }
}

/// Every word a probe list may hold.
pub const PROBE_LIST_WORDS: &[&str] = &[
    "all",
    "none",
    "invalid-method",
    "invalid-params",
    "notification",
    "malformed-json",
    "missing-meta",
    "unsupported-version",
];

/// A probe list as a flag or config field spells it: `all`, `none`, or
/// comma-separated names, run in the order given. Duplicates are dropped.
pub fn probe_list(text: &str) -> Result<Vec<Probe>, NotOneOf> {
    match text.trim() {
        "all" => return Ok(Probe::ALL.to_vec()),
        "none" | "" => return Ok(Vec::new()),
        _ => {}
    }
    let mut chosen = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let probe: Probe = name.parse().map_err(|_| NotOneOf {
            given: name.to_string(),
            allowed: PROBE_LIST_WORDS,
        })?;
        if !chosen.contains(&probe) {
            chosen.push(probe);
        }
    }
    Ok(chosen)
}

/// One `--env` argument (or config `env` entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvSpec {
    /// `--env NAME`: forward NAME from the guard's environment.
    Forward(String),
    /// `--env NAME=VALUE`: set NAME to VALUE in the server's environment.
    Set(String, String),
}

impl EnvSpec {
    pub fn name(&self) -> &str {
        match self {
            EnvSpec::Forward(name) | EnvSpec::Set(name, _) => name,
        }
    }
}

/// Why an `--env` text is not a usable NAME or NAME=VALUE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEnv(pub &'static str);

impl FromStr for EnvSpec {
    type Err = BadEnv;
    fn from_str(text: &str) -> Result<Self, BadEnv> {
        let (name, value) = match text.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(BadEnv("the NAME is empty"));
        }
        if name.contains('\0') || value.is_some_and(|v| v.contains('\0')) {
            return Err(BadEnv(
                "it holds a NUL byte, which no environment can carry",
            ));
        }
        Ok(match value {
            Some(value) => EnvSpec::Set(name.to_string(), value.to_string()),
            None => EnvSpec::Forward(name.to_string()),
        })
    }
}

/// The documented range of one numeric setting, shared by its flag and its
/// config field so both refuse the same values with the same words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    pub min: u64,
    pub max: u64,
    /// What the number counts, for messages (`ms`, `bytes`, `runs`).
    pub unit: &'static str,
    /// A value within the range that a user would give, for hints.
    pub example: u64,
}

impl Bound {
    /// Reads `text` as a whole number within the range. The error says
    /// what is wrong in words that fit after the setting's name.
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        let digits = text.trim();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "must be a whole number of {} from {} to {}, not '{text}'",
                self.unit, self.min, self.max
            ));
        }
        match digits.parse::<u64>() {
            Ok(n) => self.check(n),
            Err(_) => Err(format!(
                "must be at most {} {}, not {text}",
                self.max, self.unit
            )),
        }
    }

    pub fn check(&self, n: u64) -> Result<u64, String> {
        if n < self.min || n > self.max {
            Err(format!(
                "must be from {} to {} {}, not {n}",
                self.min, self.max, self.unit
            ))
        } else {
            Ok(n)
        }
    }
}

/// `--timeout`, `--startup-timeout`, `timeoutMs`: 100 ms to one hour.
pub const TIMEOUT_MS: Bound = Bound {
    min: 100,
    max: 3_600_000,
    unit: "ms",
    example: 10000,
};
/// `--settle` and `--shutdown-grace`: up to one minute.
pub const WINDOW_MS: Bound = Bound {
    min: 0,
    max: 60_000,
    unit: "ms",
    example: 500,
};
/// `--era-window`: how long `--era auto` waits for the discover probe
/// before it also sends `initialize`: 50 ms to 10 s.
pub const ERA_WINDOW_MS: Bound = Bound {
    min: 50,
    max: 10_000,
    unit: "ms",
    example: 2000,
};
/// `--context-budget`: tokens of definitions per prompt.
pub const CONTEXT_BUDGET: Bound = Bound {
    min: 1,
    max: 10_000_000,
    unit: "tokens",
    example: 20000,
};
/// `--max-stdout-bytes`: 1 byte to 1 GiB.
pub const STDOUT_BYTES: Bound = Bound {
    min: 1,
    max: 1 << 30,
    unit: "bytes",
    example: 134217728,
};
/// `--max-stdout-line-bytes`: 1 byte to 256 MiB.
pub const LINE_BYTES: Bound = Bound {
    min: 1,
    max: 1 << 28,
    unit: "bytes",
    example: 33554432,
};
/// `--max-stderr-bytes`: 1 byte to 256 MiB (what is kept is held in memory).
pub const STDERR_BYTES: Bound = Bound {
    min: 1,
    max: 1 << 28,
    unit: "bytes",
    example: 2097152,
};
/// `bench --samples`: 1 to 100 fresh processes.
pub const SAMPLES: Bound = Bound {
    min: 1,
    max: 100,
    unit: "samples",
    example: 20,
};
/// `batch --jobs`: 1 to 256 checks at once.
pub const JOBS: Bound = Bound {
    min: 1,
    max: 256,
    unit: "checks at once",
    example: 4,
};
/// `bench --concurrency`: 1 to 256 requests in flight.
pub const CONCURRENCY: Bound = Bound {
    min: 1,
    max: 256,
    unit: "requests",
    example: 8,
};
/// `bench --requests`: the burst's size, 1 to one million.
pub const BENCH_REQUESTS: Bound = Bound {
    min: 1,
    max: 1_000_000,
    unit: "requests",
    example: 1000,
};
/// `bench --duration`: the burst's wall time, 1 s to 10 minutes.
pub const BENCH_DURATION_S: Bound = Bound {
    min: 1,
    max: 600,
    unit: "s",
    example: 10,
};
/// `--robustness-samples`: 1 to 50 valid calls per tool.
pub const ROBUSTNESS_SAMPLES: Bound = Bound {
    min: 1,
    max: 50,
    unit: "calls",
    example: 8,
};
/// `--robustness-budget`: 1 s to 1 hour.
pub const ROBUSTNESS_BUDGET: Bound = Bound {
    min: 1000,
    max: 3_600_000,
    unit: "ms",
    example: 120000,
};
/// `--seed`: any 32-bit number.
pub const SEED: Bound = Bound {
    min: 0,
    max: 4_294_967_295,
    unit: "",
    example: 7,
};
/// `--repeat`: 1 to 100 runs.
pub const REPEAT: Bound = Bound {
    min: 1,
    max: 100,
    unit: "runs",
    example: 3,
};

/// Levenshtein distance over bytes (flag and field names are ASCII).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known name closest to a mistyped one, when within `max` edits.
pub fn closest<'a>(
    given: &str,
    known: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (edit_distance(given, k), k))
        .filter(|(d, _)| *d <= max)
        .min()
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_and_print_the_same_spelling() {
        for p in Profile::ALL {
            assert_eq!(p.as_str().parse::<Profile>(), Ok(*p));
        }
        let e = "fast".parse::<Profile>().expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "'fast' is not one of custom, smoke, registry, ci, strict"
        );
        assert_eq!("never".parse::<ColorChoice>(), Ok(ColorChoice::Never));
    }

    #[test]
    fn probe_lists_keep_the_run_order_and_drop_duplicates() {
        assert_eq!(probe_list("all").expect("all"), Probe::ALL);
        assert!(probe_list("none").expect("none").is_empty());
        assert_eq!(
            probe_list("notification, invalid-method,notification").expect("list"),
            [Probe::Notification, Probe::InvalidMethod]
        );
        assert!(probe_list("fuzz").is_err());
    }

    #[test]
    fn bounds_refuse_out_of_range_and_oversized_numbers_in_words() {
        assert_eq!(TIMEOUT_MS.parse("250"), Ok(250));
        assert!(
            TIMEOUT_MS
                .parse("99")
                .expect_err("low")
                .contains("from 100 to 3600000 ms")
        );
        assert!(
            TIMEOUT_MS
                .parse("18446744073709551616")
                .expect_err("huge")
                .contains("at most 3600000 ms")
        );
        assert!(LINE_BYTES.parse("18446744073709551615").is_err());
        assert!(
            REPEAT
                .parse("101")
                .expect_err("high")
                .contains("from 1 to 100 runs")
        );
        assert!(
            WINDOW_MS
                .parse("-1")
                .expect_err("sign")
                .contains("whole number")
        );
        assert!(WINDOW_MS.parse("1e3").is_err());
    }

    #[test]
    fn the_closest_name_is_suggested_within_the_distance() {
        assert_eq!(edit_distance("--jsn", "--json"), 1);
        assert_eq!(edit_distance("--timeuot", "--timeout"), 2);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(
            closest("timeoutMS", ["timeoutMs", "repeat"], 3),
            Some("timeoutMs")
        );
        assert_eq!(closest("zzz", ["timeoutMs"], 2), None);
    }

    #[test]
    fn env_forms_are_told_apart() {
        assert_eq!("A".parse(), Ok(EnvSpec::Forward("A".into())));
        assert_eq!("B=x=y".parse(), Ok(EnvSpec::Set("B".into(), "x=y".into())));
        assert_eq!("C=".parse(), Ok(EnvSpec::Set("C".into(), String::new())));
        assert!("=x".parse::<EnvSpec>().is_err());
        assert!("A=b\0c".parse::<EnvSpec>().is_err());
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[test]
    fn every_bound_s_example_lies_in_its_range() {
        for b in [
            TIMEOUT_MS,
            WINDOW_MS,
            ERA_WINDOW_MS,
            CONTEXT_BUDGET,
            STDOUT_BYTES,
            LINE_BYTES,
            STDERR_BYTES,
            SAMPLES,
            JOBS,
            CONCURRENCY,
            BENCH_REQUESTS,
            BENCH_DURATION_S,
            ROBUSTNESS_SAMPLES,
            ROBUSTNESS_BUDGET,
            SEED,
            REPEAT,
        ] {
            assert_eq!(b.check(b.example), Ok(b.example), "{b:?}");
        }
    }
}
