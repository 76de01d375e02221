//! The bench's findings, from what it measured: requests that fail or get
//! no answer under modest concurrency (`bench-failed`), and a server that
//! handles requests one after another (`bench-serialized`: where a request
//! takes real time alone, the burst's median latency grows with the
//! concurrency). Pure.

use crate::checks::{Code, Issue};
use crate::session::bench::Measured;

/// Concurrency up to which any error fails the bench.
const MODEST: u64 = 8;

/// The findings: errors or timeouts under modest concurrency fail; a
/// server that gains nothing from requests in flight serialises them.
pub fn check(concurrency: u64, r: &Measured) -> Vec<Issue> {
    let mut out = Vec::new();
    if !r.warm_opened {
        out.push(Issue::new(
            Code::BenchFailed,
            "the warm process did not open",
        ));
        return out;
    }
    let b = &r.burst;
    if b.timeouts > 0 {
        out.push(Issue::new(
            Code::BenchFailed,
            format!(
                "{} of {} requests got no answer within the timeout with {} in flight: the server stalls or deadlocks under pipelined requests",
                b.timeouts, b.sent, b.concurrency
            ),
        ));
    } else if b.errors > 0 && concurrency <= MODEST {
        out.push(Issue::new(
            Code::BenchFailed,
            format!(
                "{} of {} requests failed with {} in flight",
                b.errors, b.sent, b.concurrency
            ),
        ));
    }
    // Requests in flight queue behind each other: the burst's median
    // latency grows with the concurrency. It matters where a request
    // takes real time (a millisecond or more alone); a fast event loop
    // answers in microseconds however it is built.
    let alone = r.sequential.latency.p50_us;
    let queued = b.latency.p50_us;
    if concurrency > 1
        && b.timeouts == 0
        && b.ok > 20
        && alone >= 1000
        && queued >= alone * concurrency / 2
    {
        out.push(Issue::new(
            Code::BenchSerialized,
            format!(
                "with {} in flight the median request took {} ms against {} ms alone ({} against {} requests/s): the server handles requests one after another",
                b.concurrency,
                crate::clock::tenths_of_thousandths(queued),
                crate::clock::tenths_of_thousandths(alone),
                b.rate().round() as u64,
                r.sequential.rate().round() as u64
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::bench::{Burst, Stats};

    fn measured(alone_us: u64, queued_us: u64, errors: u64) -> Measured {
        let burst = |c: u64, p50_us: u64| Burst {
            concurrency: c,
            sent: 100,
            ok: 100 - errors,
            errors,
            timeouts: 0,
            wall_us: 1_000_000,
            latency: Stats {
                count: 100,
                p50_us,
                ..Stats::default()
            },
        };
        Measured {
            warm_opened: true,
            sequential: burst(1, alone_us),
            burst: burst(8, queued_us),
            ..Measured::default()
        }
    }

    #[test]
    fn a_slow_server_that_queues_requests_is_serialized_and_a_fast_one_is_not() {
        let codes = |m: &Measured| check(8, m).iter().map(|i| i.code).collect::<Vec<_>>();
        assert_eq!(codes(&measured(2000, 16_000, 0)), [Code::BenchSerialized]);
        assert!(codes(&measured(2000, 2500, 0)).is_empty());
        // Microseconds alone: not flagged, however it is built.
        assert!(codes(&measured(50, 400, 0)).is_empty());
        assert_eq!(codes(&measured(50, 60, 3)), [Code::BenchFailed]);
        let closed = Measured::default();
        assert_eq!(codes(&closed), [Code::BenchFailed]);
    }
}
