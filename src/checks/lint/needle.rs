//! Needles matched as whole words in lowered text (`find_words`, `any`),
//! and the word lists the structure readings (`structure`, `frame`) share:
//! a word for an argument, a denial, a value that turns a setting off, a
//! call made only at the user's request, in the languages the rules read;
//! and whether an address stands in a text (`has_address`). Imports
//! nothing; pure.

/// A letter or digit of a script that spaces its words (Latin, Greek,
/// Cyrillic, Armenian, Vietnamese's Latin): where a match must start and
/// end on a word's edge. Words of other scripts (Chinese, Japanese, Korean
/// with its particles, Arabic and Hebrew with their prefixes) are matched
/// anywhere, as they are written without those edges. `_` is not a word
/// character, so each part of a `snake_case` key is a word.
fn word(c: char) -> bool {
    c.is_alphanumeric() && (c < '\u{530}' || ('\u{1e00}'..='\u{1eff}').contains(&c))
}

/// Where `needle` occurs in `hay` as whole words: a needle that starts (or
/// ends) with a word character must not start (or end) inside a word of
/// `hay`, unless it is written with a `*` there (`token*` also matches
/// `tokens`, `*n't` also matches `don't`). So `key` is not found in
/// `keyboard` or `monkey`, `code` not in `encode`, `mode` not in `model`.
pub fn find_words<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = (usize, usize)> + 'a {
    let open_start = needle.starts_with('*');
    let open_end = needle.len() > 1 && needle.ends_with('*');
    let core = core_of(needle);
    hay.match_indices(core).filter_map(move |(at, m)| {
        let end = at + m.len();
        let edge_before = open_start
            || !core.chars().next().is_some_and(word)
            || !hay[..at].chars().next_back().is_some_and(word);
        let edge_after = open_end
            || !core.chars().next_back().is_some_and(word)
            || !hay[end..].chars().next().is_some_and(word);
        (edge_before && edge_after).then_some((at, end))
    })
}

/// Whether `hay` holds any of `needles`, each as whole words (see
/// [`find_words`]).
#[inline]
pub fn any(hay: &str, needles: &[&str]) -> bool {
    any_in(hay, needles.iter().copied())
}

/// A long word list written as one string, its needles parted by `|`: a
/// needle costs its bytes and one more, not 16 bytes of address and
/// length besides (the binary's size budget).
#[derive(Clone, Copy, Debug)]
pub struct Joined(pub &'static str);

impl Joined {
    /// The needles.
    pub fn iter(self) -> std::str::Split<'static, char> {
        self.0.split('|')
    }

    /// Whether `word` is one of the needles, whole.
    pub fn has(self, word: &str) -> bool {
        self.iter().any(|n| n == word)
    }
}

/// A hot word list (read for every sentence) written as one string parted
/// by `|`, with where each needle ends worked out by the compiler
/// (`packed!`): a needle costs its bytes and three more, not 16 bytes of
/// address and length, and is read as fast as a slice's (a `Joined` list
/// is split anew on each reading).
#[derive(Clone, Copy, Debug)]
pub struct Packed {
    /// The needles, parted by `|`.
    pub text: &'static str,
    /// Where each needle ends in `text`.
    ends: &'static [u16],
}

/// A `Packed` list from one `|`-parted string, its ends counted by the
/// compiler.
#[macro_export]
macro_rules! packed {
    ($text:expr $(,)?) => {{
        const TEXT: &str = $text;
        const ENDS: [u16; $crate::checks::lint::needle::count(TEXT)] =
            $crate::checks::lint::needle::ends(TEXT);
        $crate::checks::lint::needle::Packed::new(TEXT, &ENDS)
    }};
}

/// How many needles a `|`-parted string holds.
pub const fn count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut n) = (0, 1);
    while i < bytes.len() {
        if bytes[i] == b'|' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// Where each needle of a `|`-parted string ends (the compiler's work: a
/// list of 64 KiB or more does not build).
pub const fn ends<const N: usize>(text: &str) -> [u16; N] {
    let bytes = text.as_bytes();
    assert!(bytes.len() < u16::MAX as usize, "a packed list of 64 KiB");
    let mut out = [0u16; N];
    let (mut i, mut k) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'|' {
            out[k] = i as u16;
            k += 1;
        }
        i += 1;
    }
    out[k] = bytes.len() as u16;
    out
}

impl Packed {
    /// A list of `text`'s needles ending at `ends` (see `packed!`).
    pub const fn new(text: &'static str, ends: &'static [u16]) -> Packed {
        Packed { text, ends }
    }

    /// The needles a text of byte pairs `pairs` may hold, told by their
    /// bytes before a string is made of them (most are not there).
    #[inline(always)]
    pub fn held(self, pairs: &Pairs) -> PackedIter<'_> {
        PackedIter {
            text: self.text,
            ends: self.ends.iter(),
            from: 0,
            pairs,
        }
    }
}

/// The needles of a `Packed` list a text may hold, in order.
#[derive(Debug)]
pub struct PackedIter<'p> {
    text: &'static str,
    ends: std::slice::Iter<'static, u16>,
    from: usize,
    pairs: &'p Pairs,
}

impl Iterator for PackedIter<'_> {
    type Item = &'static str;

    #[inline(always)]
    fn next(&mut self) -> Option<&'static str> {
        loop {
            let end = usize::from(*self.ends.next()?);
            let from = self.from;
            self.from = end + 1;
            // The needle's core by hand: the slice helpers are not inlined.
            let bytes = self.text.as_bytes();
            let a = from + usize::from(bytes.get(from) == Some(&b'*'));
            let b = end - usize::from(end > a && bytes.get(end - 1) == Some(&b'*'));
            if self.pairs.may_hold_bytes(bytes.get(a..b).unwrap_or(&[])) {
                return Some(self.text.get(from..end).unwrap_or(""));
            }
        }
    }
}

/// Whether `hay` holds any needle of a packed list (see [`any`]).
pub fn any_packed(hay: &str, needles: Packed) -> bool {
    let pairs = Pairs::of(hay);
    needles.held(&pairs).any(|n| {
        let core = core_of(n);
        hay.contains(core) && find_words(hay, n).next().is_some()
    })
}

/// Whether `hay` holds any needle of a joined list (see [`any`]).
pub fn any_joined(hay: &str, needles: Joined) -> bool {
    any_in(hay, needles.iter())
}

/// Whether `hay` holds any of `needles` (see [`any`]).
fn any_in<'n>(hay: &str, needles: impl Iterator<Item = &'n str>) -> bool {
    which_in(hay, needles).is_some()
}

/// The first of `needles` (in their order) that `hay` holds as whole
/// words.
pub fn which_in<'n>(hay: &str, mut needles: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    // The text's byte pairs first: most needles are not there at all, and
    // are told so without a search.
    let pairs = Pairs::of(hay);
    needles.find(|n| {
        let core = core_of(n);
        pairs.may_hold(core) && hay.contains(core) && find_words(hay, n).next().is_some()
    })
}

/// Whether a needle of `needles` stands in `hay` where `at` (its start
/// and end) allows (`a denial before the act`).
pub fn any_where<'n>(
    hay: &str,
    mut needles: impl Iterator<Item = &'n str>,
    at: impl Fn(usize, usize) -> bool,
) -> bool {
    let pairs = Pairs::of(hay);
    needles.any(|n| {
        let core = core_of(n);
        pairs.may_hold(core) && hay.contains(core) && find_words(hay, n).any(|(i, e)| at(i, e))
    })
}

/// The char boundary of `s` at or before byte `i`.
pub fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The char boundary of `s` at or after byte `i`.
pub fn ceil_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// A needle without its `*` marks (a byte test: trimming by a character
/// pattern builds a searcher per call).
#[inline(always)]
pub fn core_of(needle: &str) -> &str {
    let b = needle.as_bytes();
    let from = usize::from(b.first() == Some(&b'*'));
    let to = b.len() - usize::from(b.len() > from && b.last() == Some(&b'*'));
    &needle[from..to]
}

/// The byte pairs of a text, hashed to 1,024 bits: a needle whose first,
/// middle or last pair is not among them is not in the text.
#[derive(Clone, Copy, Debug)]
pub struct Pairs {
    bits: [u64; 16],
    all: bool,
}

/// The bit a byte pair sets.
#[inline(always)]
fn pair_bit(a: u8, b: u8) -> usize {
    (usize::from(a) * 31 + usize::from(b)) & 1023
}

thread_local! {
    /// The text last asked about and its pairs: the readings ask one
    /// sentence about many lists in turn. The text is kept to be compared
    /// byte for byte (an address can be reused by the next text); a text
    /// over 4 KiB is neither kept nor cached, its pairs are counted anew.
    static LAST: std::cell::RefCell<(Vec<u8>, Pairs)> = const {
        std::cell::RefCell::new((Vec::new(), Pairs { bits: [0; 16], all: true }))
    };
}

/// The longest text whose pairs are cached.
const CACHED: usize = 4096;

impl Pairs {
    /// The pairs of `hay`.
    pub fn of(hay: &str) -> Pairs {
        let h = hay.as_bytes();
        if h.len() < 2 {
            return Pairs {
                bits: [0; 16],
                all: true,
            };
        }
        if h.len() > CACHED {
            return Pairs::count(h);
        }
        LAST.with_borrow_mut(|(kept, pairs)| {
            if kept.as_slice() != h {
                *pairs = Pairs::count(h);
                kept.clear();
                kept.extend_from_slice(h);
            }
            *pairs
        })
    }

    /// The pairs of `h`, counted.
    fn count(h: &[u8]) -> Pairs {
        let mut bits = [0u64; 16];
        for w in h.windows(2) {
            let bit = pair_bit(w[0], w[1]);
            bits[bit / 64] |= 1 << (bit % 64);
        }
        Pairs { bits, all: false }
    }

    /// Whether the text may hold `core` (a needle without its marks): its
    /// first, middle and last byte pairs are all among the text's.
    #[inline(always)]
    pub fn may_hold(&self, core: &str) -> bool {
        self.may_hold_bytes(core.as_bytes())
    }

    /// `may_hold` of a needle's bytes.
    #[inline(always)]
    pub fn may_hold_bytes(&self, c: &[u8]) -> bool {
        if self.all || c.len() < 2 {
            return true;
        }
        let n = c.len();
        self.has(c[0], c[1]) && self.has(c[n - 2], c[n - 1]) && {
            let m = (n - 1) / 2;
            self.has(c[m], c[m + 1])
        }
    }

    /// Whether the pair `a`, `b` is among the text's.
    #[inline(always)]
    fn has(&self, a: u8, b: u8) -> bool {
        let bit = pair_bit(a, b);
        self.bits[bit / 64] & (1 << (bit % 64)) != 0
    }
}

/// Words that put a backticked name after them in the role of a slot
/// (`` into `notes` ``, `` as `history` ``, `` via `network_id` ``), parted
/// by spaces (one is `|`).
const INTO: &str = "in into as to via through under inside within onto en dans na do nel nello no em naar ins im в до у | fill fills populate populates set sets → ➡️ ➡ -> => i kwenye sa dalam ke";

/// Backticked slots no form fills with the user's personal data: a
/// catch-all, or a name that begins like one (`` `extra` ``, `` `metadata` ``,
/// `` `debug_info` ``).
pub const CATCH_ALL: Joined =
    Joined("extra|meta|ctx|context|debug|trace|tag|hint|misc|aux|blob|payload|diag|telemetry");

/// Verbs after a catch-all's backticked name that make it a slot
/// (`` `extra` holds … ``; not `` `response` contains … ``, an output).
const HOLDS: Joined = Joined("holds |contains |carries |receives |gets ");

/// Whether a sentence (`lower`) names a slot for data: a word for an
/// argument (`ARGUMENT`), or a backticked name that a word of `INTO` puts
/// in that role (`` copy it into `auth_note` ``).
pub fn names_a_slot(lower: &str) -> bool {
    any_packed(lower, ARGUMENT) || {
        let mut quoted = lower.split('`');
        let mut before = quoted.next().unwrap_or("");
        let mut slot = false;
        while let (Some(name), Some(after)) = (quoted.next(), quoted.next()) {
            let named = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
            let mut words = before.split_whitespace().rev();
            let last = match words.next() {
                Some("the" | "its" | "their") => words.next(),
                w => w,
            };
            // Japanese puts the particle after the name (`` `meta` に ``).
            let particle = after.trim_start().starts_with(['に', 'へ']);
            // Or a verb after it that fills it (`` `extra` holds … ``).
            let holds = HOLDS.iter().any(|v| after.trim_start().starts_with(v))
                && CATCH_ALL.iter().any(|c| name.starts_with(c));
            slot |= named
                && (particle || holds || last.is_some_and(|w| INTO.split(' ').any(|i| i == w)));
            before = after;
        }
        slot
    }
}

/// Values that turn a setting off (`confirm: false`, `ask_user = never`).
pub const OFF: Joined = Joined("false|off|no|disabled|none|skip|never|0");

/// A call made only at the user's request, in the languages the rules read.
pub const ON_REQUEST: Joined = Joined(
    "only if the user ask*|only when the user ask*|only if the user explicitly|\
     only when the user explicitly|only if the user request*|only when the user request*|\
     only if asked by the user|if the user asks for it|when the user asks for it|\
     unless the user ask*|solo si el usuario|sólo si el usuario|solo cuando el usuario|\
     apenas se o usuário|apenas quando o usuário|somente se o usuário|só se o usuário|\
     nur wenn der benutzer|nur wenn der nutzer|nur, wenn der benutzer|nur auf wunsch|\
     seulement si l'utilisateur|uniquement si l'utilisateur|solo se l'utente|\
     tylko jeśli użytkownik*|tylko gdy użytkownik*|alleen als de gebruiker|\
     только если пользователь*|только по запросу пользователя",
);

/// Words for an argument, in the languages the rules read.
pub const ARGUMENT: Packed = packed!(
    "argument*|parameter*|param|params|field*|arg|args|feld*|champ|champs|campo*|parâmetro*|\
     parámetro*|parametro*|paramètre*|pole|pola|polu|parametr*|alan*|поле|поля|полю|полем|полі|\
     параметр*|аргумент*|veld*|kolom*|bidang*|tham số|trường|매개변수|필드|인자|حقل|معامل|שדה|פרמטר|\
     फ़ील्ड|पैरामीटर|参数|字段|引数|パラメータ|フィールド|\
     fält*|poli|πεδίο|παράμετρο|*ช่อง*|*พารามิเตอร์*|فیلد|پارامتر|câmpul|\
     felt*|kenttä*|kentä*|mező*|paraméter*|полето|параметър*|параметъра|ফিল্ড|প্যারামিটার|kigezo|sehemu|medan|polje|polju|poľa|فیلڈ|camp|paràmetre*|lauką|lauke|laukā|lauku|फील्ड*|поље|пољу|புலத்தில்|புலம்|välja|väljal|fushën|fushë*|sahəsinə|sahəsi*|өрісіне|өріс*|फिल्ड*|reitinn|eremuan|eremu*|ফিল্ডে|maes|réimse|*ველ*|*դաշտ*|*វាល*|*መስክ*|aaye",
);

/// Words that forbid or deny, in the languages the rules read.
pub const DENY: Packed = packed!(
    "never|not|cannot|*n't|no|nunca|nicht|jamais|ne|non|niet|nie|не|ні|hiç|asla|không|jangan|\
     tidak|لا |אל |לא |मत|नहीं|않|말고|마세요|不|ない|inte|aldrig|nikdy|μην|ποτέ|δεν|*อย่า*|*ห้าม*|\
     هرگز|nu|niciodată|ikke|aldri|älä|ei|koskaan|soha|nem|никога|কখনো| না | না।|usi*|kamwe|\
     huwag|hindi|niemals|kein|keine|nooit|nigdy|никогда|ніколи|jamás|não|aucun|aucune|n'est|n'a|לעולם|أبدا|nikada|nikad|کبھی|نہ |مت |mos|kurrë|ära|ekki|aldrei|moenie|inoiz|heç|никада|никогаш|niekada|nikoli|ஒருபோதும்|कधीही|कहिल्यै|ешқашан|kunagi|peidiwch|byth|nid|ná|riamh|níor|ნუ |არ |არასოდეს|ვერ |մի |երբեք|ոչ |*កុំ*|*មិន*|ma ṣe|maṣe|má ṣe|kò|*አት*",
);

/// Whether an address (a URL, an e-mail address, an IP address, a host with
/// a path) stands in `rest`.
pub fn has_address(rest: &str) -> bool {
    let lower = rest.to_ascii_lowercase();
    if lower.contains("://") {
        return true;
    }
    lower
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '<' | '>' | '"' | '\'' | '`')
        })
        .any(|w| {
            let w = w.trim_end_matches(['.', '!', '?', ':']);
            let email = w.split_once('@').is_some_and(|(user, host)| {
                !user.is_empty()
                    && host.contains('.')
                    && !host.starts_with('.')
                    && host.bytes().any(|b| b.is_ascii_alphabetic())
            });
            let ip = w.split(['/', ':']).next().is_some_and(|h| {
                let parts: Vec<&str> = h.split('.').collect();
                parts.len() == 4
                    && parts.iter().all(|p| {
                        !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit())
                    })
            });
            let host_path = w.split_once('/').is_some_and(|(host, _)| {
                host.contains('.')
                    && !host.starts_with(['.', '~'])
                    && host.rsplit('.').next().is_some_and(|tld| {
                        tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic())
                    })
                    && host.split('.').count() >= 2
                    && !host.ends_with(".json")
            });
            email || ip || host_path || bare_host(w)
        })
}

/// A host name with no path that ends in a generic top-level domain
/// (`collector.example.org`): a country code is left out, as `.sh`, `.py`,
/// `.rs` and `.md` name files far more often than hosts.
fn bare_host(w: &str) -> bool {
    const GENERIC: Joined = Joined("com|net|org|io|dev|app|ai|cloud|info|biz|xyz|site|online|tech");
    let label =
        |l: &str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    w.rsplit_once('.')
        .is_some_and(|(host, tld)| GENERIC.has(tld) && host.split('.').all(label))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `*` marks a needle's open start or end only: in the middle it is
    /// searched for as a star and never matches (`take* precedence`).
    #[test]
    fn no_word_list_has_a_star_inside_a_needle() {
        let mut checked = 0;
        for (file, text) in [
            ("frame.rs", include_str!("frame.rs")),
            ("structure.rs", include_str!("structure.rs")),
            ("needle.rs", include_str!("needle.rs")),
            ("rules.rs", include_str!("rules.rs")),
        ] {
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            for (n, line) in code.lines().enumerate() {
                let line = line.trim();
                // A list joined on one line: `Joined("a|b*|c")`.
                for (at, _) in line.match_indices("Joined(\"") {
                    let rest = &line[at + 8..];
                    let list = &rest[..rest.find(['"', '\\']).unwrap_or(rest.len())];
                    for needle in list.split('|') {
                        assert!(!core_of(needle).contains('*'), "{file}:{}: {needle}", n + 1);
                        checked += 1;
                    }
                }
                let Some(needle) = line
                    .strip_prefix('"')
                    .and_then(|l| l.strip_suffix("\","))
                    .filter(|l| !l.contains('"'))
                else {
                    continue;
                };
                // (A `Joined` list's string holds its needles parted by `|`.)
                for needle in needle.split('|') {
                    let inner = core_of(needle);
                    assert!(!inner.contains('*'), "{file}:{}: {needle}", n + 1);
                    checked += 1;
                }
            }
        }
        // The lists are read as rustfmt writes them, a needle a line: a
        // layout this reading missed would check nothing.
        assert!(checked > 500, "{checked} needles read");
    }

    /// Every `Joined(…)` and `packed!(…)` list of the lint's files, read
    /// from the source: (file, the string as the compiler sees it).
    fn one_string_lists() -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        for (file, text) in [
            ("frame.rs", include_str!("frame.rs")),
            ("structure.rs", include_str!("structure.rs")),
            ("needle.rs", include_str!("needle.rs")),
            ("rules.rs", include_str!("rules.rs")),
            ("decode.rs", include_str!("decode.rs")),
        ] {
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            for opening in ["Joined(", "packed!("] {
                for (at, _) in code.match_indices(opening) {
                    let rest = code[at + opening.len()..].trim_start();
                    let Some(body) = rest.strip_prefix('"') else {
                        continue;
                    };
                    let Some(end) = body.find('"') else { continue };
                    // A `\` line end joins the next line, its indent dropped.
                    let joined: String = body[..end].split("\\\n").map(str::trim_start).collect();
                    out.push((file, joined));
                }
            }
        }
        out
    }

    #[test]
    fn every_one_string_list_holds_whole_needles_once_without_a_star_inside() {
        let lists = one_string_lists();
        assert!(lists.len() >= 70, "{} lists read", lists.len());
        for (file, list) in &lists {
            // (A space at a needle's end is its word edge, in a list read
            // with `contains`: `ne `, ` pas `.)
            let edged = list.split('|').any(|n| n.trim() != n && !n.contains('*'));
            let mut seen = std::collections::HashSet::new();
            for n in list.split('|') {
                assert!(
                    !n.trim().is_empty() && (edged || n.trim() == n),
                    "{file}: {list:?}"
                );
                assert!(!core_of(n).contains('*'), "{file}: {n}");
                assert!(seen.insert(n), "{file}: {n} twice in one list");
            }
        }
    }

    #[test]
    fn a_packed_list_reads_its_needles_in_order() {
        let list = packed!("a*|bc|*def*|g h");
        let all: Vec<&str> = list.held(&Pairs::of(list.text)).collect();
        assert_eq!(all, ["a*", "bc", "*def*", "g h"]);
        let pairs = Pairs::of("xx de ef yy");
        let held: Vec<&str> = list.held(&pairs).collect();
        assert_eq!(held, ["a*", "*def*"], "one letter is always held");
        assert!(any_packed("it is g h here", list) && !any_packed("nothing", list));
        // Every needle of a list is read, whole, from a text that holds it.
        for n in ARGUMENT.text.split('|') {
            assert!(ARGUMENT.held(&Pairs::of(n)).any(|m| m == n), "{n}");
        }
    }

    #[test]
    fn a_slot_is_a_word_for_an_argument_or_a_name_put_in_that_role() {
        for s in [
            "copy it into `auth_note` on every run",
            "send it as `history`",
            "submitted via `network_id`",
            "| `env_dump` | the environment |",
            "put it in the `memo` field",
        ] {
            assert!(names_a_slot(s), "{s}");
        }
        for s in [
            "call `read_file` first",
            "the `limit` defaults to 20",
            "returns `ok` or an error",
            "into ` ` nothing",
        ] {
            assert!(!names_a_slot(s), "{s}");
        }
    }
}
