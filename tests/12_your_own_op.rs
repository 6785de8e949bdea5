//! Lesson 12: write your own op, with its own backward rule.
//!
//! In the lecture you add `tanh` to `Value` as a method that computes `out` and defines
//! `out._backward`. [`Value::custom`] takes the same two pieces: a forward function of
//! the parents' data, and the local derivatives d out / d parent_i. The engine does the
//! rest (`parent.grad += local * out.grad`), on the dynamic graph and on a compiled tape.

use std::sync::Arc;

use micrograd::engine::check_gradients;
use micrograd::nn::{Activation, Layer};
use micrograd::tape::Tape;
use micrograd::{Error, Pass, Value};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// The lecture's `tanh`, written as a custom op.
fn my_tanh(x: &Value) -> Value {
    // t = math.tanh(x); out = Value(t, (self, ), 'tanh')   (the lecture writes it out
    // as (math.exp(2*x) - 1)/(math.exp(2*x) + 1), which can differ by an ulp)
    // def _backward(): self.grad += (1 - t**2) * out.grad
    Value::custom(
        "my_tanh",
        &[x],
        |p| p[0].tanh(),
        |_p, out, d| d[0] = 1.0 - out * out,
    )
}

/// `sin`, the op a library user could not add before: d/dx sin x = cos x.
fn my_sin(x: &Value) -> Value {
    Value::custom(
        "my_sin",
        &[x],
        |p| p[0].sin(),
        |p, _out, d| d[0] = p[0].cos(),
    )
}

#[test]
fn a_custom_tanh_gives_the_built_in_tanhs_numbers_bit_for_bit() {
    for x in [-2.0, -0.3, 0.0, 0.8814, 5.0] {
        let (a, b) = (Value::new(x), Value::new(x));
        let (mine, built_in) = ((my_tanh(&a) * 3.0), (b.tanh() * 3.0));
        mine.backward();
        built_in.backward();
        assert_eq!(
            (mine.data(), a.grad()),
            (built_in.data(), b.grad()),
            "x = {x}"
        );
    }
}

#[test]
fn a_custom_op_shows_its_name_and_its_parents() {
    let x = Value::new(0.5).with_label("x");
    let y = my_sin(&x).with_label("y");
    assert_eq!(y.op(), "my_sin");
    assert!(Value::ptr_eq(&y.parents()[0], &x));
    let dot = y.to_dot();
    assert!(dot.contains("label=\"my_sin\""), "{dot}");
    assert!(dot.contains("{ y | data 0.4794 | grad 0.0000 }"), "{dot}");
}

// Any number of parents; a parent given twice gets both contributions (x*x*y as one op).
#[test]
fn a_custom_op_with_three_parents_accumulates_into_a_repeated_one() {
    let (x, y) = (Value::new(3.0), Value::new(-2.0));
    let xxy = Value::custom(
        "xxy",
        &[&x, &x, &y],
        |p| p[0] * p[1] * p[2],
        |p, _out, d| {
            d[0] = p[1] * p[2];
            d[1] = p[0] * p[2];
            d[2] = p[0] * p[1];
        },
    );
    xxy.backward();
    // d/dx x²y = 2xy = -12, d/dy = x² = 9
    assert_eq!((xxy.data(), x.grad(), y.grad()), (-18.0, -12.0, 9.0));
}

#[test]
fn a_custom_ops_derivative_passes_the_numerical_check() {
    let x = Value::new(0.7).with_label("x");
    let w = Value::new(-1.3).with_label("w");
    let check = check_gradients(&[&x, &w], 1e-6, || my_sin(&(&x * &w)) * my_tanh(&x)).unwrap();
    assert!(check.max_error() < 1e-8, "{check}");
}

#[test]
fn a_nan_from_a_custom_op_is_named_with_its_label() {
    // forward: the op made a NaN from a finite input
    let x = Value::new(-1.0);
    let root = Value::custom(
        "my_sqrt",
        &[&x],
        |p| p[0].sqrt(),
        |_, out, d| d[0] = 0.5 / out,
    );
    let err = (root.with_label("r") * 2.0).try_backward().unwrap_err();
    assert!(matches!(
        err,
        Error::NonFinite { pass: Pass::Forward, op: "my_sqrt", label: Some(ref l), .. } if l == "r"
    ));
    // backward: finite value, infinite derivative (sqrt at 0)
    let x = Value::new(0.0);
    let root = Value::custom(
        "my_sqrt",
        &[&x],
        |p| p[0].sqrt(),
        |_, out, d| d[0] = 0.5 / out,
    );
    let err = root.with_label("r").try_backward().unwrap_err();
    assert!(
        err.to_string()
            .contains("backward pass: op `my_sqrt` (label \"r\")"),
        "{err}"
    );
}

// A chain of two million custom nodes: backward and Drop do not recurse.
#[test]
fn a_chain_of_two_million_custom_ops_runs_backward_and_drops() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let x = Value::new(0.5);
            let mut y = x.clone();
            for _ in 0..2_000_000 {
                y = Value::custom("copy", &[&y], |p| p[0], |_, _, d| d[0] = 1.0);
            }
            y.backward();
            assert_eq!(x.grad(), 1.0);
            drop(y);
        })
        .unwrap()
        .join()
        .expect("a deep custom chain must not overflow a 256 KiB stack");
}

// A panic in your closure, caught by the caller, leaves the graph as good as before:
// the next pass through the same nodes, backward() or try_backward(), gives every
// gradient.
#[test]
fn a_pass_after_a_caught_panic_in_a_custom_op_gives_every_gradient() {
    let passes: [fn(&Value); 2] = [Value::backward, |v| v.try_backward().expect("finite")];
    for pass in passes {
        let x = Value::new(1.5);
        let s = &x * &x;
        let c = Value::custom("boom", &[&s], |p| p[0], |_, _, _| panic!("boom"));
        let y = &c * 2.0;
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pass(&y)));
        assert!(caught.is_err(), "the closure's panic reaches the caller");
        y.zero_grad_graph(); // the gradients added before the panic
        pass(&(&s * 1.0));
        assert_eq!(x.grad(), 3.0); // d(x*x)/dx = 2x at x = 1.5
    }
}

// The same in a layer, whose neurons share one list of inputs: y = n0 + boom(n1).
#[test]
fn a_layer_under_a_caught_panic_gives_every_gradient_afterwards() {
    let layer = Layer::new(1, 2, Activation::Linear, &mut StdRng::seed_from_u64(1));
    let n0_grad_of_x = |panic_first: bool| {
        let x = Value::new(1.5);
        let s = &x * &x;
        let n = layer.forward(&[s]).expect("one input");
        if panic_first {
            let c = Value::custom("boom", &[&n[1]], |p| p[0], |_, _, _| panic!("boom"));
            let y = &n[0] + &c;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| y.backward()));
            assert!(caught.is_err());
            n[0].zero_grad(); // the one gradient y's rule added before the panic
        }
        (&n[0] * 1.0).backward();
        x.grad()
    };
    assert_eq!(n0_grad_of_x(true), n0_grad_of_x(false));
}

#[test]
fn a_custom_ops_closures_are_freed_with_its_graph() {
    let token = Arc::new(());
    let x = Value::new(1.0);
    let held = Arc::clone(&token);
    let y = Value::custom(
        "holds",
        &[&x],
        move |p| p[0] + 0.0 * Arc::strong_count(&held) as f64,
        |_, _, d| d[0] = 1.0,
    );
    assert_eq!(Arc::strong_count(&token), 2);
    drop(y);
    assert_eq!(Arc::strong_count(&token), 1);
}

// The workaround this replaces: a constant computed from x.data() while building
// (sin's tangent line at the first x) is right on the graph, wrong on a tape. A custom op
// is re-run by the tape on the new data.
#[test]
fn a_tape_reruns_a_custom_op_on_new_data_bit_for_bit() {
    let (x, w) = (Value::new(0.3), Value::new(1.7));
    let f = |x: &Value, w: &Value| my_sin(&(x * w)) * my_tanh(w) + x;
    let mut tape = Tape::compile(&f(&x, &w)).unwrap();
    for (xi, wi) in [(2.0, 1.3), (-0.7, 0.2), (1.5, -2.5)] {
        x.set_data(xi);
        w.set_data(wi);
        let value = tape.forward().unwrap();
        tape.backward().unwrap();
        let (dx, dw) = (Value::new(xi), Value::new(wi));
        let graph = f(&dx, &dw);
        graph.backward();
        assert_eq!(value, graph.data());
        assert_eq!(tape.grad_of(&x).unwrap(), dx.grad());
        assert_eq!(tape.grad_of(&w).unwrap(), dw.grad());
    }
}

#[test]
fn a_tape_names_a_custom_op_that_makes_a_nan() {
    let x = Value::new(1.0);
    let y = Value::custom("my_ln", &[&x], |p| p[0].ln(), |p, _, d| d[0] = 1.0 / p[0]);
    let mut tape = Tape::compile(&(y.with_label("log") * 2.0)).unwrap();
    x.set_data(-1.0);
    let err = tape.forward().unwrap_err();
    assert!(
        matches!(
            err,
            Error::NonFinite {
                pass: Pass::Forward,
                op: "my_ln",
                ..
            }
        ),
        "{err}"
    );
    x.set_data(0.0); // ln 0 = -inf: made by the op
    assert!(tape
        .forward()
        .unwrap_err()
        .to_string()
        .contains("`my_ln` (label \"log\")"));
    // a finite value whose derivative is infinite: sqrt at 0
    let r = Value::custom(
        "my_sqrt",
        &[&x],
        |p| p[0].sqrt(),
        |_, out, d| d[0] = 0.5 / out,
    );
    let mut tape = Tape::compile(&(r * 2.0)).unwrap();
    tape.forward().unwrap();
    let err = tape.backward().unwrap_err();
    assert!(
        matches!(
            err,
            Error::NonFinite {
                pass: Pass::Backward,
                op: "my_sqrt",
                ..
            }
        ),
        "{err}"
    );
}

// An op of nothing is a constant: Value::new says so more plainly.
#[test]
#[should_panic(expected = "Value::custom(\"pi\", ..) has no parents")]
fn a_custom_op_without_parents_is_a_programming_error() {
    let _ = Value::custom("pi", &[], |_| std::f64::consts::PI, |_, _, _| {});
}
