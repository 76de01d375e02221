//! Counting in words for every report: `1 error`, `2 errors`, `1 process`,
//! `3 processes`. Pure.

/// `n word`, the word made plural when `n` is not 1.
pub fn count(n: usize, word: &str) -> String {
    if n == 1 {
        return format!("1 {word}");
    }
    let sibilant = ["s", "sh", "ch", "x"].iter().any(|end| word.ends_with(end));
    let consonant_y =
        word.ends_with('y') && !["ay", "ey", "oy", "uy"].iter().any(|e| word.ends_with(e));
    let plural = if sibilant {
        format!("{word}es")
    } else if consonant_y {
        format!("{}ies", &word[..word.len() - 1])
    } else {
        format!("{word}s")
    };
    format!("{n} {plural}")
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(0, "error"), "0 errors");
        assert_eq!(count(2, "process"), "2 processes");
        assert_eq!(count(3, "entry"), "3 entries");
        assert_eq!(count(2, "day"), "2 days");
    }
}
