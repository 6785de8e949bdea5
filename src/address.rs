//! Hash maps keyed by node addresses, with a hash made for them.
//!
//! Drawing a graph (`src/view/`) and compiling a tape look nodes up by address.
//! The standard hasher (SipHash) resists attackers choosing the keys; node addresses
//! are not chosen by anyone, so a multiply-and-rotate hash (the one of `rustc-hash`) is
//! enough and several times faster.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A map from a node's address ([`Value::address`](crate::Value)) to something.
pub(crate) type AddressMap<V> = HashMap<*const (), V, BuildHasherDefault<AddressHasher>>;

/// A set of node addresses.
pub(crate) type AddressSet = HashSet<*const (), BuildHasherDefault<AddressHasher>>;

/// Hashes one address: multiplies it by an odd constant, then rotates the well-mixed
/// high bits down to where the table takes its bucket index from.
#[derive(Default)]
pub(crate) struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0xf135_7aea_2e62_a9c5);
    }

    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}
