//! A small, fixed-seed random number generator for the lessons that draw random
//! graphs (29, 32): a failure is a seed to replay.
#![allow(dead_code)]

/// A small, fixed-seed random number generator (xorshift64*): no dependency needed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A whole number in `lo..=hi`.
    pub fn int(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    /// A float in `[-1, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.unit() + 1.0) / 2.0 < p
    }
    /// A number for a leaf: mostly small, now and then one that overflows something.
    pub fn data(&mut self) -> f64 {
        if self.chance(0.01) {
            1e200 * self.unit()
        } else {
            2.0 * self.unit()
        }
    }
}
