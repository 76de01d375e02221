//! One stable sort compiled once for every element type. The standard
//! library's sorts are compiled anew for each element type and comparator
//! (a few kilobytes each, tens of them here), and the guard keeps to a size
//! budget; the lists it sorts are short (codes, names, rows, directory
//! entries). A merge sort of indices with a dynamic comparator, then one
//! small move of the elements into that order. Pure.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`.
pub fn sort_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let items = &*v;
        indices(items.len(), &mut |a, b| cmp(&items[a], &items[b]))
    };
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(
        order
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take)),
    );
}

/// Sorts `v` stably by a key.
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably in its natural order.
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, |a, b| a.cmp(b));
}

/// The indices `0..n` in the order `cmp` gives, equal ones in index order.
fn indices(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    let mut b = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut b[start..end] {
                let left = i < mid && (j >= end || cmp(a[i], a[j]) != Ordering::Greater);
                if left {
                    *slot = a[i];
                    i += 1;
                } else {
                    *slot = a[j];
                    j += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sort_is_ordered_and_stable() {
        for n in 0..40usize {
            let mut v: Vec<(usize, usize)> = (0..n).map(|i| ((i * 7919) % 5, i)).collect();
            let mut expect = v.clone();
            expect.sort_by_key(|p| p.0);
            sort_by_key(&mut v, |p| p.0);
            assert_eq!(v, expect, "{n}");
        }
        let mut words = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }
}
