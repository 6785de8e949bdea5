//! Made-up two-class data: scikit-learn's `make_moons` and `make_circles`, and XOR.

use std::f64::consts::PI;

use rand::{Rng, RngExt};

use super::Dataset;
use crate::Error;

/// `n` points on two interleaving half circles, as scikit-learn's `make_moons`; labels
/// `-1.0` (upper moon) and `+1.0` (lower moon), as micrograd's `demo.ipynb` uses them.
///
/// The upper moon gets `n / 2` points `(cos t, sin t)` and the lower moon the other
/// `n - n / 2` points `(1 - cos t, 0.5 - sin t)`, with `t` evenly spaced over `[0, pi]`
/// (both ends included). Each coordinate then gets independent Gaussian noise of standard
/// deviation `noise`, and the samples are shuffled, as scikit-learn does by default.
/// The same `rng` state gives the same points.
///
/// # Errors
///
/// [`Error::InvalidInput`] if `n < 2` or `n >` [`MAX_SAMPLES`], [`Error::HyperParameter`]
/// if `noise` is not in `[0, 1e300]` (NaN, negative, or so large that points would
/// overflow to infinity).
///
/// ```
/// use rand::{rngs::StdRng, SeedableRng};
/// let data = micrograd::data::make_moons(100, 0.1, &mut StdRng::seed_from_u64(1337))?;
/// assert_eq!((data.len(), data.width()), (100, 2));
/// assert_eq!(data.labels.iter().filter(|&&y| y == 1.0).count(), 50);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn make_moons<R: Rng + ?Sized>(n: usize, noise: f64, rng: &mut R) -> Result<Dataset, Error> {
    check_two_classes(n, noise)?;
    let upper = linspace(0.0, PI, n / 2, true).map(|t| (vec![t.cos(), t.sin()], -1.0));
    let lower =
        linspace(0.0, PI, n - n / 2, true).map(|t| (vec![1.0 - t.cos(), 0.5 - t.sin()], 1.0));
    Ok(noisy_shuffled(upper.chain(lower), noise, rng))
}

/// `n` points on two circles around the origin, as scikit-learn's `make_circles`: the
/// outer circle (radius 1, label `-1.0`) gets `n / 2` points, the inner one (radius
/// `factor`, label `+1.0`) the other `n - n / 2`.
///
/// On each circle the angles are evenly spaced over `[0, 2 pi)`; a point is
/// `(r cos t, r sin t)`. Gaussian noise of standard deviation `noise` is added to each
/// coordinate and the samples are shuffled.
///
/// # Errors
///
/// [`Error::InvalidInput`] if `n < 2` or `n >` [`MAX_SAMPLES`]; [`Error::HyperParameter`]
/// if `noise` is not in `[0, 1e300]` (NaN, negative, or so large that points would
/// overflow to infinity), or `factor` is not strictly between 0 and 1.
///
/// ```
/// use rand::{rngs::StdRng, SeedableRng};
/// let data = micrograd::data::make_circles(10, 0.0, 0.5, &mut StdRng::seed_from_u64(0))?;
/// for (x, &y) in data.inputs.iter().zip(&data.labels) {
///     let radius = x[0].hypot(x[1]);
///     assert!((radius - if y < 0.0 { 1.0 } else { 0.5 }).abs() < 1e-12);
/// }
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn make_circles<R: Rng + ?Sized>(
    n: usize,
    noise: f64,
    factor: f64,
    rng: &mut R,
) -> Result<Dataset, Error> {
    check_two_classes(n, noise)?;
    if !(factor > 0.0 && factor < 1.0) {
        return Err(Error::HyperParameter {
            name: "factor",
            value: factor,
            expected: "strictly between 0 and 1 (the inner circle's radius)",
        });
    }
    let circle = |count: usize, radius: f64, label: f64| {
        linspace(0.0, 2.0 * PI, count, false)
            .map(move |t| (vec![radius * t.cos(), radius * t.sin()], label))
    };
    let points = circle(n / 2, 1.0, -1.0).chain(circle(n - n / 2, factor, 1.0));
    Ok(noisy_shuffled(points, noise, rng))
}

/// The four corners of the unit square labelled by exclusive or: `-1.0` where the two
/// inputs are equal, `+1.0` where they differ. No straight line separates the classes,
/// so a model needs a hidden layer to fit them.
///
/// ```
/// let data = micrograd::data::xor();
/// assert_eq!(data.inputs[1], vec![0.0, 1.0]);
/// assert_eq!(data.labels, vec![-1.0, 1.0, 1.0, -1.0]);
/// ```
pub fn xor() -> Dataset {
    Dataset {
        inputs: vec![
            vec![0.0, 0.0],
            vec![0.0, 1.0],
            vec![1.0, 0.0],
            vec![1.0, 1.0],
        ],
        labels: vec![-1.0, 1.0, 1.0, -1.0],
    }
}

/// One draw from the standard normal distribution N(0, 1), by the Box-Muller transform:
/// for `u1` uniform in `(0, 1]` and `u2` uniform in `[0, 1)`,
/// `sqrt(-2 ln u1) cos(2 pi u2)` is standard normal. (`rand` 0.10 has no normal
/// distribution of its own, and this one line does not justify a dependency.)
fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1 = 1.0 - rng.random::<f64>();
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos()
}

/// `count` evenly spaced numbers from `start` to `end`, `end` included or not, as numpy's
/// `linspace(start, end, count, endpoint)`.
fn linspace(start: f64, end: f64, count: usize, endpoint: bool) -> impl Iterator<Item = f64> {
    let steps = if endpoint {
        count.saturating_sub(1)
    } else {
        count
    };
    let step = if steps == 0 {
        0.0
    } else {
        (end - start) / steps as f64
    };
    (0..count).map(move |i| start + step * i as f64)
}

/// The most samples [`make_moons`] and [`make_circles`] make: one million, about 64 MB
/// (each sample is a `Vec` of 2 numbers, its heap block, and a label). A scalar-autograd
/// model takes tens of microseconds per sample and step, so a larger synthetic set would
/// not be trained on anyway; the bound turns a mistaken size such as `usize::MAX` into an
/// error instead of an out-of-memory kill. Build a larger [`Dataset`] yourself if you
/// need one.
pub const MAX_SAMPLES: usize = 1_000_000;

/// The checks both two-class generators share.
fn check_two_classes(n: usize, noise: f64) -> Result<(), Error> {
    if n < 2 {
        let message = format!("n = {n} samples cannot cover two classes; ask for at least 2");
        return Err(Error::InvalidInput(message));
    }
    if n > MAX_SAMPLES {
        let message = format!(
            "n = {n} samples is more than the {MAX_SAMPLES} a generator makes \
             (micrograd::data::MAX_SAMPLES); ask for fewer, or build a larger Dataset yourself"
        );
        return Err(Error::InvalidInput(message));
    }
    // A standard normal draw here is at most about 8.6 in size (Box-Muller from 53-bit
    // uniforms), so noise up to 1e300 keeps every coordinate finite; near f64::MAX it
    // overflowed to inf. (NaN is not in the range either.)
    if !(0.0..=1e300).contains(&noise) {
        return Err(Error::HyperParameter {
            name: "noise",
            value: noise,
            expected: "in [0, 1e300] (the noise's standard deviation; more would overflow \
                       the points to infinity)",
        });
    }
    Ok(())
}

/// The points, each coordinate plus N(0, `noise`^2) noise, in shuffled order.
fn noisy_shuffled<R: Rng + ?Sized>(
    points: impl Iterator<Item = (Vec<f64>, f64)>,
    noise: f64,
    rng: &mut R,
) -> Dataset {
    let mut data = Dataset::default();
    for (mut x, y) in points {
        for xi in &mut x {
            *xi += noise * standard_normal(rng);
        }
        data.inputs.push(x);
        data.labels.push(y);
    }
    data.permute(rng);
    data
}
