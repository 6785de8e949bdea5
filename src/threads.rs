//! Work shared between the calling thread and rayon's threads, for the batch methods of
//! a [`Tape`](crate::tape::Tape) and the optimisers' `step_numbers`.
//!
//! [`share`] cuts nothing itself: it takes the units of work (a worker's chunks of
//! samples, a block of parameters), and every thread that joins (the caller first)
//! claims the next unclaimed unit until none is left. The caller never sleeps waiting
//! for a thread to wake up: if rayon's threads are slow to start, it does their units
//! itself. (Waking a sleeping thread can take as long as a good part of a training
//! step's optimiser update.)
//!
//! Which thread ran a unit changes no number: each unit writes only its own outputs,
//! and the callers add them up in a fixed order.

use crate::error::Error;
#[cfg(feature = "parallel")]
use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(feature = "parallel")]
use std::sync::{Mutex, PoisonError};

/// `Ok` unless `threads` is 0: then the error that says `what` needs at least one
/// thread (a batch, a step).
pub(crate) fn check_threads(threads: usize, what: &str) -> Result<(), Error> {
    match threads {
        0 => Err(Error::InvalidInput(format!(
            "threads = 0: {what} needs at least 1 thread"
        ))),
        _ => Ok(()),
    }
}

/// `items.map(f)` (results in the items' order), the items shared out between the
/// calling thread and up to `threads - 1` of rayon's (with the `parallel` feature;
/// without it, or for `threads <= 1`, one after the other on the calling thread).
pub(crate) fn share<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    share_with(&mut vec![(); threads.max(1)], items, |_, item| f(item))
}

/// [`share`], each thread that joins taking one of `states` (the caller the first) and
/// handing it to `f` with every item it claims: one thread per state (a worker's
/// buffers).
pub(crate) fn share_with<S: Send, T: Send, R: Send>(
    states: &mut [S],
    items: Vec<T>,
    f: impl Fn(&mut S, T) -> R + Sync,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    if states.len() > 1 && items.len() > 1 {
        return share_on_threads(states, items, f);
    }
    match states.first_mut() {
        Some(state) => items.into_iter().map(|item| f(state, item)).collect(),
        None => Vec::new(),
    }
}

#[cfg(feature = "parallel")]
fn share_on_threads<S: Send, T: Send, R: Send>(
    states: &mut [S],
    items: Vec<T>,
    f: impl Fn(&mut S, T) -> R + Sync,
) -> Vec<R> {
    let (n, threads) = (items.len(), states.len().min(items.len()));
    // Each state and each unit is taken out of its slot by the thread that claims it (a
    // lock no other thread waits for), and each result put into its own slot.
    let states: Vec<Mutex<Option<&mut S>>> = states.iter_mut().map(slot).collect();
    let items: Vec<Mutex<Option<T>>> = items.into_iter().map(slot).collect();
    let results: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let (next_state, next, done) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let run = || {
        let Some(state) = states.get(next_state.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        let Some(state) = take(state) else {
            return;
        };
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            // Counted as done even if `f` panics, so that the caller does not wait
            // forever (the panic then reaches it through the scope).
            let _done = Done(&done);
            if let Some(item) = take(&items[i]) {
                let result = f(state, item);
                *results[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
            }
        }
    };
    rayon::in_place_scope(|scope| {
        for _ in 1..threads {
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

/// A slot that holds `x` until a thread [`take`]s it.
#[cfg(feature = "parallel")]
fn slot<X>(x: X) -> Mutex<Option<X>> {
    Mutex::new(Some(x))
}

/// What `slot` holds, taken out (`None` if another thread took it).
#[cfg(feature = "parallel")]
fn take<X>(slot: &Mutex<Option<X>>) -> Option<X> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
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
