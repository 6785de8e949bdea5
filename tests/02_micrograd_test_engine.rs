//! Lesson 2: micrograd's own `test/test_engine.py`, ported line by line.
//!
//! Python checks these against PyTorch; the expected numbers are the ones PyTorch (and
//! Python micrograd) print.

use approx::assert_relative_eq;
use micrograd::Value;

// def test_sanity_check():
#[test]
fn test_sanity_check() {
    // x = Value(-4.0)
    let x = Value::new(-4.0);
    // z = 2 * x + 2 + x
    let z = 2.0 * &x + 2.0 + &x;
    // q = z.relu() + z * x
    let q = z.relu() + &z * &x;
    // h = (z * z).relu()
    let h = (&z * &z).relu();
    // y = h + q + q * x
    let y = &h + &q + &q * &x;
    // y.backward()
    y.backward();
    // assert ymg.data == ypt.data.item()  (-20.0)
    assert_eq!(y.data(), -20.0);
    // assert xmg.grad == xpt.grad.item()  (46.0)
    assert_eq!(x.grad(), 46.0);
}

// def test_more_ops():
#[test]
fn test_more_ops() {
    // a = Value(-4.0); b = Value(2.0)
    let a = Value::new(-4.0);
    let b = Value::new(2.0);
    // c = a + b
    let mut c = &a + &b;
    // d = a * b + b**3
    let mut d = &a * &b + b.powf(3.0);
    // c += c + 1
    c += &c + 1.0;
    // c += 1 + c + (-a)
    c += 1.0 + &c + (-&a);
    // d += d * 2 + (b + a).relu()
    d += &d * 2.0 + (&b + &a).relu();
    // d += 3 * d + (b - a).relu()
    d += 3.0 * &d + (&b - &a).relu();
    // e = c - d
    let e = &c - &d;
    // f = e**2
    let f = e.powf(2.0);
    // g = f / 2.0
    let mut g = &f / 2.0;
    // g += 10.0 / f
    g += 10.0 / &f;
    // g.backward()
    g.backward();
    // tol = 1e-6 in Python; we hold to 1e-12 relative.
    assert_relative_eq!(g.data(), 24.70408163265306, max_relative = 1e-12);
    assert_relative_eq!(a.grad(), 138.83381924198252, max_relative = 1e-12);
    assert_relative_eq!(b.grad(), 645.5772594752186, max_relative = 1e-12);
}
