//! How a `Value` prints: Python's `__repr__`, `Value(data=-20.0, grad=46.0)`, with each
//! `f64` formatted the way Python's `repr(float)` does (also for the stepper page).

use std::fmt;

use crate::engine::Value;

/// Displays an `f64` as Python's `repr` would: `-20.0`, `0.0001`, `1e-05`, `1.5e+16`,
/// `nan`, `inf`: the shortest digits that round-trip, in fixed notation for decimal
/// exponents from -4 to 15 and in scientific notation outside.
pub(crate) struct PyFloat(pub(crate) f64);

impl fmt::Display for PyFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x.is_nan() {
            return f.write_str("nan");
        }
        if x.is_infinite() {
            return f.write_str(if x > 0.0 { "inf" } else { "-inf" });
        }
        let sci = shortest_digits(x.abs());
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let sign = if x.is_sign_negative() { "-" } else { "" };
        if !(-4..16).contains(&exp) {
            let (first, rest) = digits.split_at(1);
            let dot = if rest.is_empty() { "" } else { "." };
            let esign = if exp < 0 { '-' } else { '+' };
            return write!(f, "{sign}{first}{dot}{rest}e{esign}{:02}", exp.abs());
        }
        if exp < 0 {
            let zeros = "0".repeat((-exp - 1) as usize);
            return write!(f, "{sign}0.{zeros}{digits}");
        }
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            let zeros = "0".repeat(int_len - digits.len());
            write!(f, "{sign}{digits}{zeros}.0")
        } else {
            let (int, frac) = digits.split_at(int_len);
            write!(f, "{sign}{int}.{frac}")
        }
    }
}

/// `x` in scientific notation with the fewest significant digits that read back as `x`,
/// as Python's `repr` picks them: "1.2345e-5".
///
/// Rust's `{:e}` gives that many digits, but when `x` lies exactly halfway between two
/// such decimals it takes the upper one (`1341538170625153.25` gives `…153.3`), where
/// Python (David Gay's dtoa) takes the one correctly rounded half to even (`…153.2`).
/// Rounding `x` to that many digits with `{:.N e}`, which rounds exactly and half to even,
/// gives Python's; it is kept only if it reads back as `x` (it always should: the closest
/// decimal of that length does, when any of that length does).
fn shortest_digits(x: f64) -> String {
    let shortest = format!("{x:e}");
    let mantissa = shortest.split('e').next().unwrap_or(&shortest);
    let n = mantissa.chars().filter(char::is_ascii_digit).count();
    let rounded = format!("{x:.*e}", n.saturating_sub(1));
    if rounded.parse::<f64>() == Ok(x) {
        rounded
    } else {
        shortest
    }
}

impl fmt::Display for Value {
    /// What Python's `print(v)` shows (its `str` is its `repr`):
    /// `Value(data=-20.0, grad=46.0)`, as [`Debug`](fmt::Debug) prints it.
    ///
    /// ```
    /// let x = micrograd::Value::new(-4.0);
    /// let y = &x * 5.0;
    /// y.backward();
    /// assert_eq!(y.to_string(), "Value(data=-20.0, grad=1.0)");
    /// assert_eq!(format!("{x}"), format!("{x:?}"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl fmt::Debug for Value {
    /// Prints like Python's `repr`: `Value(data=-20.0, grad=46.0)`, floats in Python's
    /// shortest round-trip form (`1e-05`, `nan`). One difference: where Python holds an
    /// `int` (the root's `grad = 1` after `backward()`, `relu`'s `0`) it prints `1` and
    /// `0`; here data and grad are always `f64`, printed as `1.0` and `0.0`. The data
    /// is what [`data`](crate::Value::data) gives (a live `Training`'s number for a parameter
    /// it has stepped).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Value(data={}, grad={})",
            PyFloat(self.data()),
            PyFloat(self.grad())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::PyFloat;

    /// Each pair is (x, what Python 3 prints for `repr(x)`).
    #[test]
    fn matches_python_repr() {
        let cases = [
            (-20.0, "-20.0"),
            (46.0, "46.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (24.70408163265306, "24.70408163265306"),
            (0.0001, "0.0001"),
            (1e-5, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (1.5e300, "1.5e+300"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (x, python) in cases {
            assert_eq!(PyFloat(x).to_string(), python, "repr of {x:e}");
        }
    }
}
