//! Random numbers exactly as Python's `random` module draws them.
//!
//! micrograd initialises every weight with `random.uniform(-1, 1)`, so its demo is
//! reproducible only with CPython's generator. [`PythonRandom`] is that generator:
//! MT19937 (the Mersenne Twister, from the [`rand_mt`] crate) seeded the way
//! `random.seed(n)` seeds it (feature `rand_mt`, on by default). [`random`] and
//! [`uniform`] turn any [`rand::Rng`]'s `u32`s into floats the way CPython does, and
//! [`MLP::new`](crate::nn::MLP::new) draws its weights with [`uniform`]. So:
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

use rand::Rng;

#[cfg(feature = "rand_mt")]
mod python;
#[cfg(feature = "rand_mt")]
pub use python::PythonRandom;

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

/// Python's `random.normalvariate(mu, sigma)` from any generator: a normal deviate by
/// Kinderman and Monahan's ratio-of-uniforms method, exactly as CPython draws it (two
/// `random()` a try, until one is accepted), so a
/// [`PythonRandom`] gives Python's numbers.
///
/// ```
/// use micrograd::random::{normalvariate, PythonRandom};
/// // Python: random.seed(1); random.normalvariate(0.0, 1.0)
/// let mut rng = PythonRandom::seed(1);
/// assert_eq!(normalvariate(&mut rng, 0.0, 1.0), 0.6074558576437062);
/// ```
pub fn normalvariate<R: Rng + ?Sized>(rng: &mut R, mu: f64, sigma: f64) -> f64 {
    // Python: NV_MAGICCONST = 4 * _exp(-0.5) / _sqrt(2.0)
    let magic = 4.0 * (-0.5f64).exp() / 2.0f64.sqrt();
    loop {
        let u1 = random(rng);
        let u2 = 1.0 - random(rng);
        let z = magic * (u1 - 0.5) / u2;
        let zz = z * z / 4.0;
        if zz <= -u2.ln() {
            return mu + z * sigma;
        }
    }
}
