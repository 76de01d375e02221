//! Characters that are not what they look like, one at a time: the ones
//! that show nothing (Unicode's default-ignorable set and the
//! bidirectional controls), the Tag characters that spell ASCII unseen,
//! the Cyrillic and Greek letters drawn like Latin ones, and the fullwidth
//! forms of ASCII. `fold` reads a character as a reader (or a model) would:
//! the ASCII it stands for, or nothing. The escapers, the secret scrubber
//! and the lint all read characters through here. Pure.

/// The bidirectional formatting characters: marks, embeddings, overrides
/// and isolates (Unicode's "Trojan Source" set).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Characters that show nothing, or nothing of what they hold: Unicode's
/// default-ignorable code points (zero-width spaces and joiners, word
/// joiners, invisible operators, variation selectors, the byte-order mark,
/// Hangul fillers, the Tag characters U+E0000–E007F and the rest of that
/// plane's block).
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{034f}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200d}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// The printable ASCII character a Tag character spells (U+E0020–E007E).
pub fn tag_ascii(c: char) -> Option<char> {
    match c {
        '\u{e0020}'..='\u{e007e}' => char::from_u32(c as u32 - 0xe0000),
        _ => None,
    }
}

/// The ASCII character a fullwidth form stands for (U+FF01–FF5E).
pub fn fullwidth_ascii(c: char) -> Option<char> {
    match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0),
        _ => None,
    }
}

/// The Latin letter a Cyrillic or Greek letter is drawn like, if it is.
pub fn latin_lookalike(c: char) -> Option<char> {
    Some(match c {
        'а' => 'a',
        'с' => 'c',
        'ԁ' => 'd',
        'е' => 'e',
        'һ' => 'h',
        'і' => 'i',
        'ј' => 'j',
        'ӏ' => 'l',
        'о' | 'ο' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'ԝ' => 'w',
        'х' => 'x',
        'у' => 'y',
        'ν' => 'v',
        'ι' => 'i',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'Е' | 'Ε' => 'E',
        'Ζ' => 'Z',
        'Н' | 'Η' => 'H',
        'І' | 'Ι' => 'I',
        'Ј' => 'J',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Ν' => 'N',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'Ѕ' => 'S',
        'Т' | 'Τ' => 'T',
        'Х' | 'Χ' => 'X',
        'У' | 'Υ' => 'Y',
        _ => return None,
    })
}

/// A character as it reads: `None` for one that shows nothing, the ASCII a
/// Tag character, a fullwidth form or a Latin lookalike stands for, else
/// itself. Case is kept.
pub fn fold(c: char) -> Option<char> {
    if c.is_ascii() {
        return Some(c);
    }
    if let Some(a) = tag_ascii(c) {
        return Some(a);
    }
    if is_invisible(c) || is_bidi_control(c) {
        return None;
    }
    Some(
        fullwidth_ascii(c)
            .or_else(|| latin_lookalike(c))
            .unwrap_or(c),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_read_as_what_they_show() {
        let read: String = "Ѕ\u{200b}ｅ\u{e0063}rеt\u{202e}"
            .chars()
            .filter_map(fold)
            .collect();
        assert_eq!(read, "Secret");
        assert_eq!(fold('ж'), Some('ж'));
        assert_eq!(fold('\u{e007f}'), None);
    }
}
