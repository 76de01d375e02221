//! Byte searches for the lexer's long runs (the inside of a string, a
//! comment up to its line's end, a block comment's newlines): the first of
//! up to four bytes, sixteen positions per step with `sys::Bytes16` on
//! x86_64, a plain loop elsewhere and for the last few bytes.

/// The index of the first byte of `hay` that is one of `set`.
#[inline]
pub fn find4(hay: &[u8], set: [u8; 4]) -> Option<usize> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut at = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use crate::sys::Bytes16;
        let [a, b, c, d] = set.map(Bytes16::splat);
        while let Some(Ok(block)) = hay.get(at..at + 16).map(<&[u8; 16]>::try_from) {
            let v = Bytes16::load(block);
            let hits = v.eq(a).or(v.eq(b)).or(v.eq(c)).or(v.eq(d)).mask();
            if hits != 0 {
                return Some(at + hits.trailing_zeros() as usize);
            }
            at += 16;
        }
    }
    hay[at..]
        .iter()
        .position(|x| set.contains(x))
        .map(|p| at + p)
}

/// The index of the first byte of `hay` that is `a`, `b` or `c`.
#[inline]
pub fn find3(hay: &[u8], a: u8, b: u8, c: u8) -> Option<usize> {
    find4(hay, [a, b, c, c])
}

/// The index of the first `a` in `hay`.
#[inline]
pub fn find1(hay: &[u8], a: u8) -> Option<usize> {
    find4(hay, [a; 4])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_of_three_bytes_is_found_at_every_position() {
        for len in 0..70 {
            for at in 0..len {
                let mut hay = vec![b'.'; len];
                hay[at] = b'"';
                assert_eq!(find3(&hay, b'"', b'\\', b'\n'), Some(at), "{len} {at}");
                if at + 1 < len {
                    hay[at + 1] = b'\n';
                }
                assert_eq!(find3(&hay, b'\n', b'\\', b'"'), Some(at));
                assert_eq!(find1(&hay, b'"'), Some(at));
                assert_eq!(find4(&hay, [b'$', b'`', b'\n', b'"']), Some(at));
            }
            assert_eq!(find3(&vec![b'x'; len], b'"', b'\\', b'\n'), None);
        }
    }
}
