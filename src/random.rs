//! Random numbers exactly as Python's `random` module draws them.
//!
//! micrograd initialises every weight with `random.uniform(-1, 1)`, so its demo is
//! reproducible only with CPython's generator. [`PythonRandom`] is that generator:
//! MT19937 (the Mersenne Twister, from the [`rand_mt`] crate) seeded the way
//! `random.seed(n)` seeds it. [`random`] and [`uniform`] turn any [`rand::Rng`]'s `u32`s
//! into floats the way CPython does, and [`MLP::new`](crate::nn::MLP::new) draws its
//! weights with [`uniform`]. So:
//!
//! - with a [`PythonRandom`], a model gets exactly the weights Python micrograd gets;
//! - with any other [`rand::Rng`] (say `StdRng::seed_from_u64(7)`), a seed still
//!   reproduces a model, just not Python's.
//!
//! ```
//! use micrograd::random::PythonRandom;
//! // Python: random.seed(1337); random.uniform(-1, 1)
//! let mut rng = PythonRandom::seed(1337);
//! assert_eq!(rng.uniform(-1.0, 1.0), 0.23550571390294128);
//! ```

use std::convert::Infallible;

use rand::{Rng, TryRng};
use rand_mt::Mt;

/// Python's `random.random()` from any generator: a float in `[0, 1)` with 53 random bits.
///
/// It takes two `u32`s, `a` then `b`, as CPython's `random_random` does:
///
/// `random = ((a >> 5) * 2^26 + (b >> 6)) / 2^53`
///
/// (27 bits of `a` above 26 bits of `b`). Every float it returns is a multiple of 2^-53.
///
/// ```
/// use micrograd::random::{random, PythonRandom};
/// // Python: random.seed(1); random.random()
/// let mut rng = PythonRandom::seed(1);
/// assert_eq!(random(&mut rng), 0.13436424411240122);
/// ```
pub fn random<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let a = rng.next_u32() >> 5;
    let b = rng.next_u32() >> 6;
    (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
}

/// Python's `random.uniform(a, b)` from any generator: `a + (b - a) * random()`.
///
/// For `a < b` the result is in `[a, b]` (`b` itself only by rounding), as in Python.
///
/// ```
/// use micrograd::random::{uniform, PythonRandom};
/// // Python: random.seed(1); random.uniform(-1, 1)
/// let mut rng = PythonRandom::seed(1);
/// assert_eq!(uniform(&mut rng, -1.0, 1.0), -0.7312715117751976);
/// ```
pub fn uniform<R: Rng + ?Sized>(rng: &mut R, a: f64, b: f64) -> f64 {
    a + (b - a) * random(rng)
}

/// CPython's random number generator: MT19937 seeded as `random.seed(n)` seeds it.
///
/// `random.seed(n)` for an integer `n` calls MT19937's `init_by_array` with the key made
/// of the 32-bit words of `|n|`, least significant word first (and the key `[0]` for
/// `n = 0`). [`PythonRandom::seed`] does the same, so the `u32` stream, [`random`] and
/// [`uniform`] match Python's draw for draw.
///
/// It implements [`rand::Rng`], so it can be passed wherever a generator is wanted,
/// e.g. to [`MLP::new`](crate::nn::MLP::new).
///
/// ```
/// use micrograd::random::PythonRandom;
/// use rand::Rng;
/// // Python: random.seed(1337); random.getrandbits(32)
/// let mut rng = PythonRandom::seed(1337);
/// assert_eq!(rng.next_u32(), 2653228291);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonRandom {
    mt: Mt,
}

impl PythonRandom {
    /// The generator after Python's `random.seed(n)`.
    ///
    /// The sign of `n` is ignored, as in Python (`seed(-5)` is `seed(5)`).
    ///
    /// ```
    /// use micrograd::random::PythonRandom;
    /// // Python: random.seed(2**40 + 5); random.random()
    /// let mut rng = PythonRandom::seed((1 << 40) + 5);
    /// assert_eq!(rng.random(), 0.5043802970418443);
    /// ```
    pub fn seed(n: i128) -> PythonRandom {
        PythonRandom {
            mt: Mt::new_with_key(seed_key(n)),
        }
    }

    /// Python's `random.random()`: see [`random`].
    pub fn random(&mut self) -> f64 {
        random(self)
    }

    /// Python's `random.uniform(a, b)`: see [`uniform`].
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        uniform(self, a, b)
    }
}

/// The `init_by_array` key CPython builds from a seed: the 32-bit words of `|n|`, least
/// significant first, with no high zero words (and `[0]` for 0).
fn seed_key(n: i128) -> Vec<u32> {
    let mut rest = n.unsigned_abs();
    let mut key = Vec::new();
    loop {
        key.push(rest as u32); // the low word; `as` keeps exactly the low 32 bits
        rest >>= 32;
        if rest == 0 {
            return key;
        }
    }
}

/// The `rand` core trait: `next_u32` is MT19937's `genrand_uint32`, Python's
/// `getrandbits(32)`. `next_u64` and `fill_bytes` follow `rand_mt`.
impl TryRng for PythonRandom {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.mt.next_u32())
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.mt.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.mt.fill_bytes(dst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::seed_key;

    #[test]
    fn seed_key_is_the_little_endian_words_of_the_absolute_value() {
        assert_eq!(seed_key(0), [0]);
        assert_eq!(seed_key(1337), [1337]);
        assert_eq!(seed_key(-1337), [1337]);
        assert_eq!(seed_key((1 << 40) + 5), [5, 1 << 8]);
        assert_eq!(seed_key(1 << 32), [0, 1]);
    }
}
