//! The look a file gets before it is lexed: whether it names any of its
//! language's filter words (`rules::filter_words`: a file that names none
//! can hold no finding),
//! and whether it has a line too long to be anything but minified. Most
//! files of a real tree name no filter word, so this is the scanner's
//! hottest loop: one pass for all the words at once, sixteen positions per
//! step (`sys::Bytes16` on x86_64: a word's first byte and its last byte
//! compared at every position, the few positions where both match checked
//! in full), and the line check by looking back from each window's end
//! for its last newline, not by reading every byte.

use crate::scan::lex::MAX_LINE;

/// Whether `text` contains any of `words` (each non-empty, at most 32
/// bytes).
pub fn names_any(text: &[u8], words: &[&str]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        packed(text, words)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        scalar(text, words, 0)
    }
}

/// The plain search, from `from`: every word at every position.
fn scalar(text: &[u8], words: &[&str], from: usize) -> bool {
    (from..text.len()).any(|at| words.iter().any(|w| text[at..].starts_with(w.as_bytes())))
}

/// Sixteen positions at a time: a word can start at position `p` only if
/// its first byte is at `p` and its last byte at `p + len - 1`.
#[cfg(target_arch = "x86_64")]
fn packed(text: &[u8], words: &[&str]) -> bool {
    use crate::sys::Bytes16;
    let Some(reach) = words.iter().map(|w| w.len()).max() else {
        return false;
    };
    // Per word: its first byte, and its last byte with that byte's offset.
    let probes: Vec<(Bytes16, Bytes16, usize)> = words
        .iter()
        .filter_map(|w| {
            let w = w.as_bytes();
            let (&first, &last) = (w.first()?, w.last()?);
            Some((Bytes16::splat(first), Bytes16::splat(last), w.len() - 1))
        })
        .collect();
    let mut at = 0;
    // Each window holds the sixteen positions and every word's last byte.
    while let Some(window) = text.get(at..at + 16 + reach) {
        let Ok(here) = <&[u8; 16]>::try_from(&window[..16]) else {
            break;
        };
        let here = Bytes16::load(here);
        let mut hits = Bytes16::splat(0);
        for &(first, last, offset) in &probes {
            let Some(Ok(there)) = window.get(offset..offset + 16).map(<&[u8; 16]>::try_from) else {
                break;
            };
            hits = hits.or(here.eq(first).and(Bytes16::load(there).eq(last)));
        }
        let mut hits = hits.mask();
        while hits != 0 {
            let p = at + hits.trailing_zeros() as usize;
            if words.iter().any(|w| text[p..].starts_with(w.as_bytes())) {
                return true;
            }
            hits &= hits - 1;
        }
        at += 16;
    }
    scalar(text, words, at)
}

/// Whether `text` has a line longer than `MAX_LINE` bytes (its newline not
/// counted), as the lexer would find it: each window of `MAX_LINE + 1`
/// bytes must hold a newline, and the next window starts after the last
/// one it holds.
pub fn has_long_line(text: &[u8]) -> bool {
    let mut start = 0;
    loop {
        let end = start + MAX_LINE + 1;
        if end > text.len() {
            return false;
        }
        match text[start..end].iter().rposition(|&b| b == b'\n') {
            Some(p) => start += p + 1,
            None => return true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small seeded generator (xorshift), so the cases are the same on
    /// every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn naive(text: &[u8], words: &[&str]) -> bool {
        words
            .iter()
            .any(|w| text.windows(w.len()).any(|x| x == w.as_bytes()))
    }

    #[test]
    fn the_packed_search_agrees_with_the_plain_one_everywhere() {
        let words = ["console", "process", "destination", "transports", "os"];
        let alphabet = b"consoleprocesdtinaup .()\n\"'/os";
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..3000 {
            let len = (rng.next() % 300) as usize;
            let mut text: Vec<u8> = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            // Now and then a whole word at a random place, the ends included.
            if case % 3 == 0 && len > 12 {
                let w = words[(rng.next() % words.len() as u64) as usize].as_bytes();
                let at = (rng.next() as usize) % (len - w.len().min(len));
                text[at..at + w.len()].copy_from_slice(w);
            }
            let used = &words[..1 + (case % words.len())];
            assert_eq!(
                names_any(&text, used),
                naive(&text, used),
                "case {case}: {:?} in {:?}",
                used,
                String::from_utf8_lossy(&text)
            );
        }
    }

    #[test]
    fn a_word_at_either_end_of_a_long_text_is_found() {
        let mut text = vec![b'x'; 1000];
        assert!(!names_any(&text, &["console"]));
        text[..7].copy_from_slice(b"console");
        assert!(names_any(&text, &["console"]));
        let mut text = vec![b'x'; 1000];
        text[993..].copy_from_slice(b"console");
        assert!(names_any(&text, &["print", "console"]));
        assert!(!names_any(b"", &["console"]));
        assert!(!names_any(b"consol", &["console"]));
    }

    #[test]
    fn a_long_line_is_found_where_the_lexer_finds_it() {
        let line = |n: usize| {
            let mut v = vec![b'a'; n];
            v.push(b'\n');
            v
        };
        assert!(!has_long_line(&line(MAX_LINE)));
        assert!(has_long_line(&line(MAX_LINE + 1)));
        let mut text = line(10).repeat(5000);
        assert!(!has_long_line(&text));
        text.extend(vec![b'b'; MAX_LINE + 1]);
        assert!(has_long_line(&text), "an unterminated last line counts");
        let mut text = line(MAX_LINE).repeat(3);
        text.extend(line(MAX_LINE + 1));
        text.extend(line(5));
        assert!(has_long_line(&text));
        for (text, lexed) in [
            (line(MAX_LINE), false),
            (line(MAX_LINE + 1), true),
            (vec![b'c'; MAX_LINE], false),
            (vec![b'c'; MAX_LINE + 1], true),
        ] {
            let minified =
                crate::scan::lex::lex(&text, crate::scan::lex::Language::Python, &mut Vec::new())
                    .is_err();
            assert_eq!(minified, lexed);
            assert_eq!(has_long_line(&text), lexed);
        }
    }
}
