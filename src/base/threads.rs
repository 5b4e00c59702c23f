//! Work on threads of its own where the system gives them: where it
//! refuses one (a limit on threads, no memory for a stack), the work runs
//! on the thread that asked instead, after its own part, where
//! `std::thread::scope`'s `spawn` would panic. What is computed is the
//! same either way; only how long it takes changes.

use std::sync::{Mutex, PoisonError};
use std::thread::{Builder, Scope, ScopedJoinHandle};

/// Whether there are two cores or more to work on.
pub fn two_cores() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// `(a(), b())`, `b` on a thread of its own while `a` runs where one can
/// be had, else after `a` on this thread. A panic in either is passed on.
pub fn both<A, B: Send>(a: impl FnOnce() -> A, b: impl Fn() -> B + Sync) -> (A, B) {
    std::thread::scope(|s| {
        let other = spawn(s, &b);
        let a = a();
        let b = match other {
            Some(other) => other
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            None => b(),
        };
        (a, b)
    })
}

/// `work` on a thread of its own in the scope `s`, if one can be had
/// (`None`: it was not, and `work` is dropped unrun).
pub fn spawn<'s, T: Send + 's>(
    s: &'s Scope<'s, '_>,
    work: impl FnOnce() -> T + Send + 's,
) -> Option<ScopedJoinHandle<'s, T>> {
    if refused() {
        return None;
    }
    Builder::new().spawn_scoped(s, work).ok()
}

/// What `work` makes of each of `parts`, in order: each part on a thread
/// of its own but the first, or on this one where no thread can be had.
/// A panic in any part is passed on.
pub fn each<P: Send, R: Send>(parts: Vec<P>, work: impl Fn(P) -> R + Sync) -> Vec<R> {
    // Each part behind a lock, so that one a thread was refused for is
    // still here to work on.
    let parts: Vec<Mutex<Option<P>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
    let take = |k: usize| {
        parts[k]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    };
    let work = &work;
    std::thread::scope(|s| {
        let others: Vec<_> = (1..parts.len())
            .map(|k| spawn(s, move || take(k).map(work)))
            .collect();
        let mut out = Vec::with_capacity(parts.len());
        if !parts.is_empty() {
            out.extend(take(0).map(work));
        }
        for (k, other) in (1..parts.len()).zip(others) {
            let made = match other {
                // A part that panicked: passed on.
                Some(handle) => handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
                None => take(k).map(work),
            };
            out.extend(made);
        }
        out
    })
}

#[cfg(test)]
thread_local! {
    /// Whether this thread is refused new threads (a test of the way
    /// without them).
    static REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the threads this one asks for are refused.
fn refused() -> bool {
    #[cfg(test)]
    return REFUSED.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// `work()` with every thread it asks for (on this thread) refused.
#[cfg(test)]
pub fn without_threads<T>(work: impl FnOnce() -> T) -> T {
    REFUSED.with(|r| r.set(true));
    let out = work();
    REFUSED.with(|r| r.set(false));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_refused_a_thread_are_worked_on_here_in_order() {
        let square = |p: u64| p * p;
        let parts: Vec<u64> = (1..=5).collect();
        let squares = vec![1, 4, 9, 16, 25];
        assert_eq!(each(parts.clone(), square), squares);
        assert_eq!(without_threads(|| each(parts, square)), squares);
        assert!(each(Vec::<u64>::new(), square).is_empty());
        let here = std::thread::current().id();
        let ran = without_threads(|| each(vec![(); 3], |()| std::thread::current().id()));
        assert!(ran.iter().all(|&id| id == here), "all on this thread");
        let ran = each(vec![(); 3], |()| std::thread::current().id());
        assert!(
            ran[1..].iter().all(|&id| id != here),
            "the others on threads"
        );
    }
}
