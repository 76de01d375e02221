//! Unified diffs (the `diff -u` form `git apply` and `patch` read): the
//! shortest line edit script between two texts (Myers' O(ND) search), cut
//! into hunks with three lines of context. Lines are compared with their
//! terminators, so a changed line ending shows, and a last line without a
//! newline is marked `\ No newline at end of file`. Pure.

/// What becomes of one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same(usize, usize),
    Del(usize),
    Ins(usize),
}

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The unified diff turning `old` into `new`, with `---`/`+++` headers
/// naming `a` and `b`; empty when they are equal.
pub fn unified(a: &str, b: &str, old: &[u8], new: &[u8]) -> Vec<u8> {
    if old == new {
        return Vec::new();
    }
    let (x, y) = (lines(old), lines(new));
    let ops = script(&x, &y);
    let mut out = format!("--- {a}\n+++ {b}\n").into_bytes();
    for (from, to) in hunks(&ops) {
        hunk(&mut out, &ops[from..to], &x, &y);
    }
    out
}

/// The lines of `text`, each with its terminator.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

/// The shortest edit script from `a` to `b`. Common ends are cut first,
/// and each step of the search keeps only its live diagonals, so memory
/// is the square of the number of differences, not of the file.
fn script(a: &[&[u8]], b: &[&[u8]]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(p, q)| p == q).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(p, q)| p == q)
        .count();
    let (am, bm) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<Op> = (0..head).map(|i| Op::Same(i, i)).collect();
    ops.extend(middle(am, bm).into_iter().map(|op| match op {
        Op::Same(i, j) => Op::Same(i + head, j + head),
        Op::Del(i) => Op::Del(i + head),
        Op::Ins(j) => Op::Ins(j + head),
    }));
    ops.extend((0..tail).map(|k| Op::Same(a.len() - tail + k, b.len() - tail + k)));
    ops
}

/// Myers' search over `a` and `b`, then the path read back.
fn middle(a: &[&[u8]], b: &[&[u8]]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    // `trace[d][k + d]`: the furthest x on diagonal k after d differences.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut v: Vec<isize> = vec![0; 3];
    let mut d: isize = 0;
    loop {
        let mut next = vec![0; 2 * d as usize + 3];
        let at = |row: &Vec<isize>, k: isize, d: isize| row[(k + d) as usize];
        let mut done = false;
        for k in (-d..=d).step_by(2) {
            let prev = d - 1;
            let mut x = if d == 0 {
                0
            } else if k == -d || (k != d && at(&v, k - 1, prev) < at(&v, k + 1, prev)) {
                at(&v, k + 1, prev)
            } else {
                at(&v, k - 1, prev) + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            next[(k + d) as usize] = x;
            if x >= n && y >= m {
                done = true;
            }
        }
        trace.push(next.clone());
        v = next;
        if done {
            break;
        }
        d += 1;
    }
    back(&trace, n, m)
}

/// The edit script the search's `trace` found, from the end back.
fn back(trace: &[Vec<isize>], n: isize, m: isize) -> Vec<Op> {
    let (mut x, mut y) = (n, m);
    let mut ops = Vec::new();
    for d in (0..trace.len() as isize).rev() {
        let k = x - y;
        let (px, py) = if d == 0 {
            (0, 0)
        } else {
            let v = &trace[d as usize - 1];
            let at = |k: isize| v[(k + d - 1) as usize];
            let pk = if k == -d || (k != d && at(k - 1) < at(k + 1)) {
                k + 1
            } else {
                k - 1
            };
            (at(pk), at(pk) - pk)
        };
        while x > px && y > py {
            x -= 1;
            y -= 1;
            ops.push(Op::Same(x as usize, y as usize));
        }
        if d > 0 {
            if x == px {
                y -= 1;
                ops.push(Op::Ins(y as usize));
            } else {
                x -= 1;
                ops.push(Op::Del(x as usize));
            }
        }
    }
    ops.reverse();
    ops
}

/// The ranges of `ops` each hunk covers: every change with its context,
/// hunks whose context would touch merged.
fn hunks(ops: &[Op]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        if matches!(op, Op::Same(..)) {
            continue;
        }
        let from = i.saturating_sub(CONTEXT);
        let to = (i + 1 + CONTEXT).min(ops.len());
        match out.last_mut() {
            Some(last) if from <= last.1 => last.1 = to,
            _ => out.push((from, to)),
        }
    }
    out
}

/// One hunk: its `@@` header and its lines.
fn hunk(out: &mut Vec<u8>, ops: &[Op], a: &[&[u8]], b: &[&[u8]]) {
    let old: Vec<usize> = ops
        .iter()
        .filter_map(|op| match *op {
            Op::Same(i, _) | Op::Del(i) => Some(i),
            Op::Ins(_) => None,
        })
        .collect();
    let new: Vec<usize> = ops
        .iter()
        .filter_map(|op| match *op {
            Op::Same(_, j) | Op::Ins(j) => Some(j),
            Op::Del(_) => None,
        })
        .collect();
    // A side with no line here is an empty file: `-0,0`.
    let start = |lines: &[usize]| lines.first().map_or(0, |i| i + 1);
    out.extend_from_slice(
        format!(
            "@@ -{} +{} @@\n",
            range(start(&old), old.len()),
            range(start(&new), new.len())
        )
        .as_bytes(),
    );
    for op in ops {
        let (mark, line) = match *op {
            Op::Same(i, _) => (b' ', a[i]),
            Op::Del(i) => (b'-', a[i]),
            Op::Ins(j) => (b'+', b[j]),
        };
        out.push(mark);
        out.extend_from_slice(line);
        if !line.ends_with(b"\n") {
            out.extend_from_slice(b"\n\\ No newline at end of file\n");
        }
    }
}

/// `start,count` as a hunk header writes it (`start` alone for one line).
fn range(start: usize, count: usize) -> String {
    match count {
        1 => format!("{start}"),
        0 => format!("{start},0"),
        _ => format!("{start},{count}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str) -> String {
        String::from_utf8(unified("a/f", "b/f", old.as_bytes(), new.as_bytes())).expect("utf-8")
    }

    #[test]
    fn a_changed_line_with_its_context() {
        assert_eq!(
            diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nV\n6\n7\n8\n9\n"),
            "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+V\n 6\n 7\n 8\n"
        );
        assert_eq!(diff("same\n", "same\n"), "");
    }

    #[test]
    fn an_insertion_at_the_top_and_a_last_line_without_newline() {
        assert_eq!(
            diff("print(1)\n", "import sys\nprint(1)\n"),
            "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n+import sys\n print(1)\n"
        );
        assert_eq!(diff("", "x\n"), "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n");
        assert_eq!(
            diff("a\nb", "a\nc"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn far_apart_changes_make_two_hunks_and_the_script_is_shortest() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old
            .replace("2\n", "two\n")
            .replacen("19\n", "nineteen\n", 1);
        let d = diff(&old, &new);
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        assert_eq!(
            d.lines()
                .filter(|l| l.starts_with('-') && !l.starts_with("---"))
                .count(),
            3,
            "{d}"
        );
        let ops = script(
            &lines(b"a\nb\nc\na\nb\nb\na\n"),
            &lines(b"c\nb\na\nb\na\nc\n"),
        );
        let changes = ops.iter().filter(|o| !matches!(o, Op::Same(..))).count();
        assert_eq!(
            changes, 5,
            "the classic example's shortest script has 5 edits"
        );
    }

    #[test]
    fn every_script_turns_the_old_lines_into_the_new_and_is_no_longer_than_an_lcs_says() {
        let mut seed: u64 = 7;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..300 {
            let a: Vec<u8> = (0..next(12))
                .flat_map(|_| [b'a' + next(3) as u8, b'\n'])
                .collect();
            let b: Vec<u8> = (0..next(12))
                .flat_map(|_| [b'a' + next(3) as u8, b'\n'])
                .collect();
            let (x, y) = (lines(&a), lines(&b));
            let ops = script(&x, &y);
            let old: Vec<&[u8]> = ops
                .iter()
                .filter_map(|o| match *o {
                    Op::Same(i, _) | Op::Del(i) => Some(x[i]),
                    Op::Ins(_) => None,
                })
                .collect();
            let new: Vec<&[u8]> = ops
                .iter()
                .filter_map(|o| match *o {
                    Op::Same(_, j) | Op::Ins(j) => Some(y[j]),
                    Op::Del(_) => None,
                })
                .collect();
            assert_eq!((old, new), (x.clone(), y.clone()));
            // The longest common subsequence, by the textbook table.
            let mut t = vec![vec![0usize; y.len() + 1]; x.len() + 1];
            for i in (0..x.len()).rev() {
                for j in (0..y.len()).rev() {
                    t[i][j] = if x[i] == y[j] {
                        t[i + 1][j + 1] + 1
                    } else {
                        t[i + 1][j].max(t[i][j + 1])
                    };
                }
            }
            let same = ops.iter().filter(|o| matches!(o, Op::Same(..))).count();
            assert_eq!(same, t[0][0]);
        }
    }
}
