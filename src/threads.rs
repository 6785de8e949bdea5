//! Work shared between the calling thread and rayon's threads, for the batch methods of
//! a [`Tape`](crate::tape::Tape) and the optimisers' `step_numbers`.
//!
//! [`share`] cuts nothing itself: it takes the units of work (a worker's chunks of
//! samples, a block of parameters), and every thread that joins (the caller first)
//! claims the next unclaimed unit until none is left. The caller never sleeps waiting
//! for a thread to wake up: if rayon's threads are slow to start, it does their units
//! itself. (On this crate's 2-core machine, waking a sleeping thread takes about 25 µs,
//! as long as a sixth of a training step's optimiser update.)
//!
//! Which thread ran a unit changes no number: each unit writes only its own outputs,
//! and the callers add them up in a fixed order.

#[cfg(feature = "parallel")]
use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(feature = "parallel")]
use std::sync::{Mutex, PoisonError};

/// `items.map(f)` (results in the items' order), the items shared out between the
/// calling thread and up to `threads - 1` of rayon's (with the `parallel` feature;
/// without it, or for `threads <= 1`, one after the other on the calling thread).
pub(crate) fn share<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    if threads > 1 && items.len() > 1 {
        return share_on_threads(items, threads, f);
    }
    let _ = threads;
    items.into_iter().map(f).collect()
}

#[cfg(feature = "parallel")]
fn share_on_threads<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let n = items.len();
    // Each unit is taken out of its slot by the thread that claims it (a lock no other
    // thread waits for), and its result put into its own slot.
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let results: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let run = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        // Counted as done even if `f` panics, so that the caller does not wait forever
        // (the panic then reaches it through the scope).
        let _done = Done(&done);
        let item = slots[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(item) = item {
            let result = f(item);
            *results[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
        }
    };
    rayon::in_place_scope(|scope| {
        for _ in 1..threads.min(n) {
            scope.spawn(|_| run());
        }
        run();
        // Every unit is claimed; wait for those still running elsewhere (briefly: they
        // are running), rather than sleep until the scope's end.
        while done.load(Ordering::Acquire) < n {
            std::hint::spin_loop();
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("every unit ran to its end (a panic would have reached the scope)")
        })
        .collect()
}

/// Counts a unit as done when dropped.
#[cfg(feature = "parallel")]
struct Done<'a>(&'a AtomicUsize);

#[cfg(feature = "parallel")]
impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
    }
}
