//! Lesson 5: the same numbers as Python micrograd, op by op.
//!
//! Every expected number below is what Python micrograd 0.1.0 prints for the same
//! expression: run `python3 scripts/ci/python_reference.py` (after
//! `pip install micrograd==0.1.0`) to see them. Each line of that script's output is
//! `name: data, a.grad, b.grad` with `a = Value(1.5)`, `b = Value(-2.25)`.

use micrograd::Value;

/// Builds `f(a, b)` at a = 1.5, b = -2.25, runs backward, returns (data, a.grad, b.grad).
fn run(f: impl Fn(&Value, &Value) -> Value) -> (f64, f64, f64) {
    let a = Value::new(1.5);
    let b = Value::new(-2.25);
    let y = f(&a, &b);
    y.backward();
    (y.data(), a.grad(), b.grad())
}

// add: a + b  ->  -0.75, 1, 1     (and likewise for each line below)
#[test]
fn ops_that_python_builds_the_same_way_match_exactly() {
    assert_eq!(run(|a, b| a + b), (-0.75, 1.0, 1.0));
    assert_eq!(run(|a, b| a - b), (3.75, 1.0, -1.0));
    assert_eq!(run(|a, b| a * b), (-3.375, -2.25, 1.5));
    assert_eq!(run(|a, _| -a), (-1.5, -1.0, 0.0));
    assert_eq!(run(|a, _| 3.0 + a), (4.5, 1.0, 0.0));
    assert_eq!(run(|a, _| 3.0 - a), (1.5, -1.0, 0.0));
    assert_eq!(run(|a, _| 3.0 * a), (4.5, 3.0, 0.0));
    assert_eq!(run(|a, _| a.powf(3.0)), (3.375, 6.75, 0.0));
    assert_eq!(
        run(|a, _| a.powf(-0.5)),
        (0.816496580927726, -0.2721655269759087, 0.0)
    );
    assert_eq!(run(|a, _| a.relu()), (1.5, 1.0, 0.0));
    assert_eq!(run(|_, b| b.relu()), (0.0, 0.0, 0.0));
}

// div: a / b -> -0.6666666666666666, -0.4444444444444444, -0.2962962962962963
// Python computes a * b**-1; we divide directly, which may differ in the last bit.
#[test]
fn division_matches_python_to_the_last_bits() {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-15 * y.abs();
    let (d, ga, gb) = run(|a, b| a / b);
    assert!(close(d, -0.6666666666666666) && close(ga, -0.4444444444444444));
    assert!(close(gb, -0.2962962962962963));
    // rdiv: 3.0 / a -> 2.0, -1.3333333333333333
    let (d, ga, _) = run(|a, _| 3.0 / a);
    assert!(close(d, 2.0) && close(ga, -1.3333333333333333));
}

// x = Value(3.0); y = (x * 2) * 5; y.backward(); y.backward()  ->  x.grad 10, then 30
#[test]
fn a_second_backward_accumulates_exactly_as_python_does() {
    let x = Value::new(3.0);
    let y = (&x * 2.0) * 5.0;
    y.backward();
    assert_eq!(x.grad(), 10.0);
    // The inner node (x * 2) kept its grad 5, gets 5 more, and passes 2 * 10 to x.
    y.backward();
    assert_eq!(x.grad(), 30.0);
}

// twice_sum: y = sum([a, b, c]) at 1, 2, 3; y.backward(); y.backward()  ->  4, 3, 2
// twice_prod: y = math.prod([a, b, c]) at 2, 3, 4; the same  ->  48.0, 24.0, 12.0
// Python's sum() is a chain of `+` nodes from 0, math.prod one of `*` nodes from 1, and
// those hidden nodes keep their grads from the first call. Here a sum is one node and a
// product has no `1 *` node: one call gives Python's numbers, a second call does not
// (as for `-` and `/`; reset with zero_grad_graph between calls).
#[test]
fn a_second_backward_through_sum_or_product_differs_from_pythons_hidden_nodes() {
    let grads = |xs: &[Value]| xs.iter().map(Value::grad).collect::<Vec<_>>();
    let xs = [1.0, 2.0, 3.0].map(Value::new);
    let y: Value = xs.iter().sum();
    y.backward();
    assert_eq!(grads(&xs), [1.0, 1.0, 1.0]);
    y.backward();
    assert_eq!(grads(&xs), [2.0, 2.0, 2.0]); // Python: 4, 3, 2
    let xs = [2.0, 3.0, 4.0].map(Value::new);
    let y: Value = xs.iter().product();
    y.backward();
    assert_eq!(grads(&xs), [12.0, 8.0, 6.0]);
    y.backward();
    assert_eq!(grads(&xs), [36.0, 24.0, 12.0]); // Python: 48.0, 24.0, 12.0
}

// repr(1341538170625153.25)  ->  '1341538170625153.2'   (an exact tie: the even digit)
#[test]
#[allow(clippy::excessive_precision)] // each float written as its exact value, on purpose
fn debug_rounds_an_exact_tie_to_even_as_pythons_repr_does() {
    // (the float's exact value, Python's repr): the `tie:` lines of
    // scripts/ci/python_reference.out. Each lies halfway between two shortest decimals.
    let ties = [
        (1341538170625153.25, "1341538170625153.2"),
        (0.00000107288360595703125, "1.0728836059570312e-06"),
        (0.0000107288360595703125, "1.0728836059570312e-05"),
        (0.0000259876251220703125, "2.5987625122070312e-05"),
        (-0.000082492828369140625, "-8.249282836914062e-05"),
        (0.000145435333251953125, "0.00014543533325195312"),
        (0.00066471099853515625, "0.0006647109985351562"),
        (0.00100803375244140625, "0.0010080337524414062"),
        (0.00383090972900390625, "0.0038309097290039062"),
        (0.0131015777587890625, "0.013101577758789062"),
        (0.0255756378173828125, "0.025575637817382812"),
        (0.093402862548828125, "0.09340286254882812"),
        (0.204288482666015625, "0.20428848266601562"),
        (0.71219635009765625, "0.7121963500976562"),
        (1.81552886962890625, "1.8155288696289062"),
        (3.09632110595703125, "3.0963211059570312"),
        (11.8310089111328125, "11.831008911132812"),
    ];
    for (x, python) in ties {
        let repr = format!("{:?}", Value::new(x));
        assert_eq!(repr, format!("Value(data={python}, grad=0.0)"));
    }
}
